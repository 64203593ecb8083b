/// <reference types="node" />
/**
 * The Node.js `http` adapter of a fetch handler (`createProxyHandler`): Node-only, published in
 * `oxen-inference-sdk/node` so that the browser-safe entries import no `node:` module.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import { SDKError } from '../errors.ts';

/** Options of `createNodeProxyListener`. */
export interface NodeProxyListenerOptions {
  /**
   * The origin browsers reach this server at (`https://app.example.com`, `http://localhost:3000`):
   * scheme, host and port, no path. Every request's URL is built from it and the request's path,
   * never from its `Host` header or an absolute-form target, so `createProxyHandler`'s default
   * same-origin check compares a page's `Origin` with this. Required.
   */
  origin: string;
  /**
   * Called with each error the listener caught: the handler failing, the caller going away while
   * the answer streams. Default: none (errors are answered, or end the connection, silently).
   * Errors this callback throws are ignored.
   */
  onError?: ((error: unknown) => void) | undefined;
}

/**
 * What the listener needs of a Node `http.IncomingMessage` (one is always passed). Declared here so
 * that the package's declarations need no `@types/node`.
 */
export interface NodeIncomingMessage {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  /** The request target before a router stripped its mount path from `url` (Express, connect). */
  readonly originalUrl?: string | undefined;
  readonly rawHeaders: readonly string[];
  readonly complete: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/** What the listener needs of a Node `http.ServerResponse` (one is always passed). */
export interface NodeServerResponse {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/** A `node:http` request listener: `http.createServer(listener)`, or Express's `app.use('/api/oxen', listener)`. */
export type NodeRequestListener = (req: NodeIncomingMessage, res: NodeServerResponse) => void;

/** Methods a fetch `Request` cannot carry: answered 405 without calling the handler. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
/** How many body bytes wait in the web stream before the request is paused. */
const BODY_HIGH_WATER_BYTES = 65_536;

function answer(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { type, title: message, message }, status: 'error', status_message: type });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...headers,
  });
  res.end(body);
}

/**
 * The request body as a web stream. Backpressure pauses the request; cancelling it (a body over the
 * handler's limit) stops reading without destroying the socket, so the handler's answer (413) is
 * still delivered, after which the connection closes. The stream errors when the caller aborts the
 * upload.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let finished = false;
  const detach = (): void => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onClose);
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // These run as event listeners, where a throw would end the process: a stream that can no longer
  // take a chunk (a consumer cancelled it meanwhile) stops the reading instead.
  const settle = (action: () => void): void => {
    try {
      action();
    } catch {
      finished = true;
      detach();
      req.pause();
    }
  };
  const onData = (chunk: Buffer): void =>
    settle(() => {
      controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if ((controller.desiredSize ?? 0) <= 0) req.pause();
    });
  const onEnd = (): void => {
    if (finished) return;
    finished = true;
    detach();
    settle(() => controller.close());
  };
  const onClose = (): void => {
    if (finished) return;
    finished = true;
    detach();
    settle(() => controller.error(new Error('the caller closed the connection before the request body ended')));
  };
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('close', onClose);
      },
      pull() {
        req.resume();
      },
      cancel() {
        finished = true;
        detach();
        req.pause();
      },
    },
    { highWaterMark: BODY_HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
  );
}

/**
 * A `node:http` request listener serving a fetch handler (`createProxyHandler`'s):
 * `http.createServer(createNodeProxyListener(handler, { origin: 'http://localhost:3000' }))`.
 *
 * - The request's URL is `origin` + its path and query: the `Host` header and an absolute-form
 *   target (`GET http://elsewhere/ HTTP/1.1`) never choose it. Mounted under a path by Express or
 *   connect (`app.use('/api/oxen', listener)`), which strip that path from `req.url`, the path is
 *   read from `req.originalUrl`, the one browsers use: give the handler the whole of it as
 *   `pathPrefix` (`/api/oxen`). A target that is not a path (absolute form, `OPTIONS *`) is
 *   answered 400, methods a fetch `Request` cannot carry (`TRACE`, `TRACK`, `CONNECT`) 405, and a
 *   body something read before the listener (a body parser such as `express.json()` mounted
 *   first) 500 saying so, without calling the handler.
 * - The body streams in with backpressure; the answer streams out as it comes (an event stream
 *   chunk by chunk). A caller that goes away aborts the handler's `request.signal`.
 * - Never throws and never leaves a rejected promise: a handler that rejects is answered 500 (or,
 *   once the answer started, the connection is closed), and every error goes to `onError`.
 *   When the answer comes before the request body was read to its end (413), the connection is
 *   closed after it.
 * @throws SDKError at creation when `origin` is not an http(s) origin (scheme, host, optional port).
 */
