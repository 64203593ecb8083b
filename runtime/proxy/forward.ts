/**
 * The forwarding half of the server-side proxy (`handler.ts`): read the caller's body (bounded in
 * size and time, `body.ts`), call the service with the key (bounded by the proxy's own timeout) and
 * build the answer. Internal: not exported from the package.
 */
import { MAX_ERROR_BODY_BYTES } from '../errors.ts';
import { readLimited } from '../internal/read-limited.ts';
import { eventsStream } from '../operations.ts';
import { readBody, type ForwardBody } from './body.ts';
import type { KeyRedaction } from './redact-key.ts';
import { passThrough, redactedErrorText } from './support.ts';

/** Request headers forwarded to the service (everything else, `Authorization` and `Cookie` included, is dropped). */
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'last-event-id'];
/** Response headers passed back (everything else is dropped: the service's cookies, auth challenges, encodings). */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'cache-control', 'retry-after', 'x-request-id'];
/** Sent first on the event stream, so that its headers pass intermediaries that hold them until a body byte. */
const EVENT_STREAM_OPENING = ': connected\n\n';
const EVENTS_PATH = eventsStream.path;

/** What `createProxyHandler` resolved from its options. */
export interface ForwardSettings {
  baseUrl: string;
  fetch: typeof fetch;
  apiKey: string;
  /** Bytes. */
  maxRequestBytes: number;
  /** Milliseconds, for reading one request body. */
  bodyTimeoutMs: number;
  /** Milliseconds, for each call to the service. */
  timeoutMs: number;
  /** The redaction of the key in every form: error bodies (`cutText` for one cut at the read limit), messages, headers. */
  redaction: KeyRedaction;
}

/** One call the handler accepted (route, origin and caller checked). */
export interface ForwardCall {
  request: Request;
  url: URL;
  method: string;
  /** The API path, without the handler's prefix. */
  path: string;
  /** The query parameters the operation takes. */
  queryNames: readonly string[];
  hasBody: boolean;
  /** A JSON error answer with the call's CORS headers. */
  refuse: (status: number, type: string, message: string, headers?: Record<string, string>) => Response;
  cors: Record<string, string>;
}

/**
 * Read the body, call the service (bounded by `timeoutMs`) and answer; resolves once the answer's
 * headers are known (its body streams on). Never rejects for the caller's or the service's faults:
 * 408 (the body took longer than `bodyTimeoutMs`), 413/415, 499 (the caller went away), 400 (a body
 * that could not be read), 502, 504.
 */
