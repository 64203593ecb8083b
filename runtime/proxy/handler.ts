/**
 * A server-side proxy for browser clients: a standard fetch handler,
 * `(request: Request) => Promise<Response>`, that forwards the SDK's calls to the service with the
 * API key added, so that the key stays on the server. A page then uses
 * `new Client({ baseUrl: 'https://your.site/api/oxen' })` with no key.
 */
import { SDKError } from '../errors.ts';
import { env, isBrowser } from '../internal/env.ts';
import { checkBaseUrl, DEFAULT_BASE_URL } from '../options.ts';
import { forward, type ForwardSettings } from './forward.ts';
import { hostCheck } from './hosts.ts';
import { keyRedaction } from './redact-key.ts';
import { OPERATION_ROUTES } from './routes.ts';
import { checkOrigins, jsonError, originOf } from './support.ts';

/**
 * Options of `createProxyHandler`. Sizes in bytes, times in milliseconds.
 *
 * @example
 * const handler = createProxyHandler({
 *   pathPrefix: '/api/oxen',
 *   publicOrigin: 'https://app.example.com',
 *   authorize: async (request) => (await sessionOf(request)) !== undefined,
 *   maxRequestBytes: 20 * 1024 * 1024,
 * });
 */
export interface ProxyOptions {
  /**
   * The API key added to every forwarded call.
   *
   * @default env `OXEN_API_KEY`
   * @throws SDKError when there is none.
   */
  apiKey?: string | undefined;
  /**
   * The service (https, or http to loopback).
   *
   * @default env `OXEN_BASE_URL`, then `https://hub.oxen.ai`
   */
  baseUrl?: string | undefined;
  /**
   * The `fetch` used to call the service.
   *
   * @default the global `fetch`
   */
  fetch?: typeof fetch | undefined;
  /**
   * The path the handler is mounted at, stripped before matching (e.g. `/api/oxen`: a request for
   * `/api/oxen/api/ai/images/generate` is forwarded to `/api/ai/images/generate`): the whole path
   * browsers use (under Express's `app.use('/api/oxen', listener)` too, where
   * `createNodeProxyListener` reads the path from `req.originalUrl`).
   *
   * @default none
   */
  pathPrefix?: string | undefined;
  /**
   * The origin, or origins, at which browsers reach the proxy (`https://app.example.com`,
   * `http://localhost:3000`): scheme, host and port. A request whose `Origin` is one of them is
   * same-origin and allowed, and a request whose `Host` header names another host (nor one of
   * `allowedHosts`) is refused (421): a DNS-rebinding page (its own name resolving to your server)
   * sends its own host, and on a GET no `Origin` at all. Unset, the proxy's own
   * origin is that of `request.url`, and only loopback hosts (`localhost`, names under
   * `.localhost`) and IP addresses are served, in `Host` and in `request.url` (421 otherwise, as
   * Vite's dev server does): set this (or `allowedHosts`) to serve a name. The request's own `Host`
   * header is never what an `Origin` is compared with.
   *
   * @default none
   * @throws SDKError at creation when one is not an http(s) origin.
   */
  publicOrigin?: string | readonly string[] | undefined;
  /**
   * Host names served besides those of `publicOrigin` (or, without it, besides loopback hosts and IP
   * addresses), as Vite's `server.allowedHosts`: `app.example.com` (any port), `.example.com` (that
   * name and every name under it), or `true` to serve any `Host` (only behind something that checks
   * it: a DNS-rebinding page can then use the proxy).
   *
   * @default none
   * @throws SDKError at creation when an entry is not a host name.
   */
  allowedHosts?: readonly string[] | true | undefined;
  /**
   * Origins of pages on OTHER origins that may call the proxy (CORS): a list of origins
   * (`https://app.example.com`; scheme, host and port must match), `'*'`, or a predicate of the
   * `Origin` header's value. The proxy's own origin (`publicOrigin`) stays allowed whatever this
   * says. Unset, a request whose `Origin` is not the proxy's own origin (another host, port or
   * scheme) is refused (403), so another site cannot make a visitor's browser spend your key.
   *
   * @default none
   * @throws SDKError at creation when a listed value is not an http(s) origin.
   */
  allowedOrigins?: readonly string[] | '*' | ((origin: string) => boolean) | undefined;
  /**
   * Your own check of the caller (a session cookie, a token of your app): resolve false to refuse
   * with 401; a callback that throws or rejects is answered 500. Unset, ANYONE who can reach the
   * handler spends your credits: put it behind your application's authentication or pass this.
   *
   * @default none
   */
  authorize?: ((request: Request) => boolean | Promise<boolean>) | undefined;
  /**
   * The largest request body forwarded; larger: 413, read no further.
   *
   * @default 10_485_760 (10 MiB)
   * @unit bytes
   */
  maxRequestBytes?: number | undefined;
  /**
   * How many requests with a body (POSTs) the proxy holds at once, from reading the body until the
   * service's answer headers arrive. One more is refused at once with 503 and `Retry-After: 1`
   * (nothing read, nothing queued). Each body held takes its size and at most about 1 MiB more
   * while it is read and sent: by default 32 × `maxRequestBytes` of bodies in memory, and about 10%
   * more.
   *
   * @default 32
   */
  maxConcurrentBodies?: number | undefined;
  /**
   * How long the proxy waits for a request body to arrive whole, from when it starts reading it (by
   * default a 10 MiB body needs about 1.4 Mbit/s). Longer: 408, and the request's slot among
   * `maxConcurrentBodies` is free again, so that slow uploads cannot hold them all.
   *
   * @default 60_000
   * @unit milliseconds
   */
  bodyTimeoutMs?: number | undefined;
  /**
   * The proxy's own limit on each call to the service: the answer's headers and its whole body must
   * arrive within it. The event stream (`GET /api/events`) needs only its headers within it, then
   * streams for as long as the caller stays. No headers in time: 504; a body cut by it ends the
   * answer early.
   *
   * @default 600_000 (10 minutes, as the client's chat `timeoutMs`)
   * @unit milliseconds
   */
  timeoutMs?: number | undefined;
}