export function createNodeProxyListener(
  handler: (request: Request) => Promise<Response>,
  options: NodeProxyListenerOptions,
): NodeRequestListener {
  let origin: string;
  try {
    const url = new URL(options.origin);
    const bare =
      url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !bare || /[?#]$/.test(options.origin)) {
      throw new Error('not an origin');
    }
    origin = url.origin;
  } catch {
    throw new SDKError(
      `createNodeProxyListener needs origin as "https://host[:port]" (scheme, host and port only), got ${JSON.stringify(options.origin)}`,
    );
  }
  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      /* the reporter's own failure must not end the process */
    }
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    // Express and connect strip the mount path from req.url and keep the request's own in originalUrl.
    const original = (req as { originalUrl?: unknown }).originalUrl;
    const target = typeof original === 'string' ? original : (req.url ?? '');
    if (!target.startsWith('/'))
      return answer(res, 400, 'bad_request', 'The request target must be a path (origin form)');
    if (FORBIDDEN_METHODS.has(method))
      return answer(res, 405, 'method_not_allowed', `Method ${method} is not allowed`, {
        allow: 'GET, POST, DELETE, OPTIONS',
      });

    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort(new Error('the caller closed the connection'));
    });
    const headers = new Headers();
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      try {
        headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      } catch {
        /* a header a fetch Request refuses is dropped (the handler forwards only a few anyway) */
      }
    }
    const hasBody = method !== 'GET' && method !== 'HEAD';
    if (hasBody && req.readableEnded)
      return answer(
        res,
        500,
        'internal_error',
        'The request body was read before the proxy got it: mount the proxy before body parsers (express.json())',
      );
    let request: Request;
    try {
      request = new Request(`${origin}${target}`, {
        method,
        headers,
        signal: abort.signal,
        ...(hasBody ? { body: bodyStream(req), duplex: 'half' } : {}),
      });
    } catch (err) {
      report(err);
      return answer(res, 400, 'bad_request', 'The request could not be read');
    }
    if (new URL(request.url).origin !== origin)
      return answer(res, 400, 'bad_request', 'The request target must be a path (origin form)');

    const response = await handler(request);
    if (res.destroyed) {
      void response.body?.cancel().catch(() => undefined);
      return;
    }
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    // An answer given before the body was read to its end (413, 503): close rather than read the rest.
    if (hasBody && !req.complete) out['connection'] = 'close';
    res.writeHead(response.status, response.statusText, out);
    res.flushHeaders(); // an event stream's headers go out before its first event
    if (!response.body) {
      res.end();
      return;
    }
    pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), res, (err) => {
      if (err) report(err);
    });
  };

  return (message, response) => {
    // Node's own objects, typed by the parts the package's declarations name.
    const req = message as unknown as IncomingMessage;
    const res = response as unknown as ServerResponse;
    req.on('error', report);
    res.on('error', report);
    serve(req, res).catch((err: unknown) => {
      report(err);
      try {
        answer(res, 500, 'internal_error', 'The proxy failed to answer');
      } catch (e) {
        report(e);
        res.destroy();
      }
    });
  };
}
