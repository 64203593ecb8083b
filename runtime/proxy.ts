/**
 * A server-side proxy for browser clients: a standard fetch handler,
 * `(request: Request) => Promise<Response>`, that forwards the SDK's calls to the service with the
 * API key added, so that the key stays on the server. A page then uses
 * `new Client({ baseUrl: 'https://your.site/api/oxen' })` with no key.
 */
import { SDKError } from './errors.ts';
import { env, isBrowser } from './env.ts';
import { checkBaseUrl, DEFAULT_BASE_URL } from './options.ts';
import { Redactor } from './redact.ts';

/** Options of `createProxyHandler`. Sizes in bytes. */
export interface ProxyOptions {
  /** The API key added to every forwarded call. Default: env `OXEN_API_KEY`. @throws SDKError when there is none. */
  apiKey?: string | undefined;
  /** The service. Default: env `OXEN_BASE_URL`, then `https://hub.oxen.ai` (https, or http to loopback). */
  baseUrl?: string | undefined;
  /** The `fetch` used to call the service. Default: the global `fetch`. */
  fetch?: typeof fetch | undefined;
  /**
   * The path the handler is mounted at, stripped before matching (e.g. `/api/oxen`: a request for
   * `/api/oxen/api/ai/images/generate` is forwarded to `/api/ai/images/generate`). Default: none.
   */
  pathPrefix?: string | undefined;
  /**
   * Origins of pages on other origins that may call the proxy (CORS): a list of origins
   * (`https://app.example.com`), `'*'`, or a predicate. Default: none, and then a request that
   * carries an `Origin` whose host differs from the proxy's own host is refused (403), so another
   * site cannot make a visitor's browser spend your key.
   */
  allowedOrigins?: readonly string[] | '*' | ((origin: string) => boolean) | undefined;
  /**
   * Your own check of the caller (a session cookie, a token of your app): resolve false to refuse
   * with 401. Default: every caller that reaches the handler is served, so put it behind your
   * application's authentication or pass this.
   */
  authorize?: ((request: Request) => boolean | Promise<boolean>) | undefined;
  /** The largest request body forwarded (default 10 MiB); larger: 413. */
  maxRequestBytes?: number | undefined;
}

/** A standard fetch handler. */
export type ProxyHandler = (request: Request) => Promise<Response>;

/** The API's own operations (`specs/openapi.yaml`), the only ones the proxy forwards. Path segments are checked separately. */
const OPERATIONS: ReadonlyArray<{ method: 'GET' | 'POST' | 'DELETE'; pattern: RegExp; query?: readonly string[] }> = [
  { method: 'POST', pattern: /^\/api\/ai\/chat\/completions$/ },
  { method: 'POST', pattern: /^\/api\/ai\/images\/generate$/ },
  { method: 'POST', pattern: /^\/api\/ai\/images\/edit$/ },
  { method: 'POST', pattern: /^\/api\/ai\/videos\/generate$/ },
  { method: 'POST', pattern: /^\/api\/ai\/queue$/ },
  { method: 'GET', pattern: /^\/api\/ai\/queue$/, query: ['namespace', 'model'] },
  { method: 'GET', pattern: /^\/api\/ai\/queue\/([^/]+)$/ },
  { method: 'DELETE', pattern: /^\/api\/ai\/queue\/([^/]+)$/ },
  { method: 'GET', pattern: /^\/api\/events$/ },
  { method: 'GET', pattern: /^\/api\/ai\/models\/([^/]+)$/ },
  { method: 'POST', pattern: /^\/api\/repos\/([^/]+)\/([^/]+)\/fine_tunes$/ },
  { method: 'POST', pattern: /^\/api\/repos\/([^/]+)\/([^/]+)\/fine_tunes\/([^/]+)\/tokenize$/ },
];

/** A path parameter, decoded once: ids, model names, namespaces and repositories only (no `.`/`..`, no `/`, no `%`). */
function safeSegment(raw: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return false;
  }
  return decoded !== '.' && decoded !== '..' && /^[A-Za-z0-9._~@:+-]+$/.test(decoded);
}

/** Request headers forwarded to the service (everything else, `Authorization` and `Cookie` included, is dropped). */
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'last-event-id'];
/** Response headers passed back (everything else is dropped: the service's cookies, auth challenges, encodings). */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'cache-control', 'retry-after', 'x-request-id'];
const CORS_ALLOW_HEADERS = 'content-type, accept, authorization, last-event-id, cache-control';
const CORS_EXPOSE_HEADERS = 'Retry-After, X-Request-Id';
const MAX_ERROR_BODY_BYTES = 65_536;

