/**
 * The HTTP layer: one attempt of one request. Bearer auth, JSON bodies, redirects refused,
 * response bodies read with a size cap, the response shape checked, and failures mapped to error
 * classes. Uses only `fetch`, `AbortController`, `Headers`, `ReadableStream` and `TextDecoder`
 * (Node 20+, Deno, Bun, browsers).
 */
import {
  AbortError,
  APIError,
  ConnectionError,
  errorFromResponse,
  requestIdOf,
  InvalidResponseError,
  SDKError,
  MAX_ERROR_BODY_BYTES,
  RedirectError,
  redactedJsonError,
  ResponseTooLargeError,
  TimeoutError,
  truncate,
} from '../errors.ts';
import { isBrowser } from './env.ts';
import { elapsed, type HookRequest, type Hooks } from '../hooks.ts';
import { loadCallLog, type Logger, type LogLevel } from '../log.ts';
import type { CallLog } from './log-lines.ts';
import { readLimited } from './read-limited.ts';
import type { HttpRequest, HttpResult } from '../request.ts';
import { Redactor } from '../redact.ts';

/** Whether `req` may be resent after a failure whose outcome is unknown. */
export function isIdempotent(req: HttpRequest): boolean {
  return req.idempotent ?? req.method !== 'POST';
}

/**
 * Encode one path parameter as a path segment (ids may contain dots and capitals; never slashes
 * unencoded). `name` is the parameter's wire name, for the error.
 * @throws SDKError when the value is not a string, or is empty, `.` or `..` (or decodes to one of
 * them): such a segment would move the request to another path (`DELETE /api/ai/queue/..` is
 * `DELETE /api/ai/`), so it is refused before anything is sent.
 */
export function encodePath(segment: string, name = 'path parameter'): string {
  if (typeof segment !== 'string')
    throw new SDKError(`${name} must be a string, got ${segment === null ? 'null' : typeof segment}`);
  let decoded = segment;
  for (let round = 0; round < 4; round++) {
    if (decoded === '' || decoded === '.' || decoded === '..') {
      throw new SDKError(
        `${name} must not be empty, "." or "..", nor decode to one of them (it is a path segment of the request): got ${JSON.stringify(segment.slice(0, 100))}`,
      );
    }
    if (!decoded.includes('%')) break;
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break; // not percent-encoded text: sent encoded as it is
    }
  }
  return encodeURIComponent(segment);
}

/**
 * Error codes meaning that the connection failed before any byte of the request was sent, so the
 * server surely did not process it. Conservative on purpose: a reset (`ECONNRESET`), a closed
 * socket or a timeout may come after the request was sent, and are not in this list.
 */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** True when a `fetch` rejection says the request surely never left (e.g. `TypeError: fetch failed` caused by `ECONNREFUSED`). */
export function surelyNotSent(err: unknown): boolean {
  if (!(err instanceof TypeError)) return false;
  const cause = (err as { cause?: unknown }).cause as { code?: unknown; errors?: unknown } | undefined;
  if (!cause || typeof cause !== 'object') return false;
  if (typeof cause.code === 'string' && NOT_SENT_CODES.has(cause.code)) {
    // An AggregateError (several addresses tried) counts only when every attempt was refused.
    if (!Array.isArray(cause.errors)) return true;
    return cause.errors.every(
      (e) => typeof (e as { code?: unknown })?.code === 'string' && NOT_SENT_CODES.has((e as { code: string }).code),
    );
  }
  return false;
}