/** A standard fetch handler. */
export type ProxyHandler = (request: Request) => Promise<Response>;

/** The API's own operations (`specs/openapi.yaml`, through `runtime/operations.ts`), the only ones the proxy forwards. Path segments are checked separately. */
const OPERATIONS = OPERATION_ROUTES;

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

const CORS_ALLOW_HEADERS = 'content-type, accept, authorization, last-event-id, cache-control';
const CORS_EXPOSE_HEADERS = 'Retry-After, X-Request-Id';
/** The defaults of `ProxyOptions` (its docs are tested against them). */
export const PROXY_DEFAULTS = Object.freeze({
  maxRequestBytes: 10 * 1024 * 1024,
  maxConcurrentBodies: 32,
  timeoutMs: 600_000,
  bodyTimeoutMs: 60_000,
});
/** The largest delay Node's and browsers' timers honour (about 24.8 days); longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** A whole number in [min, max], or the default. @throws SDKError naming the option otherwise. */
function bound(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new SDKError(`${name} must be a whole number from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/**
 * A server-side proxy handler for the SDK's calls from browsers (as fal-js's server proxy): a
 * standard fetch handler `(request: Request) => Promise<Response>` that always resolves with a
 * `Response` (it never rejects, whatever the request or the callbacks do).
 *
 * - Forwards only the API's own operations (method and path, and the query parameters the API
 *   description lists for each, as `runtime/operations.ts` has them), under `pathPrefix`: any other
 *   path is 404, another method 405 (with `Allow`), a path parameter that is not a plain id 400.
 * - Hosts (against DNS rebinding): a `Host` (or, without `publicOrigin`, a `request.url`) that
 *   names a host the proxy does not serve is 421; it serves the hosts of `publicOrigin`, or
 *   without it only loopback hosts and IP addresses, and the names of `allowedHosts`.
 * - Origins: a request whose `Origin` is not the proxy's own (`publicOrigin`, else `request.url`'s:
 *   scheme, host and port) nor allowed by `allowedOrigins` is 403. With `allowedOrigins`, answers
 *   preflights (`OPTIONS`, 204) and adds `Access-Control-Allow-Origin` to the answers of allowed
 *   origins.
 * - `authorize` false: 401; `authorize` throwing: 500. Without `authorize`, anyone who reaches the
 *   handler spends your credits.
 * - Adds `Authorization: Bearer <apiKey>`; drops the caller's `Authorization`, `Cookie` and every
 *   header but `Accept`, `Content-Type` and `Last-Event-ID`. A POST body must be JSON (415
 *   otherwise) and at most `maxRequestBytes` (413, read no further), and arrive within
 *   `bodyTimeoutMs` (408); beyond `maxConcurrentBodies` POSTs at once: 503 with `Retry-After: 1`.
 *   A body the caller stops sending: 499 (it went away) or 400.
 * - Streams the answer through as it arrives (the event stream and chat streams are not
 *   buffered), with only `Content-Type`, `Cache-Control`, `Retry-After` and `X-Request-Id`. The
 *   event stream starts with a comment line (`: connected`), so that its headers pass proxies that
 *   hold headers until the first body byte (Vite's dev server). Never sets the key in a response;
 *   an error body (at most 64 KiB) is redacted of it in every form (raw, JSON-escaped, percent-encoded)
 *   before it is cut.
 * - `timeoutMs` bounds each call to the service (504 when no headers came in time); does not
 *   follow redirects (502); an unreachable service is 502; the caller's abort (its
 *   `request.signal`) ends the forwarded call.
 *
 * Mount it where your framework takes a fetch handler:
 * - Next.js (app router), `app/api/oxen/[...path]/route.ts` (Next.js builds `request.url` from the
 *   `Host` header, hence `publicOrigin`):
 *   `const handler = createProxyHandler({ pathPrefix: '/api/oxen', publicOrigin: 'https://app.example.com' }); export { handler as GET, handler as POST, handler as DELETE, handler as OPTIONS };`
 * - Deno: `Deno.serve(createProxyHandler({ pathPrefix: '/api/oxen', publicOrigin: 'https://app.example.com' }))`;
 *   Bun: `Bun.serve({ fetch: createProxyHandler({ pathPrefix: '/api/oxen', publicOrigin: 'https://app.example.com' }) })`.
 * - Node's `http` (or Express: `app.use('/api/oxen', listener)`), with the adapter of `oxen-inference-sdk/node`:
 * ```ts
 * import http from 'node:http';
 * import { createProxyHandler } from 'oxen-inference-sdk';
 * import { createNodeProxyListener } from 'oxen-inference-sdk/node';
 * const origin = 'http://localhost:3000'; // where browsers reach it
 * const handler = createProxyHandler({
 *   pathPrefix: '/api/oxen',
 *   publicOrigin: origin,
 *   authorize: (request) => isSignedIn(request),
 * });
 * http.createServer(createNodeProxyListener(handler, { origin })).listen(3000);
 * ```
 * @throws SDKError at creation when there is no API key, the `baseUrl` is not https (or http to a
 * loopback host), an origin option is not an http(s) origin, an `allowedHosts` entry is not a host
 * name, a limit is not a positive whole number, or it runs in a browser (the key would be in the
 * page).
 */
export function createProxyHandler(options: ProxyOptions = {}): ProxyHandler {
  if (isBrowser())
    throw new SDKError(
      'createProxyHandler runs on a server: in a browser the API key would be visible to every visitor',
    );
  const apiKey = options.apiKey ?? env('OXEN_API_KEY');
  if (!apiKey) throw new SDKError('createProxyHandler needs an API key: pass apiKey or set OXEN_API_KEY on the server');
  const redaction = keyRedaction(apiKey); // this handler's own secret, in every form
  const baseUrl = checkBaseUrl(options.baseUrl ?? env('OXEN_BASE_URL') ?? DEFAULT_BASE_URL);
  const f = options.fetch ?? globalThis.fetch.bind(globalThis);
  const prefix = (options.pathPrefix ?? '').replace(/\/+$/, '');
  if (prefix !== '' && !prefix.startsWith('/'))
    throw new SDKError(`pathPrefix must start with "/", got ${JSON.stringify(prefix)}`);
  const maxRequestBytes = bound(
    'maxRequestBytes',
    options.maxRequestBytes,
    PROXY_DEFAULTS.maxRequestBytes,
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const maxConcurrentBodies = bound(
    'maxConcurrentBodies',
    options.maxConcurrentBodies,
    PROXY_DEFAULTS.maxConcurrentBodies,
    1,
    1_000_000,
  );
  const timeoutMs = bound('timeoutMs', options.timeoutMs, PROXY_DEFAULTS.timeoutMs, 1, MAX_TIMER_MS);
  const bodyTimeoutMs = bound('bodyTimeoutMs', options.bodyTimeoutMs, PROXY_DEFAULTS.bodyTimeoutMs, 1, MAX_TIMER_MS);
  const publicOrigins =
    options.publicOrigin === undefined
      ? undefined
      : checkOrigins(
          'publicOrigin',
          typeof options.publicOrigin === 'string' ? [options.publicOrigin] : options.publicOrigin,
        );
  const allowedHosts = options.allowedHosts;
  if (allowedHosts !== undefined && allowedHosts !== true && !Array.isArray(allowedHosts))
    throw new SDKError('allowedHosts must be a list of host names, or true');
  const refusedHost = hostCheck(
    publicOrigins?.map((o) => new URL(o)),
    allowedHosts,
  );
  const allowed = options.allowedOrigins;
  const allowedList = Array.isArray(allowed) ? checkOrigins('allowedOrigins', allowed) : undefined;
  const originAllowed = (origin: string): boolean => {
    if (allowed === undefined) return false;
    if (allowed === '*') return true;
    if (typeof allowed === 'function') return allowed(origin) === true;
    const o = originOf(origin);
    return o !== undefined && allowedList!.includes(o);
  };
  // Error bodies before they are cut, error messages and forwarded header values go through the
  // key's redaction (here and in forward.ts).
  const settings: ForwardSettings = {
    baseUrl,
    fetch: f,
    apiKey,
    maxRequestBytes,
    bodyTimeoutMs,
    timeoutMs,
    redaction,
  };
  let bodiesHeld = 0;

  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const origin = request.headers.get('origin') ?? undefined;
    const cors: Record<string, string> = {};
    // A throwing allowedOrigins predicate is caught by the handler's guard (500).
    const crossOriginAllowed = origin !== undefined && originAllowed(origin);
    if (crossOriginAllowed) {
      cors['access-control-allow-origin'] = allowed === '*' ? '*' : origin;
      cors['access-control-expose-headers'] = CORS_EXPOSE_HEADERS;
      if (allowed !== '*') cors['vary'] = 'Origin';
    }
    const refuse = (status: number, type: string, message: string, headers: Record<string, string> = {}) =>
      jsonError(status, type, message, { ...cors, ...headers });

    // Host first (a rebinding page learns nothing more), then the route, then Origin: compared with
    // the configured public origins (or request.url's), never with the Host header itself.
    const hostRefusal = refusedHost(request.headers.get('host'), url);
    if (hostRefusal !== undefined) return refuse(421, 'misdirected_request', hostRefusal);
    const noRoute = () =>
      refuse(
        404,
        'not_found',
        `No route for ${method} ${url.pathname} (this proxy serves the API's paths under pathPrefix ${JSON.stringify(prefix === '' ? '/' : prefix)})`,
      );
    if (prefix !== '' && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return noRoute();
    const path = url.pathname.slice(prefix.length);
    const candidates = OPERATIONS.filter((o) => o.pattern.test(path));
    if (candidates.length === 0) return noRoute();
    const allow = [...new Set(candidates.map((o) => o.method))].join(', ');

    if (origin !== undefined && !crossOriginAllowed) {
      const own = originOf(origin);
      if (own === undefined || !(publicOrigins ?? [url.origin]).includes(own)) {
        return refuse(
          403,
          'forbidden',
          `Origin ${origin} may not use this proxy${allowed === undefined ? ' (set allowedOrigins to allow other origins)' : ''}`,
        );
      }
    }
    if (method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          ...cors,
          'access-control-allow-methods': `${allow}, OPTIONS`,
          'access-control-allow-headers': CORS_ALLOW_HEADERS,
          'access-control-max-age': '600',
        },
      });
    }
    const op = candidates.find((o) => o.method === method);
    if (!op) return refuse(405, 'method_not_allowed', `Method ${method} is not allowed on ${path}`, { allow });
    if (!op.pattern.exec(path)!.slice(1).every(safeSegment))
      return refuse(400, 'bad_request', `Malformed path parameter in ${path}`);
    if (options.authorize) {
      let ok: boolean;
      try {
        ok = (await options.authorize(request)) === true;
      } catch {
        return refuse(500, 'internal_error', 'The proxy could not check the caller (its authorize callback failed)');
      }
      if (!ok) return refuse(401, 'unauthenticated', 'Not authorized to use this proxy');
    }

    const hasBody = method === 'POST';
    if (hasBody && bodiesHeld >= maxConcurrentBodies)
      return refuse(503, 'service_unavailable', 'The proxy is busy: too many requests at once', { 'retry-after': '1' });
    if (hasBody) bodiesHeld++;
    try {
      return await forward(settings, { request, url, method, path, queryNames: op.query ?? [], hasBody, refuse, cors });
    } finally {
      if (hasBody) bodiesHeld--;
    }
  };

  return async (request: Request): Promise<Response> => {
    try {
      return await handle(request);
    } catch (err) {
      // Whatever went wrong (a throwing allowedOrigins predicate, a malformed request object), the caller gets an
      // answer.
      return jsonError(
        500,
        'internal_error',
        `The proxy could not handle the request (${redaction.text(err instanceof Error ? err.message : String(err))})`,
      );
    }
  };
}
