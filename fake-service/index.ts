// The local HTTP server that stands in for the hosted inference service (node:http only).
// It behaves as the API description (v0.224.2) says, and serves what the service's docs add today
// (specs/openapi.yaml notes each with its source); its queue behaves as the docs say today by default,
// as 0.224.2 says with `queueMode: '0.224.2'` (see `QueueMode` in queue.ts). Where both say "not
// shown", the choices are ours and are marked "ours" in comments across fake-service/*.ts. Its routes
// are the operations of specs/openapi.yaml (runtime/operations.ts, generated), each with a handler below.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import {
  ERROR_TYPES,
  HttpError,
  STREAMED,
  encodeBody,
  errorBody,
  parseJsonObject,
  readBody,
  resourceNotFoundBody,
  type Reply,
} from './http.ts';
import { Accounts, Clock, FileStore, loadModels, mediaTypeOf, type UserInfo } from './state.ts';
import { EventHub } from './sse.ts';
import { encodeEcho, Faults, pathMatches, type Fault, type FaultController } from './faults.ts';
import { ParamValidator } from './validate.ts';
import { GenerationQueue, defaultDecide, type QueueMode } from './queue.ts';
import { FineTuneStore, fineTuneHandlers } from './routes-finetunes.ts';
import { chatHandlers } from './routes-chat.ts';
import { fileRoutes, mediaHandlers } from './routes-media.ts';
import { modelHandlers } from './routes-models.ts';
import { queueHandlers } from './routes-queue.ts';
import type { Handler, RequestCtx, Route, ServerCtx } from './context.ts';
import { REPO_ROOT } from '../generator/root.mjs';
import { OPERATIONS, type OperationId } from '../runtime/operations.ts';
import { SERVER_DEFAULTS } from './defaults.ts';

export type { Fault, FaultController } from './faults.ts';
export type { QueueMode } from './queue.ts';

export interface LocalServerOptions {
  port?: number; // default 0 (ephemeral); host is always 127.0.0.1
  specsDir?: string; // default: <repo>/specs
  modelsDir?: string | readonly string[]; // directory of <id>.json model objects (serves every *.json in it); default <specsDir>/models. Several: a later directory's model replaces an earlier one's of the same id
  users?: Record<string, { user: string; orgs?: string[] }>; // API key -> user
  anyKey?: boolean; // default false: any other non-empty Bearer key is accepted too, as the first user of `users` (a missing key is still a 401)
  credits?: Record<string, number>; // namespace -> credits; default 1000 for every namespace not listed
  costPerGeneration?: number; // default 1 (chat completions cost 0; a chat call with credits <= 0 still fails)
  keepAliveMs?: number; // SSE keep-alive interval, default 15_000
  workerDelayMs?: number; // default 50: how long the queue worker takes for a generation
  queueMode?: QueueMode; // default 'today': the queue as the service's docs say today; '0.224.2' as the API description says
  failureRate?: number; // default 0: the share (0 to 1) of queued generations that fail, chosen at random (default decide only; "[fail]" in a prompt always fails)
  dropStreamsMs?: number; // default 0 (never): every this many milliseconds, drop every open event stream (as `dropEventStreams()`)
  decide?: (g: {
    generation_id: string;
    model: string;
    params: Record<string, unknown>;
    index: number;
    namespace: string;
  }) => {
    outcome: 'succeeded' | 'failed' | 'vanish' | 'hold';
    delayMs?: number;
    error?: string;
  };
  now?: () => number; // injectable clock in ms; default Date.now
  unrelatedEvents?: boolean; // default true: emit `event: deployment_updated` on enqueue
  log?: boolean; // one line per request to stderr (never the Authorization header or any key)
  requestIds?: boolean; // default false: send `X-Request-Id: req_<n>` (n counts requests from 1) on every response (ours: the description shows no request-id header)
  recordHeaders?: boolean; // default false: keep each request's headers in `requests[i].headers`, without authorization, proxy-authorization and cookie
  fineTuneMs?: number; // default 100: how long a fine-tune's run takes, in milliseconds of the server's clock (see `clock.advance`)
}