/** The Node-style error code of a fetch failure (`ECONNRESET`, `UND_ERR_SOCKET`, ...), if any. */
function codeOf(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Why an attempt may have ended early: the call's timeout or the caller's signal. */
export interface AttemptContext {
  timedOut: () => boolean;
  userSignal?: AbortSignal | undefined;
  /** Attempts made so far in this call: `send` counts them here (hooks and logs show the number). */
  attempt?: number | undefined;
}

/** What a transport's HTTP layer is made of. The key and the headers are kept private (see `Http`). */
export interface HttpConfig {
  apiKey: string | undefined;
  baseUrl: string;
  fetch: typeof fetch;
  headers: Record<string, string>;
  /** The largest success body read, in bytes. */
  maxResponseBytes: number;
  /** How much to log (see `LogLevel`; default env `OXEN_LOG`, else off). */
  logLevel?: LogLevel | undefined;
  /** Where to log (default `console`). */
  logger?: Logger | undefined;
  /** The transport's hooks, or undefined for none. */
  hooks?: Hooks | undefined;
}

/**
 * Sends requests for a transport. `send` makes exactly one attempt; retries are decided by the
 * caller (see `retry.ts`). The API key and the fixed headers are held in `#private` fields, out
 * of reach of `util.inspect`, `JSON.stringify` and logging, never on a property.
 */
export class Http {
  /** The base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** The largest success body read, in bytes. */
  readonly maxResponseBytes: number;
  /**
   * This transport's secrets: the API key and every custom header value (also without an auth
   * scheme such as `Bearer `). Every error of its calls is redacted with it; it shows none of them.
   */
  readonly redactor: Redactor;
  /**
   * The transport's log (its module loads on demand), or undefined when logging is off: nothing is built per call then.
   * @internal
   */
  readonly log: Promise<CallLog | undefined> | undefined;
  /** The transport's hooks, or undefined when there are none. */
  readonly hooks: Hooks | undefined;
  private readonly fetchFn: typeof fetch;
  readonly #apiKey: string | undefined;
  readonly #headers: Record<string, string>;

  constructor(config: HttpConfig) {
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.maxResponseBytes = config.maxResponseBytes;
    this.fetchFn = config.fetch;
    this.hooks = config.hooks;
    this.redactor = new Redactor([config.apiKey, ...Object.values(config.headers)]);
    this.#apiKey = config.apiKey;
    this.#headers = { ...config.headers };
    // Logs show ordinary header values: the key and the secret headers' values (by name) are redacted.
    this.log = loadCallLog(config.logLevel, config.logger, [config.apiKey], config.headers);
  }

  /** The full URL of a request. */
  url(req: HttpRequest): string {
    const query = req.query
      ? Object.entries(req.query).filter((e): e is [string, string | number] => e[1] !== undefined)
      : [];
    if (query.length === 0) return this.baseUrl + req.path;
    const url = new URL(this.baseUrl + req.path);
    for (const [k, v] of query) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** Request headers without the key: the transport's, the call's, then `accept` and `content-type`. */
  private headersOf(req: HttpRequest): Record<string, string> {
    const h: Record<string, string> = { ...this.#headers };
    if (req.headers) for (const [k, v] of Object.entries(req.headers)) h[k.toLowerCase()] = String(v);
    h['accept'] = req.stream ? 'text/event-stream' : 'application/json';
    if (req.body !== undefined) h['content-type'] = 'application/json';
    return h;
  }

  /**
   * One attempt. Resolves to the parsed JSON body with the `Response` (for `stream`, the unread
   * Response). Runs the `onRequest` hooks before sending and the `onResponse` hooks when the
   * response headers arrive; logs the attempt at `debug`.
   * @throws APIError subclasses for error statuses; `RedirectError` for a 3xx (never followed);
   * `InvalidResponseError` for an empty, non-JSON or misshapen success body;
   * `ResponseTooLargeError` beyond `maxResponseBytes`; `ConnectionError` when no response came
   * (`notSent` tells whether the request surely never left); `TimeoutError` / `AbortError` when
   * the signal ended it; whatever a hook throws.
   */
  async send(req: HttpRequest, signal: AbortSignal, why: AttemptContext): Promise<HttpResult> {
    const request = { method: req.method, path: req.path };
    const redactor = this.redactor;
    const attempt = (why.attempt = (why.attempt ?? 0) + 1);
    const { hooks } = this;
    let log = this.log && (await this.log);
    const url = this.url(req);
    let headers = this.headersOf(req);
    let body = req.body;
    let hookRequest: HookRequest | undefined;
    if (hooks) {
      hookRequest = { method: req.method, path: req.path, url, headers: new Headers(headers), body, attempt };
      for (const hook of hooks.onRequest) await hook(hookRequest);
      headers = Object.fromEntries(hookRequest.headers);
      body = hookRequest.body;
    }
    const apiKey = this.#apiKey;
    if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;
    const started = log || hooks ? performance.now() : 0;
    // The call's or a hook's own credentials are redacted from its lines like the transport's.
    if (log?.enabled('debug') && (req.headers || hooks)) log = log.withSecretsOf(headers);
    log?.request(req, url, attempt, headers, body);
    let res: Response;
    try {
      res = await this.fetchFn(url, {
        method: req.method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal,
        redirect: 'manual',
      });
    } catch (err) {
      const error = failure(err, request, why, 'request', redactor);
      log?.noResponse(req, attempt, started, error);
      throw error;
    }
    if (hooks && hooks.onResponse.length > 0) {
      const context = {
        request: hookRequest!,
        response: res,
        durationMs: elapsed(started),
        requestId: requestIdOf(res.headers),
      };
      try {
        for (const hook of hooks.onResponse) await hook(context);
      } catch (err) {
        void res.body?.cancel().catch(() => undefined);
        throw err;
      }
    }
    if (res.ok && !req.stream) {
      // The common case: read (capped) and parse the body.
      let text: string;
      try {
        text = (await readText(res, this.maxResponseBytes, request, false, redactor)).text;
      } catch (err) {
        throw failure(err, request, why, 'body', redactor);
      }
      log?.response(req, res, attempt, started, text);
      const init = { status: res.status, headers: res.headers, request, redactor };
      if (text.trim() === '')
        throw new InvalidResponseError(
          `The response to ${req.method} ${req.path} has an empty body (status ${res.status}); a JSON body was expected`,
          { ...init, body: text },
        );
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new InvalidResponseError(`Invalid JSON in the response to ${req.method} ${req.path}`, {
          ...init,
          body: truncate(redactor.text(text), MAX_ERROR_BODY_BYTES),
          cause: redactedJsonError(err, text, redactor),
        });
      }
      const problem = parsed === null ? 'the body is null' : req.expect?.(parsed);
      if (problem !== undefined) {
        throw new InvalidResponseError(`Unexpected response to ${req.method} ${req.path}: ${problem}`, {
          ...init,
          body: parsed,
        });
      }
      return { data: parsed, response: res, text };
    }
    if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
      void res.body?.cancel().catch(() => undefined);
      log?.response(req, res, attempt, started, undefined);
      const location = res.headers.get('location') ?? undefined;
      const where =
        location === undefined ? 'another location (the runtime hides which)' : truncate(redactor.text(location), 500);
      throw new RedirectError(
        `${req.method} ${req.path} was answered with a redirect${res.status ? ` (${res.status})` : ''} to ${where}. The SDK does not follow redirects; set baseUrl to the final address.`,
        { status: res.status || undefined, headers: res.headers, request, location, redactor },
      );
    }
    if (!res.ok) {
      let text = '';
      try {
        const read = await readText(res, MAX_ERROR_BODY_BYTES, request, true, redactor);
        // Cut at the limit: a secret across the cut is redacted with the part before it.
        text = read.truncated ? redactor.cutText(read.text) : read.text;
      } catch (err) {
        // The status is known even when the body is cut: keep the status, but a timeout/abort wins.
        if (signal.aborted) throw failure(err, request, why, 'body', redactor);
      }
      log?.response(req, res, attempt, started, text);
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : text;
      } catch {
        /* not JSON (or cut): keep the text */
      }
      throw errorFromResponse(res.status, body, res.headers, request, redactor);
    }
    log?.response(req, res, attempt, started, undefined);
    return { data: res, response: res, text: undefined }; // a stream: the caller reads it
  }
}