function jsonError(status: number, type: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { type, title: message, message }, status: 'error', status_message: type }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Read at most `limit` bytes of a body: undefined when larger, or with `cut` the first `limit` bytes. */
async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number, cut = false): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > limit) {
        void reader.cancel().catch(() => undefined);
        if (!cut) return undefined;
        chunks.push(value.subarray(0, limit - size));
        size = limit;
        break;
      }
      size += value.byteLength;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * A server-side proxy handler for the SDK's calls from browsers (as fal-js's server proxy): a
 * standard fetch handler `(request: Request) => Promise<Response>`.
 *
 * - Forwards only the API's own twelve operations (method and path; `GET /api/ai/queue` with its
 *   `namespace` and `model` query), under `pathPrefix`: any other path is 404, another method 405
 *   (with `Allow`), a path parameter that is not a plain id 400.
 * - Adds `Authorization: Bearer <apiKey>`; drops the caller's `Authorization`, `Cookie` and every
 *   header but `Accept`, `Content-Type` and `Last-Event-ID`. A POST body must be JSON (415
 *   otherwise) and at most `maxRequestBytes` (413).
 * - Streams the answer through as it arrives (the event stream and chat streams are not
 *   buffered), with only `Content-Type`, `Cache-Control`, `Retry-After` and `X-Request-Id`. Never
 *   sets the key in a response; an error body (at most 64 KiB) is redacted of it.
 * - Does not follow redirects (502); an unreachable service is 502. The caller's abort (its
 *   `request.signal`) ends the forwarded call.
 * - CORS: with `allowedOrigins`, answers preflights (`OPTIONS`, 204) for allowed origins and adds
 *   `Access-Control-Allow-Origin` to their responses; other origins get 403. Without it, a request
 *   whose `Origin` host differs from the proxy's host is refused (403).
 *
 * Mount it where your framework takes a fetch handler:
 * - Next.js (app router), `app/api/oxen/[...path]/route.ts`:
 *   `const handler = createProxyHandler({ pathPrefix: '/api/oxen' }); export { handler as GET, handler as POST, handler as DELETE, handler as OPTIONS };`
 * - Deno: `Deno.serve(createProxyHandler({ pathPrefix: '/api/oxen' }))`;
 *   Bun: `Bun.serve({ fetch: createProxyHandler({ pathPrefix: '/api/oxen' }) })`.
 * - Node's `http` (Express likewise: `app.use('/api/oxen', (req, res) => ...)` with the same body):
 * ```ts
 * import http from 'node:http';
 * import { pipeline, Readable } from 'node:stream';
 * const handler = createProxyHandler({ pathPrefix: '/api/oxen' });
 * http.createServer(async (req, res) => {
 *   const abort = new AbortController();
 *   res.on('close', () => abort.abort());
 *   const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
 *   const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers as Record<string, string>,
 *     body: hasBody ? (Readable.toWeb(req) as ReadableStream) : null, duplex: 'half', signal: abort.signal } as RequestInit);
 *   const response = await handler(request);
 *   res.writeHead(response.status, Object.fromEntries(response.headers)).flushHeaders(); // an event stream has no body yet
 *   if (response.body) pipeline(Readable.fromWeb(response.body as never), res, () => undefined); else res.end();
 * }).listen(3000);
 * ```
 * @throws SDKError at creation when there is no API key, the `baseUrl` is not https (or http to a
 * loopback host), or it runs in a browser (the key would be in the page).
 */
