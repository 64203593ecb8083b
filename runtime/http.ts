/**
 * The HTTP layer: bearer auth, JSON bodies, timeouts and cancellation, and the mapping of error
 * responses to error classes. Uses only `fetch`, `AbortController`, `Headers` (Node 20+, Deno,
 * Bun, browsers).
 */
import { AbortError, APIError, ConnectionError, errorFromResponse, TimeoutError } from './errors.ts';

/** Options every call takes. Times are in milliseconds. */
export interface RequestOptions {
  /** Ends the call (and any retries) with `TimeoutError` after this many milliseconds. */
  timeoutMs?: number;
  /** Ends the call with `AbortError` when aborted. */
  signal?: AbortSignal;
  /** Override the client's `maxRetries` for this call. */
  maxRetries?: number;
}

/** Options of the HTTP layer, from the client's options. */
export interface HttpOptions {
  apiKey: string | undefined;
  baseUrl: string;
  fetch: typeof fetch;
  /** Default per-call timeout in milliseconds. */
  timeoutMs: number;
  maxRetries: number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Base delay of the jittered exponential retry backoff, in milliseconds. */
  retryBaseDelayMs?: number;
  /** Upper bound of one retry delay (before `Retry-After`), in milliseconds. */
  retryMaxDelayMs?: number;
}

/** One request as the resources describe it. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the base URL, starting with `/`; path parameters already encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** `text/event-stream` responses: return the Response unread instead of parsing JSON. */
  stream?: boolean;
  /**
   * Whether resending is harmless. Default: true for GET and DELETE, false for POST (every POST of
   * this API generates and bills). A non-idempotent request is retried only when the server surely
   * did not process it (429, or the connection was refused before any byte was sent).
   */
  idempotent?: boolean;
}

/** Whether `req` may be resent after a failure whose outcome is unknown. */
export function isIdempotent(req: HttpRequest): boolean {
  return req.idempotent ?? req.method !== 'POST';
}

/** Encode one path segment (ids may contain dots and capitals; never slashes unencoded). */
export function encodePath(segment: string): string {
  return encodeURIComponent(segment);
}

/**
 * The lifetime of one call: the caller's `signal` and the call's timeout combined into one
 * `AbortSignal` that covers every attempt and every retry delay. `dispose` must be called when
 * the call ends (it clears the timer and unlinks the caller's signal).
 */
export class CallScope {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expired = false;
  private readonly onAbort = () => this.controller.abort();

  /** @param timeoutMs milliseconds; `Infinity` or `0` (or less) means no timeout. */
  constructor(readonly userSignal: AbortSignal | undefined, readonly timeoutMs: number) {
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) {
      this.timer = setTimeout(() => {
        this.expired = true;
        this.controller.abort();
      }, timeoutMs);
    }
    if (userSignal) {
      if (userSignal.aborted) this.controller.abort();
      else userSignal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** The scope for `options` (`timeoutMs` defaulting to `defaultTimeoutMs`). */
  static of(options: RequestOptions, defaultTimeoutMs: number): CallScope {
    return new CallScope(options.signal, options.timeoutMs ?? defaultTimeoutMs);
  }

  /** Aborted when the caller aborts, the timeout elapses, or `abort()` is called. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  /** True once the timeout elapsed (and ended the call). */
  timedOut = (): boolean => this.expired;
  /** True when the caller's signal ended the call. */
  get userAborted(): boolean {
    return !this.expired && (this.userSignal?.aborted ?? false);
  }
  /** End the call now (e.g. the consumer stopped reading a stream). */
  abort(): void {
    this.controller.abort();
  }
  /** Stop the timeout (e.g. once an event stream is connected) but keep the caller's signal linked. */
  clearTimeout(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
  /** Clear the timer and unlink the caller's signal. Idempotent. */
  dispose(): void {
    this.clearTimeout();
    this.userSignal?.removeEventListener('abort', this.onAbort);
  }
  /** The error that describes why this scope ended: `TimeoutError` or `AbortError`. */
  endError(what: string, cause?: unknown): TimeoutError | AbortError {
    return this.expired
      ? new TimeoutError(`${what} timed out after ${this.timeoutMs} ms`, cause === undefined ? {} : { cause })
      : new AbortError(`${what} was aborted`, cause === undefined ? undefined : { cause });
  }
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
    return cause.errors.every((e) => typeof (e as { code?: unknown })?.code === 'string' && NOT_SENT_CODES.has((e as { code: string }).code));
  }
  return false;
}

/**
 * Sends requests for the client. `send` makes exactly one attempt; retries are decided by the
 * caller (see `retry.ts`).
 */
export class Http {
  /** The options; `apiKey` is non-enumerable, so that logging or inspecting a client never shows it. */
  readonly options: HttpOptions;

  constructor(options: HttpOptions) {
    const { apiKey, ...rest } = options;
    this.options = rest as HttpOptions;
    Object.defineProperty(this.options, 'apiKey', { value: apiKey, enumerable: false, writable: false });
  }