export interface LocalServer {
  url: string;
  port: number;
  /** How the queue behaves (`LocalServerOptions.queueMode`). */
  queueMode: QueueMode;
  close(): Promise<void>;
  faults: FaultController;
  /**
   * Every request received, in order (path without query). status 0 = no answer (reset, hang, or
   * still pending). `bytesSent`: body bytes written (for the `large-body` fault), `closedEarly`:
   * the client closed the connection before the whole body was written. `headerNames`: the
   * request's header names, lower case (never their values).
   */
  requests: Array<{
    method: string;
    path: string;
    status: number;
    key?: undefined;
    bytesSent?: number;
    closedEarly?: boolean;
    headerNames?: string[];
    headers?: Record<string, string>;
    requestId?: string;
  }>;
  /** Requests matching: method case-insensitive ('*' = any); a string is a path prefix (a trailing '*' is allowed), a RegExp is tested on the path. */
  count(method: string, pathPrefixOrRegExp: string | RegExp): number;
  clock: { now(): number; advance(ms: number): void };
  /** Push an event to that user's open streams (lost if none). Non-string data is sent as JSON; a string is sent as is (one `data:` line per line). */
  emit(user: string, event: string, data: unknown): void;
  dropEventStreams(): void;
  queue: {
    /** The active generations (queued or processing), each with its `namespace`. */
    list(): Array<Record<string, unknown>>;
    complete(generation_id: string, outcome: 'succeeded' | 'failed' | 'vanish', error?: string): void;
    /**
     * Enqueue `count` generations of `model` (default `flux-1-dev`) for `user` (default `alice`,
     * in her namespace) without a request or a charge, as `POST /api/ai/queue` would (`decide`
     * applies): many generations at once for tests and benchmarks.
     * @returns their ids.
     * @throws Error for a model the server does not have or one without image or video output.
     */
    add(count: number, options?: { model?: string; user?: string; params?: Record<string, unknown> }): string[];
  };
  setCredits(namespace: string, credits: number): void;
  /**
   * Stop serving a model, as the service removes models from its catalog (ours: the docs do not
   * say what a removed model answers; we answer as for an unknown id, 404 `Model not found`): its
   * details, the catalog and the search leave it out. @returns whether it was served.
   */
  removeModel(id: string): boolean;
}