/**
 * Read a response body as text, at most `limit` bytes: beyond it either cut it (`truncateInstead`,
 * for error bodies; the text is returned as read, with `truncated: true`) or stop and throw
 * `ResponseTooLargeError` (its headers redacted with `redactor`). The connection is released either way.
 */
export async function readText(
  res: Response,
  limit: number,
  request: { method: string; path: string },
  truncateInstead: boolean,
  redactor: Redactor = Redactor.NONE,
): Promise<{ text: string; truncated: boolean }> {
  const body = res.body;
  if (!body) return { text: '', truncated: false };
  const declared = Number(res.headers.get('content-length') ?? NaN);
  const encoded = (res.headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity';
  // Fast path: a declared length within the limit is enforced by the runtime's HTTP parser.
  if (!encoded && Number.isFinite(declared) && declared <= limit) return { text: await res.text(), truncated: false };
  const tooLarge = () =>
    new ResponseTooLargeError(
      `The response to ${request.method} ${request.path} is larger than maxResponseBytes (${limit} bytes); the SDK stopped reading it`,
      {
        status: res.status,
        headers: res.headers,
        request,
        limitBytes: limit,
        redactor,
      },
    );
  if (!truncateInstead && !encoded && Number.isFinite(declared) && declared > limit) {
    void body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const { bytes, truncated } = await readLimited(body, limit, truncateInstead);
  if (!bytes) throw tooLarge();
  return { text: new TextDecoder().decode(bytes), truncated };
}

/**
 * Classify a thrown fetch/body error: abort by the user, timeout, or connection failure. In a
 * browser a rejected `fetch` says nothing about why (CORS, network, offline): the message says
 * only what is known, and `notSent` stays false, so a generating POST is never resent. The error
 * (and `err` in its cause chain) is redacted with `redactor`, the transport's secrets.
 */
export function failure(
  err: unknown,
  request: { method: string; path: string },
  why: AttemptContext,
  phase: 'request' | 'body',
  redactor: Redactor = Redactor.NONE,
): Error {
  if (err instanceof APIError || err instanceof AbortError) return err;
  const what = `${request.method} ${request.path}`;
  // (an AbortError carries no request: SDKError's constructor reads only cause and redactor)
  const init = { request, cause: err, redactor };
  if (why.timedOut()) return new TimeoutError(`${what} timed out`, init);
  if (why.userSignal?.aborted) return new AbortError(`${what} was aborted`, init);
  const message = err instanceof Error ? err.message : String(err);
  const cut = `The response to ${what} was cut while it was read`;
  if (codeOf(err) === undefined && err instanceof TypeError && isBrowser()) {
    return new ConnectionError(
      phase === 'request'
        ? `${what} failed without a response (${message}): it may have been blocked by CORS or by the network; if it was sent, it may have been processed`
        : `${cut} (${message})`,
      { ...init, notSent: false },
    );
  }
  const detail = err instanceof Error && err.cause instanceof Error ? err.cause.message : message;
  return new ConnectionError(`${phase === 'request' ? `Connection error on ${what}` : cut}: ${detail}`, {
    ...init,
    notSent: phase === 'request' && surelyNotSent(err),
  });
}