  /** The full URL of a request. */
  url(req: HttpRequest): string {
    const base = (this.base ??= this.options.baseUrl.replace(/\/+$/, ''));
    const query = req.query ? Object.entries(req.query).filter((e): e is [string, string | number] => e[1] !== undefined) : [];
    if (query.length === 0) return base + req.path;
    const url = new URL(base + req.path);
    for (const [k, v] of query) url.searchParams.set(k, String(v));
    return url.toString();
  }
  private base: string | undefined;

  /** Request headers. The key goes only into `Authorization`, never into messages or logs. */
  headers(req: HttpRequest): Record<string, string> {
    if (!this.fixedHeaders) {
      const fixed: Record<string, string> = {};
      for (const [k, v] of Object.entries(this.options.headers ?? {})) fixed[k.toLowerCase()] = v;
      this.fixedHeaders = fixed;
    }
    const h: Record<string, string> = { ...this.fixedHeaders, accept: req.stream ? 'text/event-stream' : 'application/json' };
    if (req.body !== undefined) h['content-type'] = 'application/json';
    // Built per request (never stored on an enumerable field), so that inspecting the client never shows the key.
    if (this.options.apiKey) h['authorization'] = `Bearer ${this.options.apiKey}`;
    return h;
  }
  private fixedHeaders: Record<string, string> | undefined;

  /**
   * One attempt. Resolves to the parsed JSON body (or the unread Response for `stream`).
   * @throws APIError subclasses for error statuses; `ConnectionError` when no response came
   * (`cause.sentBody` tells whether the request may have reached the server);
   * `TimeoutError` / `AbortError` when the signal ended it.
   */
  async send(req: HttpRequest, signal: AbortSignal, why: { timedOut: () => boolean; userSignal?: AbortSignal | undefined }): Promise<unknown> {
    let res: Response;
    try {
      res = await this.options.fetch(this.url(req), {
        method: req.method,
        headers: this.headers(req),
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal,
      });
    } catch (err) {
      throw this.redact(this.failure(err, { method: req.method, path: req.path }, why));
    }
    if (res.ok && !req.stream) {
      // The common case, kept to one await: parse the body.
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        throw this.redact(this.failure(err, { method: req.method, path: req.path }, why));
      }
      try {
        return text === '' ? undefined : JSON.parse(text);
      } catch (err) {
        throw this.redact(new APIError(`Invalid JSON in the response to ${req.method} ${req.path}`, { status: res.status, body: text, headers: res.headers, request: { method: req.method, path: req.path }, cause: err }));
      }
    }
    try {
      return await this.finish(req, res, signal, why);
    } catch (err) {
      throw this.redact(err);
    }
  }

  /** An error status (read the body, map it to its class), or a stream response (returned unread). */
  private async finish(req: HttpRequest, res: Response, signal: AbortSignal, why: { timedOut: () => boolean; userSignal?: AbortSignal | undefined }): Promise<unknown> {
    const request = { method: req.method, path: req.path };
    if (!res.ok) {
      let text = '';
      try {
        text = await res.text();
      } catch (err) {
        // The status is known even when the body is cut: keep the status, but a timeout/abort wins.
        if (signal.aborted) throw this.failure(err, request, why);
      }
      let body: unknown = text;
      try { body = text ? JSON.parse(text) : text; } catch { /* not JSON: keep the text */ }
      throw errorFromResponse(res.status, body, res.headers, request);
    }
    return res; // a stream: the caller reads it
  }

  /** Classify a thrown fetch/body error: abort by the user, timeout, or connection failure. */
  failure(err: unknown, request: { method: string; path: string }, why: { timedOut: () => boolean; userSignal?: AbortSignal | undefined }): Error {
    if (err instanceof APIError || err instanceof AbortError) return err;
    if (why.timedOut()) return new TimeoutError(`${request.method} ${request.path} timed out`, { request, cause: err });
    if (why.userSignal?.aborted) return new AbortError(`${request.method} ${request.path} was aborted`, { cause: err });
    const detail = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    return new ConnectionError(`Connection error on ${request.method} ${request.path}: ${detail}`, { request, cause: err, notSent: surelyNotSent(err) });
  }

  /**
   * Defence in depth: remove the API key from an error's message and body should a server (or a
   * proxy) ever echo it. The SDK itself never puts the key anywhere but the `Authorization` header.
   */
  redact<E>(err: E): E {
    const key = this.options.apiKey;
    if (!key || key.length < 4 || !(err instanceof Error)) return err;
    if (err.message.includes(key)) err.message = err.message.split(key).join('[REDACTED]');
    if (err instanceof APIError) {
      const b = err.body;
      if (typeof b === 'string' && b.includes(key)) (err as { body: unknown }).body = b.split(key).join('[REDACTED]');
      else if (b && typeof b === 'object') {
        const json = JSON.stringify(b);
        if (json.includes(key)) (err as { body: unknown }).body = JSON.parse(json.split(key).join('[REDACTED]'));
      }
    }
    return err;
  }
}