const DEFAULT_USERS = { 'test-key': { user: 'alice', orgs: ['acme'] } };
// CORS (ours; the description does not say): any origin may call, as a browser page served from
// another origin would. Preflights are answered without authentication.
const CORS_ALLOW_HEADERS = 'authorization, content-type, accept, cache-control, last-event-id, x-requested-with';
const CORS_ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS';
const CORS_EXPOSE_HEADERS = 'Retry-After, WWW-Authenticate, Content-Length, Content-Type, Location, X-Request-Id';
const UNRECORDED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
const CORS_MAX_AGE_SECONDS = '600';
const SLOW_BODY_DEFAULT_MS = 200; // ours: slow-body delay when the fault gives none
/** A handler for every operation of the API description: one it does not serve fails to compile. */
const HANDLERS: Record<OperationId, Handler> = {
  ...chatHandlers,
  ...mediaHandlers,
  ...queueHandlers,
  ...modelHandlers,
  ...fineTuneHandlers,
};
/** `^…$` of a path template, each `{name}` one captured segment. */
const patternOf = (template: string): RegExp =>
  new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`);
/** The operations in their match order (runtime/operations.ts), then the server's own routes. */
const ROUTES: Route[] = [
  ...Object.entries(OPERATIONS).map(([id, o]) => ({
    method: o.method,
    pattern: patternOf(o.path),
    handler: HANDLERS[id as OperationId],
  })),
  ...fileRoutes,
];
const NO_USER: UserInfo = { user: '', orgs: [] };

export async function startServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const specsDir = options.specsDir ?? path.join(REPO_ROOT, 'specs');
  const modelsDir = options.modelsDir ?? path.join(specsDir, 'models');
  const models = await loadModels(modelsDir);
  const workerDelayMs = options.workerDelayMs ?? SERVER_DEFAULTS.workerDelayMs;
  const failureRate = options.failureRate ?? SERVER_DEFAULTS.failureRate;
  if (!(failureRate >= 0 && failureRate <= 1)) throw new RangeError(`failureRate must be 0 to 1, got ${failureRate}`);
  const dropStreamsMs = options.dropStreamsMs ?? SERVER_DEFAULTS.dropStreamsMs;
  if (!(Number.isInteger(dropStreamsMs) && dropStreamsMs >= 0))
    throw new RangeError(`dropStreamsMs must be a non-negative integer, got ${dropStreamsMs}`);

  let baseUrl = '';
  const users = options.users ?? DEFAULT_USERS;
  const first = Object.values(users)[0];
  const accounts = new Accounts(
    users,
    options.credits ?? {},
    options.anyKey && first ? { user: first.user, orgs: [...(first.orgs ?? [])] } : undefined,
  );
  const hub = new EventHub(options.keepAliveMs ?? SERVER_DEFAULTS.keepAliveMs);
  const files = new FileStore(() => baseUrl);
  const validator = new ParamValidator();
  const clock = new Clock(options.now ?? Date.now, () => queue.sweep());
  const queue = new GenerationQueue({
    clock,
    hub,
    files,
    validator,
    decide: options.decide ?? defaultDecide(workerDelayMs, failureRate),
    workerDelayMs,
    mode: options.queueMode ?? SERVER_DEFAULTS.queueMode,
  });
  const ctx: ServerCtx = {
    models,
    accounts,
    clock,
    hub,
    files,
    validator,
    queue,
    fineTunes: new FineTuneStore(),
    costPerGeneration: options.costPerGeneration ?? 1,
    unrelatedEvents: options.unrelatedEvents ?? true,
    fineTuneMs: options.fineTuneMs ?? 100,
  };
  const faults = new Faults();
  const requests: LocalServer['requests'] = [];
  const sockets = new Set<Socket>();
  const pendingTimers = new Set<NodeJS.Timeout>();

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      pendingTimers.delete(t);
      fn();
    }, ms);
    pendingTimers.add(t);
  };

  /** Write a buffered reply; with a slow-body fault: headers + first half, a pause, then the rest. */
  const send = (res: ServerResponse, reply: Reply, slowMs: number | undefined): void => {
    if (res.headersSent || res.destroyed) return;
    const { bytes, contentType } = encodeBody(reply.body);
    res.writeHead(reply.status, {
      'Content-Type': contentType,
      'Content-Length': String(bytes.length),
      ...reply.headers,
    });
    if (slowMs === undefined) {
      res.end(bytes);
      return;
    }
    const half = Math.floor(bytes.length / 2);
    res.write(bytes.subarray(0, half));
    later(slowMs, () => {
      if (!res.destroyed) res.end(bytes.subarray(half));
    });
  };

  /**
   * A 200 JSON body of `total` bytes (`{"images":[{"b64_json":"AAAA…"}]}`), written in 64 KiB
   * chunks as the client reads (backpressure), recording in `entry` how much was written and
   * whether the client closed the connection first.
   */
  const sendLarge = (
    res: ServerResponse,
    entry: LocalServer['requests'][number],
    total: number,
    chunked: boolean,
  ): void => {
    const head = Buffer.from('{"model":"large","created":0,"images":[{"b64_json":"');
    const tail = Buffer.from('"}]}');
    const fill = Math.max(0, total - head.length - tail.length);
    entry.status = 200;
    entry.bytesSent = 0;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      ...(chunked ? {} : { 'Content-Length': String(head.length + fill + tail.length) }),
    });
    const chunk = Buffer.alloc(65_536, 0x41);
    let left = fill;
    let phase: 'head' | 'fill' | 'tail' | 'done' = 'head';
    res.on('close', () => {
      if (phase !== 'done') entry.closedEarly = true;
    });
    const pump = (): void => {
      while (!res.destroyed && phase !== 'done') {
        let piece: Buffer;
        if (phase === 'head') {
          piece = head;
          phase = 'fill';
        } else if (phase === 'fill') {
          if (left === 0) {
            phase = 'tail';
            continue;
          }
          piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= piece.length;
        } else {
          piece = tail;
          phase = 'done';
          entry.bytesSent! += piece.length;
          res.end(piece);
          return;
        }
        entry.bytesSent! += piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  };

  /** A 200 event stream of `total` bytes: one event whose `data:` lines alternate with comments, never ended (backpressure honoured). */
  const sendInterleaved = (res: ServerResponse, entry: LocalServer['requests'][number], total: number): void => {
    const piece = Buffer.from(`data: ${'d'.repeat(4000)}\n: ${'c'.repeat(4000)}\n`);
    entry.status = 200;
    entry.bytesSent = 0;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.on('close', () => {
      if (entry.bytesSent! < total) entry.closedEarly = true;
    });
    const pump = (): void => {
      while (!res.destroyed && entry.bytesSent! < total) {
        entry.bytesSent! += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };

  /**
   * A 200 chat event stream that never ends (until `total` bytes): each chunk one more fragment of
   * one tool call's arguments, one more tool call, or one more choice (backpressure honoured).
   */
  const sendChatFlood = (
    res: ServerResponse,
    entry: LocalServer['requests'][number],
    total: number,
    flood: NonNullable<Fault['flood']>,
  ): void => {
    const fragment = 'x'.repeat(4000);
    const chunk = (n: number): string => {
      const call = (index: number, args: string) => ({
        index,
        ...(flood === 'calls' || n === 0 ? { id: `call_${index}`, type: 'function' } : {}),
        function: { ...(flood === 'calls' || n === 0 ? { name: 'f' } : {}), arguments: args },
      });
      const choice =
        flood === 'choices'
          ? { index: n, delta: { content: 'x' }, finish_reason: null }
          : {
              index: 0,
              delta: { tool_calls: [flood === 'calls' ? call(n, '') : call(0, fragment)] },
              finish_reason: null,
            };
      const body = {
        id: 'chatcmpl-flood',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'flood',
        choices: [choice],
      };
      return `data: ${JSON.stringify(body)}\n\n`;
    };
    entry.status = 200;
    entry.bytesSent = 0;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.on('close', () => {
      if (entry.bytesSent! < total) entry.closedEarly = true;
    });
    let n = 0;
    const pump = (): void => {
      while (!res.destroyed && entry.bytesSent! < total) {
        const piece = chunk(n++);
        entry.bytesSent! += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = Date.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const reqPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const entry: LocalServer['requests'][number] = {
      method,
      path: reqPath,
      status: 0,
      headerNames: Object.keys(req.headers),
    };
    requests.push(entry);
    if (options.recordHeaders) {
      entry.headers = {};
      for (const [k, v] of Object.entries(req.headers))
        if (!UNRECORDED_HEADERS.has(k) && v !== undefined) entry.headers[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    if (options.requestIds) {
      entry.requestId = `req_${requests.length}`;
      res.setHeader('X-Request-Id', entry.requestId);
    }
    // CORS on every response (streaming handlers' writeHead merges these headers).
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    res.setHeader('Access-Control-Allow-Origin', origin ?? '*');
    if (origin) res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
    res.on('finish', () => {
      if (options.log)
        process.stderr.write(`[local-server] ${method} ${reqPath} ${entry.status} ${Date.now() - started}ms\n`);
    });
    const markStatus = (status: number): void => {
      entry.status = status;
    };
    const reply = (r: Reply, slowMs?: number): void => {
      markStatus(r.status);
      send(res, r, slowMs);
    };

    // A CORS preflight: answered at once, without authentication, faults or routing.
    if (method === 'OPTIONS') {
      markStatus(204);
      const asked = req.headers['access-control-request-headers'];
      res.writeHead(204, {
        'Access-Control-Allow-Methods': CORS_ALLOW_METHODS,
        'Access-Control-Allow-Headers':
          typeof asked === 'string' && asked.trim() !== '' ? `${CORS_ALLOW_HEADERS}, ${asked}` : CORS_ALLOW_HEADERS,
        'Access-Control-Max-Age': CORS_MAX_AGE_SECONDS,
        'Content-Length': '0',
      });
      res.end();
      req.resume();
      return;
    }

    // Faults come first: before auth and routing.
    const fault: Fault | undefined = faults.take(method, reqPath);
    if (fault?.kind === 'reset') {
      // Nothing written, request not processed: the client sees a connection error.
      req.socket.destroy();
      if (options.log) process.stderr.write(`[local-server] ${method} ${reqPath} reset\n`);
      return;
    }
    let rawBody: Buffer;
    try {
      rawBody = await readBody(req);
    } catch (e) {
      if (e instanceof HttpError) reply({ status: e.status, body: e.body });
      else req.socket.destroy();
      return;
    }
    queue.sweep(); // expiry runs on every request
    if (fault) {
      const retryAfter: Record<string, string> =
        fault.retryAfterSeconds !== undefined ? { 'Retry-After': String(fault.retryAfterSeconds) } : {};
      switch (fault.kind) {
        case 'hang':
          return; // never answers; close() destroys the socket
        case '429':
          // Fault messages are ours.
          return reply({ status: 429, body: errorBody(ERROR_TYPES[429]!, 'Too many requests'), headers: retryAfter });
        case '500':
          return reply({ status: 500, body: errorBody(ERROR_TYPES[500]!, 'Internal server error') });
        case '503':
          return reply({
            status: 503,
            body: errorBody(ERROR_TYPES[503]!, 'Service temporarily unavailable'),
            headers: retryAfter,
          });
        case '404':
          return reply({ status: 404, body: resourceNotFoundBody() });
        case 'invalid-json':
          // Answered without processing the request.
          return reply({
            status: 200,
            body: Buffer.from('{"generations": [ this is not JSON'),
            headers: { 'Content-Type': 'application/json' },
          });
        case 'redirect':
          return reply({
            status: fault.status ?? 302,
            body: Buffer.alloc(0),
            headers: { Location: fault.location ?? '/elsewhere' },
          });
        case 'echo-key': {
          const auth = String(req.headers.authorization ?? '');
          return reply({
            status: 400,
            body: errorBody(ERROR_TYPES[400]!, `Bad request; you sent Authorization: ${auth}`),
            headers: { 'X-Echo-Authorization': auth },
          });
        }
        case 'echo-key-invalid-json':
          return reply({
            status: 200,
            body: Buffer.from(`not json: ${String(req.headers.authorization ?? '')}`),
            headers: { 'Content-Type': 'application/json' },
          });
        case 'echo-key-stream': {
          const auth = String(req.headers.authorization ?? '');
          markStatus(200);
          res.writeHead(200, {
            'Content-Type': 'text/event-stream',
            'Cache-Control': 'no-cache',
            'X-Echo-Authorization': auth,
          });
          res.end(
            `data: ${JSON.stringify({ error: { message: `Upstream rejected Authorization: ${auth}`, type: 'upstream_error' } })}\n\n`,
          );
          return;
        }
        case 'echo-header': {
          const value = encodeEcho(
            String(req.headers[(fault.header ?? 'authorization').toLowerCase()] ?? ''),
            fault.encoding,
          );
          const body = Buffer.from(`${'x'.repeat(fault.pad ?? 0)}${value}`);
          return reply({
            status: fault.status ?? 400,
            body,
            headers: { 'Content-Type': 'text/plain', 'X-Echo': value },
          });
        }
        case 'sse-interleaved':
          return sendInterleaved(res, entry, fault.bytes ?? 64 * 1024 * 1024);
        case 'chat-flood':
          return sendChatFlood(res, entry, fault.bytes ?? 180_000_000, fault.flood ?? 'arguments');
        case 'huge-error':
          return reply({ status: 500, body: errorBody(ERROR_TYPES[500]!, 'x'.repeat(fault.bytes ?? 1_000_000)) });
        default:
          break; // the others apply once the request is processed
      }
    }

    let result: Reply;
    try {
      const route = ROUTES.find((r) => r.method === method && r.pattern.test(reqPath));
      const needsAuth = route ? route.auth !== false : true;
      const user = needsAuth ? accounts.authenticate(req) : NO_USER;
      if (!route) {
        const known = ROUTES.some((r) => r.pattern.test(reqPath));
        // Ours: unknown path -> 404, known path with another method -> 405; both with the JSON error body.
        throw new HttpError(
          known ? 405 : 404,
          known ? `Method ${method} is not allowed on ${reqPath}` : `No route for ${method} ${reqPath}`,
        );
      }
      const match = route.pattern.exec(reqPath)!;
      const params = match.slice(1).map((p) => {
        try {
          return decodeURIComponent(p);
        } catch {
          throw new HttpError(400, `Malformed path segment: ${p}`);
        }
      });
      let parsed: Record<string, unknown> | undefined;
      const rctx: RequestCtx = {
        req,
        res,
        method,
        path: reqPath,
        query: new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1)),
        user,
        body: async () => (parsed ??= parseJsonObject(rawBody)),
        markStatus,
      };
      const out = await route.handler(ctx, rctx, params);
      if (out === STREAMED) return;
      result = out;
    } catch (e) {
      if (e instanceof HttpError) {
        result = { status: e.status, body: e.body, ...(e.headers ? { headers: e.headers } : {}) };
      } else {
        process.stderr.write(
          `[local-server] internal error on ${method} ${reqPath}: ${(e as Error).stack ?? String(e)}\n`,
        );
        result = { status: 500, body: errorBody(ERROR_TYPES[500]!, 'Internal server error') };
      }
    }
    if (fault?.kind === '500-after-enqueue') {
      // Processed fully (generations created, credits charged), then the answer is a 500: the client cannot know.
      return reply({ status: 500, body: errorBody(ERROR_TYPES[500]!, 'Internal server error') });
    }
    // Processed, then answered with an empty, null, huge or doctored body.
    if (fault?.kind === 'empty-200')
      return reply({ status: 200, body: Buffer.alloc(0), headers: { 'Content-Type': 'application/json' } });
    if (fault?.kind === 'null-200')
      return reply({ status: 200, body: Buffer.from('null'), headers: { 'Content-Type': 'application/json' } });
    if (fault?.kind === 'wrong-shape') return reply({ status: 200, body: { unexpected: true } });
    if (fault?.kind === 'echo-request-id') {
      const echoed = String(req.headers[(fault.header ?? 'authorization').toLowerCase()] ?? '');
      result = { ...result, headers: { ...result.headers, 'X-Request-Id': encodeEcho(echoed, fault.encoding) } };
    }
    if (fault?.kind === 'large-body')
      return sendLarge(res, entry, fault.bytes ?? 64 * 1024 * 1024, fault.chunked === true);
    if (fault?.kind === 'duplicate-ids' && result.status === 200) {
      const gens = (result.body as { generations?: unknown[] }).generations;
      if (Array.isArray(gens) && gens.length > 0)
        result = { ...result, body: { ...(result.body as object), generations: [...gens, gens[0]] } };
    }
    reply(result, fault?.kind === 'slow-body' ? (fault.delayMs ?? SLOW_BODY_DEFAULT_MS) : undefined);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      process.stderr.write(`[local-server] ${(e as Error).stack ?? String(e)}\n`);
      if (!res.headersSent) res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? SERVER_DEFAULTS.port, '127.0.0.1', () => {
      server.off('error', reject);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : 0);
    });
  });
  baseUrl = `http://127.0.0.1:${port}`;
  // Expiry also runs periodically (it runs on every request and on clock.advance as well).
  const sweeper = setInterval(() => queue.sweep(), 60_000);
  sweeper.unref();
  const dropper = dropStreamsMs > 0 ? setInterval(() => hub.dropAll(), dropStreamsMs) : undefined;
  dropper?.unref();

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    port,
    queueMode: queue.mode,
    faults,
    requests,
    count(m, p) {
      const want = m.toUpperCase();
      return requests.filter(
        (r) =>
          (want === '*' || r.method === want) &&
          (typeof p === 'string' ? r.path.startsWith(p.replace(/\*$/, '')) : pathMatches(p, r.path)),
      ).length;
    },
    clock: { now: () => clock.now(), advance: (ms) => clock.advance(ms) },
    emit: (user, event, data) => void hub.emit(user, event, data),
    dropEventStreams: () => hub.dropAll(),
    queue: {
      list: () => queue.all(),
      complete: (id, outcome, error) => queue.finish(id, outcome, error),
      add: (count, o = {}) => {
        const model = models.get(o.model ?? 'flux-1-dev');
        const media = model ? mediaTypeOf(model) : null;
        if (!model || !media) throw new Error(`queue.add: no image or video model ${o.model ?? 'flux-1-dev'}`);
        const user = o.user ?? 'alice';
        const ids: string[] = [];
        for (let left = count; left > 0; left -= 4)
          ids.push(...queue.enqueue(user, user, model, media, { prompt: 'x', ...o.params }, Math.min(4, left)));
        return ids;
      },
    },
    setCredits: (ns, n) => accounts.setCredits(ns, n),
    removeModel: (id) => models.delete(id),
    close() {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(sweeper);
        clearInterval(dropper);
        queue.stopAll();
        for (const t of pendingTimers) clearTimeout(t);
        pendingTimers.clear();
        hub.dropAll();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
      return closing;
    },
  };
}
