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
}

/** Encode one path segment (ids may contain dots and capitals; never slashes unencoded). */
export function encodePath(segment: string): string {
  return encodeURIComponent(segment);
}

/** Combine the caller's signal and a timeout into one signal; `cleanup` clears the timer. */
export function callSignal(options: RequestOptions, defaultTimeoutMs: number): { signal: AbortSignal; timedOut: () => boolean; cleanup: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const timer = Number.isFinite(timeoutMs) && timeoutMs > 0
    ? setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs)
    : undefined;
  const onAbort = () => controller.abort();
  if (options.signal) {
    if (options.signal.aborted) controller.abort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    cleanup: () => {
      if (timer !== undefined) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Sends requests for the client. `send` makes exactly one attempt; retries are decided by the
 * caller (see `retry.ts`).
 */
export class Http {
  constructor(readonly options: HttpOptions) {}

  /** The full URL of a request. */
  url(req: HttpRequest): string {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** Request headers. The key goes only into `Authorization`, never into messages or logs. */
  headers(req: HttpRequest): Headers {
    const h = new Headers(this.options.headers);
    h.set('accept', req.stream ? 'text/event-stream' : 'application/json');
    if (req.body !== undefined) h.set('content-type', 'application/json');
    if (this.options.apiKey) h.set('authorization', `Bearer ${this.options.apiKey}`);
    return h;
  }

  /**
   * One attempt. Resolves to the parsed JSON body (or the unread Response for `stream`).
   * @throws APIError subclasses for error statuses; `ConnectionError` when no response came
   * (`cause.sentBody` tells whether the request may have reached the server);
   * `TimeoutError` / `AbortError` when the signal ended it.
   */
  async send(req: HttpRequest, signal: AbortSignal, why: { timedOut: () => boolean; userSignal?: AbortSignal | undefined }): Promise<unknown> {
    const request = { method: req.method, path: req.path };
    let res: Response;
    try {
      res = await this.options.fetch(this.url(req), {
        method: req.method,
        headers: this.headers(req),
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal,
      });
    } catch (err) {
      throw this.failure(err, request, why);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let body: unknown = text;
      try { body = text ? JSON.parse(text) : text; } catch { /* not JSON: keep the text */ }
      throw errorFromResponse(res.status, body, res.headers, request);
    }
    if (req.stream) return res;
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw this.failure(err, request, why);
    }
    try {
      return text === '' ? undefined : JSON.parse(text);
    } catch (err) {
      throw new APIError(`Invalid JSON in the response to ${req.method} ${req.path}`, { status: res.status, body: text, headers: res.headers, request, cause: err });
    }
  }

  /** Classify a thrown fetch/body error: abort by the user, timeout, or connection failure. */
  failure(err: unknown, request: { method: string; path: string }, why: { timedOut: () => boolean; userSignal?: AbortSignal | undefined }): Error {
    if (err instanceof APIError) return err;
    if (why.timedOut()) return new TimeoutError(`${request.method} ${request.path} timed out`, { request, cause: err });
    if (why.userSignal?.aborted) return new AbortError(`${request.method} ${request.path} was aborted`, { cause: err });
    const detail = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    return new ConnectionError(`Connection error on ${request.method} ${request.path}: ${detail}`, { request, cause: err });
  }
}