export function createProxyHandler(options: ProxyOptions = {}): ProxyHandler {
  if (isBrowser()) throw new SDKError('createProxyHandler runs on a server: in a browser the API key would be visible to every visitor');
  const apiKey = options.apiKey ?? env('OXEN_API_KEY');
  if (!apiKey) throw new SDKError('createProxyHandler needs an API key: pass apiKey or set OXEN_API_KEY on the server');
  const redactor = new Redactor([apiKey]); // this handler's own secret
  const baseUrl = checkBaseUrl(options.baseUrl ?? env('OXEN_BASE_URL') ?? DEFAULT_BASE_URL);
  const f = options.fetch ?? globalThis.fetch.bind(globalThis);
  const prefix = (options.pathPrefix ?? '').replace(/\/+$/, '');
  if (prefix !== '' && !prefix.startsWith('/')) throw new SDKError(`pathPrefix must start with "/", got ${JSON.stringify(prefix)}`);
  const maxRequestBytes = options.maxRequestBytes ?? 10 * 1024 * 1024;
  const allowed = options.allowedOrigins;
  const originAllowed = (origin: string): boolean =>
    allowed === undefined ? false : allowed === '*' ? true : typeof allowed === 'function' ? allowed(origin) : allowed.includes(origin);
  const redactKey = (text: string): string => redactor.text(text);

  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const origin = request.headers.get('origin') ?? undefined;
    const cors: Record<string, string> = {};
    if (origin !== undefined && allowed !== undefined && originAllowed(origin)) {
      cors['access-control-allow-origin'] = allowed === '*' ? '*' : origin;
      cors['access-control-expose-headers'] = CORS_EXPOSE_HEADERS;
      if (allowed !== '*') cors['vary'] = 'Origin';
    }
    const refuse = (status: number, type: string, message: string, headers: Record<string, string> = {}) => jsonError(status, type, message, { ...cors, ...headers });

    if (prefix !== '' && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return refuse(404, 'not_found', `No route for ${method} ${url.pathname}`);
    const path = url.pathname.slice(prefix.length);
    const candidates = OPERATIONS.filter((o) => o.pattern.test(path));
    if (candidates.length === 0) return refuse(404, 'not_found', `No route for ${method} ${url.pathname}`);
    const allow = [...new Set(candidates.map((o) => o.method))].join(', ');

    // Origin: a CORS preflight, a refused origin, or (without allowedOrigins) a cross-site caller.
    if (origin !== undefined) {
      if (allowed !== undefined && !originAllowed(origin)) return refuse(403, 'forbidden', `Origin ${origin} may not use this proxy`);
      if (allowed === undefined) {
        let host: string | undefined;
        try {
          host = new URL(origin).host;
        } catch {
          host = undefined;
        }
        if (host !== url.host && host !== (request.headers.get('host') ?? undefined)) return refuse(403, 'forbidden', `Origin ${origin} may not use this proxy (set allowedOrigins to allow other origins)`);
      }
    }
    if (method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: { ...cors, 'access-control-allow-methods': `${allow}, OPTIONS`, 'access-control-allow-headers': CORS_ALLOW_HEADERS, 'access-control-max-age': '600' },
      });
    }
    const op = candidates.find((o) => o.method === method);
    if (!op) return refuse(405, 'method_not_allowed', `Method ${method} is not allowed on ${path}`, { allow });
    if (!op.pattern.exec(path)!.slice(1).every(safeSegment)) return refuse(400, 'bad_request', `Malformed path parameter in ${path}`);
    if (options.authorize && !(await options.authorize(request))) return refuse(401, 'unauthenticated', 'Not authorized to use this proxy');

    // The body: JSON only, bounded.
    let body: Uint8Array<ArrayBuffer> | undefined;
    if (method === 'POST') {
      const declared = Number(request.headers.get('content-length') ?? NaN);
      if (Number.isFinite(declared) && declared > maxRequestBytes) return refuse(413, 'payload_too_large', `Request body exceeds ${maxRequestBytes} bytes`);
      const bytes = await readLimited(request.body, maxRequestBytes);
      if (bytes === undefined) return refuse(413, 'payload_too_large', `Request body exceeds ${maxRequestBytes} bytes`);
      const type = (request.headers.get('content-type') ?? '').toLowerCase();
      if (bytes.byteLength > 0 && !type.startsWith('application/json')) return refuse(415, 'unsupported_media_type', 'Request body must be application/json');
      body = bytes.byteLength > 0 ? bytes : undefined;
    }

    const query = new URLSearchParams();
    for (const name of op.query ?? []) {
      const v = url.searchParams.get(name);
      if (v !== null) query.set(name, v);
    }
    const search = query.toString();
    const target = `${baseUrl}${path}${search === '' ? '' : `?${search}`}`;
    const headers = new Headers();
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const v = request.headers.get(name);
      if (v !== null) headers.set(name, v);
    }
    headers.set('authorization', `Bearer ${apiKey}`);

    let upstream: Response;
    try {
      upstream = await f(target, { method, headers, body: body ?? null, signal: request.signal, redirect: 'manual' });
    } catch (err) {
      if (request.signal.aborted) return refuse(499, 'client_closed_request', 'The caller closed the request');
      return refuse(502, 'bad_gateway', `The proxy could not reach the service (${redactKey(err instanceof Error ? err.message : String(err))})`);
    }
    if (upstream.type === 'opaqueredirect' || (upstream.status >= 300 && upstream.status < 400)) {
      void upstream.body?.cancel().catch(() => undefined);
      return refuse(502, 'bad_gateway', 'The service answered with a redirect, which the proxy does not follow');
    }
    const out = new Headers(cors);
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const v = upstream.headers.get(name);
      if (v !== null) out.set(name, redactKey(v));
    }
    if ((out.get('content-type') ?? '').includes('text/event-stream')) out.set('x-accel-buffering', 'no');
    if (upstream.status >= 400) {
      // Error bodies are small: read (bounded) and redacted, in case the service echoes the key.
      const bytes = (await readLimited(upstream.body, MAX_ERROR_BODY_BYTES, true).catch(() => undefined)) ?? new Uint8Array(0);
      // A body cut at the limit may end with the start of the key: that part is redacted too.
      const text = new TextDecoder().decode(bytes);
      return new Response(bytes.byteLength >= MAX_ERROR_BODY_BYTES ? redactor.cutText(text) : redactKey(text), { status: upstream.status, headers: out });
    }
    return new Response(upstream.body, { status: upstream.status, headers: out });
  };
}