export async function forward(settings: ForwardSettings, call: ForwardCall): Promise<Response> {
  const { request, url, method, path, queryNames, hasBody, refuse, cors } = call;
  // The body: JSON only, bounded in size and time, read no further than the bound.
  let body: ForwardBody | undefined;
  if (hasBody) {
    const tooLarge = () => refuse(413, 'payload_too_large', `Request body exceeds ${settings.maxRequestBytes} bytes`);
    const notJson = () => refuse(415, 'unsupported_media_type', 'Request body must be application/json');
    const json = (request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json');
    const declared = Number(request.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > settings.maxRequestBytes) return tooLarge();
    if (declared > 0 && !json) return notJson();
    const read = await readBody(request.body, {
      maxBytes: settings.maxRequestBytes,
      timeoutMs: settings.bodyTimeoutMs,
      declaredBytes: Number.isSafeInteger(declared) ? declared : undefined,
    });
    if (read.kind === 'too-large') return tooLarge();
    if (read.kind === 'timed-out')
      return refuse(408, 'request_timeout', `The request body did not arrive within ${settings.bodyTimeoutMs} ms`);
    if (read.kind === 'failed') {
      if (request.signal.aborted) return refuse(499, 'client_closed_request', 'The caller closed the request');
      return refuse(400, 'bad_request', 'The request body could not be read to its end');
    }
    if (read.body.size > 0 && !json) return notJson();
    body = read.body.size > 0 ? read.body : undefined;
  }

  const query = new URLSearchParams();
  for (const name of queryNames) {
    const v = url.searchParams.get(name);
    if (v !== null) query.set(name, v);
  }
  const search = query.toString();
  const target = `${settings.baseUrl}${path}${search === '' ? '' : `?${search}`}`;
  const headers = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const v = request.headers.get(name);
    if (v !== null) headers.set(name, v);
  }
  headers.set('authorization', `Bearer ${settings.apiKey}`);
  // A large body is sent from the blocks it was read into, as a stream (`fetch` would copy an array)
  const streamed = body?.data instanceof ReadableStream;
  if (streamed) headers.set('content-length', String(body!.size));

  // The upstream call ends when the caller goes away or timeoutMs passes, whichever comes first.
  const upstreamAbort = new AbortController();
  const callerGone = (): void => upstreamAbort.abort(request.signal.reason);
  if (request.signal.aborted) return refuse(499, 'client_closed_request', 'The caller closed the request');
  request.signal.addEventListener('abort', callerGone, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    upstreamAbort.abort(new Error(`the service did not answer within ${settings.timeoutMs} ms`));
  }, settings.timeoutMs);
  const settle = (): void => {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', callerGone);
  };
  const failed = (err: unknown): Response => {
    settle();
    if (request.signal.aborted) return refuse(499, 'client_closed_request', 'The caller closed the request');
    if (timedOut) return refuse(504, 'gateway_timeout', `The service did not answer within ${settings.timeoutMs} ms`);
    return refuse(
      502,
      'bad_gateway',
      `The proxy could not reach the service (${settings.redaction.text(err instanceof Error ? err.message : String(err))})`,
    );
  };

  let upstream: Response;
  try {
    const init: RequestInit & { duplex?: 'half' } = {
      method,
      headers,
      body: body?.data ?? null,
      signal: upstreamAbort.signal,
      redirect: 'manual',
    };
    if (streamed) init.duplex = 'half';
    upstream = await settings.fetch(target, init);
  } catch (err) {
    return failed(err);
  }
  // The request body is not needed once sent: an event stream answered below may be held open for hours.
  // eslint-disable-next-line no-useless-assignment
  body = undefined;
  if (upstream.type === 'opaqueredirect' || (upstream.status >= 300 && upstream.status < 400)) {
    settle();
    void upstream.body?.cancel().catch(() => undefined);
    return refuse(502, 'bad_gateway', 'The service answered with a redirect, which the proxy does not follow');
  }
  const out = new Headers(cors);
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const v = upstream.headers.get(name);
    if (v !== null) out.set(name, settings.redaction.text(v));
  }
  const eventStream = (out.get('content-type') ?? '').includes('text/event-stream');
  if (eventStream) out.set('x-accel-buffering', 'no');
  if (upstream.status >= 400) {
    // Error bodies are small: read (bounded), then redacted before they are cut, in case the service echoes the key.
    let read: Awaited<ReturnType<typeof readLimited>>;
    try {
      read = await readLimited(upstream.body, MAX_ERROR_BODY_BYTES, true);
    } catch (err) {
      return failed(err);
    }
    settle();
    return new Response(redactedErrorText(read.bytes ?? new Uint8Array(0), read.truncated, settings.redaction), {
      status: upstream.status,
      headers: out,
    });
  }
  if (!upstream.body) {
    settle();
    return new Response(null, { status: upstream.status, headers: out });
  }
  if (path === EVENTS_PATH && eventStream) {
    // The event stream lives as long as the caller stays: only its headers were bounded by timeoutMs.
    clearTimeout(timer);
    return new Response(passThrough(upstream.body, settle, new TextEncoder().encode(EVENT_STREAM_OPENING)), {
      status: upstream.status,
      headers: out,
    });
  }
  return new Response(passThrough(upstream.body, settle), { status: upstream.status, headers: out });
}
