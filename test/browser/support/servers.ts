/**
 * The small HTTP servers of the browser tests, all on 127.0.0.1 with ephemeral ports (so each is
 * its own origin):
 * - `startPageServer`: the test page and its bundle, with `Content-Security-Policy: script-src 'self'`;
 * - `serveFetchHandler`: a standard fetch handler (`createProxyHandler`) behind `node:http`;
 * - `startNoCorsServer`: an API stand-in that sends no CORS headers (as the local server once did).
 */
import { readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';

/** The page's Content-Security-Policy: scripts only from the page's own origin, no `'unsafe-eval'`, no inline scripts. */
export const PAGE_CSP = "script-src 'self'";

/** A request one of these servers received. */
export interface SeenRequest {
  method: string;
  /** Path without the query. */
  path: string;
  /** Whether it carried an `Authorization` header (never its value). */
  authorization: boolean;
  origin: string | undefined;
}

/** A running test server. */
export interface TestServer {
  url: string;
  requests: SeenRequest[];
  /** Requests with this method (`*` = any) whose path starts with `pathPrefix`. */
  count(method: string, pathPrefix: string): number;
  close(): Promise<void>;
}

function seen(req: IncomingMessage): SeenRequest {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: q < 0 ? url : url.slice(0, q),
    authorization: req.headers.authorization !== undefined,
    origin: req.headers.origin,
  };
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    requests.push(seen(req));
    handler(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : 0);
    });
  });
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (method, prefix) =>
      requests.filter((r) => (method === '*' || r.method === method.toUpperCase()) && r.path.startsWith(prefix)).length,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
      return closing;
    },
  };
}

/**
 * Serve the test page: `/` is `html` and `/<file>.js` are files of `dir` (the bundle), every
 * answer with `Content-Security-Policy: script-src 'self'`.
 */
export function startPageServer(dir: string, html: string): Promise<TestServer> {
  const root = path.resolve(dir);
  return listen((req, res) => {
    const { path: p } = seen(req);
    const headers = { 'Content-Security-Policy': PAGE_CSP, 'Cache-Control': 'no-store' };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, headers).end();
      return;
    }
    if (p === '/' || p === '/index.html') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    const file = path.resolve(root, `.${decodeURIComponent(p)}`);
    if (!file.startsWith(root + path.sep) || !file.endsWith('.js')) {
      res.writeHead(404, headers).end();
      return;
    }
    readFile(file).then(
      (bytes) => res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript; charset=utf-8' }).end(bytes),
      () => res.writeHead(404, headers).end(),
    );
  });
}

/**
 * Serve a standard fetch handler (`(request: Request) => Promise<Response>`) over `node:http`, as
 * a user would mount `createProxyHandler`: the body is streamed in and out (an event stream is
 * written chunk by chunk), and a client that goes away aborts the handler's request.
 */
export function serveFetchHandler(handler: (request: Request) => Promise<Response>): Promise<TestServer> {
  let origin = '';
  const serverPromise = listen((req, res) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const method = (req.method ?? 'GET').toUpperCase();
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      for (const value of Array.isArray(v) ? v : [v]) headers.append(k, value);
    }
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const request = new Request(`${origin}${req.url ?? '/'}`, {
      method,
      headers,
      signal: controller.signal,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    });
    void (async () => {
      let response: Response;
      try {
        response = await handler(request);
      } catch (e) {
        if (!res.headersSent)
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`handler threw: ${(e as Error).message}`);
        return;
      }
      const out: Record<string, string | string[]> = {};
      response.headers.forEach((value, key) => {
        out[key] = value;
      });
      res.writeHead(response.status, out);
      // Send the headers now: an event stream's client waits for them before anything is emitted.
      res.flushHeaders();
      if (!response.body) {
        res.end();
        return;
      }
      const reader = response.body.getReader();
      res.on('close', () => void reader.cancel().catch(() => undefined));
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          res.write(value);
        }
        res.end();
      } catch {
        res.destroy();
      }
    })();
  });
  return serverPromise.then((s) => {
    origin = s.url;
    return s;
  });
}

/**
 * An API stand-in without CORS: it answers the preflight `OPTIONS` with 401 and no
 * `Access-Control-*` headers (as a service without CORS does), and anything else with a
 * JSON image result, so that a request that got through (or a resend) would show in `requests`.
 */
export function startNoCorsServer(): Promise<TestServer> {
  return listen((req, res) => {
    req.resume();
    if (req.method === 'OPTIONS') {
      res
        .writeHead(401, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ error: { type: 'unauthenticated', message: 'Missing API key' } }));
      return;
    }
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ images: [{ url: 'http://127.0.0.1/never.png' }] }));
  });
}
