/**
 * Error classes of the SDK. Every error the SDK throws is an `SDKError`; errors that carry an
 * HTTP response are `APIError`s, subclassed by meaning. Messages carry the server's own text and
 * never the API key.
 */

/** Base class of every error this SDK throws. */
export class SDKError extends Error {
  override name = 'SDKError';
}

/** Options of an `APIError`. */
export interface APIErrorInit {
  /** HTTP status, or undefined when no response was received. */
  status?: number | undefined;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body?: unknown;
  headers?: Headers | undefined;
  /** HTTP method and path of the request (no query string, never the key). */
  request?: { method: string; path: string } | undefined;
  cause?: unknown;
}

/**
 * An error answered by the service (or a failure to get an answer: see subclasses).
 * `message` is the server's own message string when it sent one.
 */
export class APIError extends SDKError {
  override name = 'APIError';
  /** HTTP status code; undefined for connection errors and timeouts. */
  readonly status: number | undefined;
  /** The response body: parsed JSON, or the raw text. */
  readonly body: unknown;
  readonly headers: Headers | undefined;
  readonly request: { method: string; path: string } | undefined;

  constructor(message: string, init: APIErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers;
    this.request = init.request;
  }
}

/** 400: the request was rejected (e.g. `Messages array cannot be empty`, `Prompt cannot be empty`). */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/** 401: no or an unknown API key. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** 403: the key may not act in that namespace (or the service refused for another permission reason). */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
/** 404: unknown model (`Model not found: <name>`), or a generation that is terminal or unknown. */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/** The namespace has too few credits (402, or a credit-related message). */
export class InsufficientCreditsError extends APIError {
  override name = 'InsufficientCreditsError';
}
/** 422: the model rejected its parameters (`Getting model response error: 422 - ...`). */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
}
/** 429: too many requests. `retryAfterMs` is the server's `Retry-After`, in milliseconds, when given. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  get retryAfterMs(): number | undefined {
    return parseRetryAfterMs(this.headers?.get('retry-after') ?? null);
  }
}
/** 5xx: the service failed. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}
/**
 * No response: the connection failed or was reset, or the response body could not be read.
 * `status` is undefined. `notSent` is true only when the connection failed before any byte of the
 * request was sent (connection refused, DNS failure): such a request surely was not processed.
 */
export class ConnectionError extends APIError {
  override name = 'ConnectionError';
  /** True when the request surely never reached the server (e.g. `ECONNREFUSED`); false when it may have. */
  readonly notSent: boolean;
  constructor(message: string, init: APIErrorInit & { notSent?: boolean } = {}) {
    super(message, init);
    this.notSent = init.notSent ?? false;
  }
}
/** The call took longer than its `timeoutMs`. */
export class TimeoutError extends APIError {
  override name = 'TimeoutError';
}
/** The caller's `AbortSignal` ended the call. */
export class AbortError extends SDKError {
  override name = 'AbortError';
}

/** Why a generating POST's outcome is unknown. */
export type OutcomeUnknownReason =
  /** A 5xx answer: the service may have processed the request before failing. */
  | 'server_error'
  /** The connection failed after (part of) the request was sent, e.g. a reset. */
  | 'connection'
  /** The call's `timeoutMs` elapsed while the request was in flight. */
  | 'timeout'
  /** A success status whose body could not be parsed: the request was probably processed. */
  | 'invalid_response';

/**
 * A POST that generates (and bills) failed in a way that leaves its outcome unknown: the server
 * may have processed it (e.g. a 5xx, a reset after the body was sent, a timeout while in flight).
 * The SDK does not resend it, so that nobody is charged twice. For `queue.enqueue`/`queue.run`,
 * check `queue.list()` before retrying by hand. `status` is the HTTP status when there was one;
 * `cause` is the underlying error (`InternalServerError`, `ConnectionError`, `TimeoutError`, ...).
 */
export class OutcomeUnknownError extends APIError {
  override name = 'OutcomeUnknownError';
  /** What left the outcome unknown. */
  readonly reason: OutcomeUnknownReason;
  constructor(message: string, init: APIErrorInit & { reason?: OutcomeUnknownReason } = {}) {
    super(message, init);
    this.reason = init.reason ?? 'connection';
  }

  /**
   * The error for a generating request `request` that failed with `cause` (never contains the key).
   * The message says the outcome is unknown, that the request was not resent and, for the queue,
   * to check `queue.list`.
   */
  static from(request: { method: string; path: string }, cause: APIError, reason: OutcomeUnknownReason): OutcomeUnknownError {
    const what =
      reason === 'server_error' ? `the server answered ${cause.status ?? 'an error'} (${cause.message})`
      : reason === 'timeout' ? 'it timed out while the request was in flight'
      : reason === 'invalid_response' ? `the server answered ${cause.status ?? ''} with a body that is not valid JSON`
      : `the connection failed after the request was sent (${cause.message})`;
    const hint = request.path.startsWith('/api/ai/queue')
      ? ' Check client.queue.list() for the generations before enqueueing again.'
      : ' Check whether it took effect before sending it again.';
    return new OutcomeUnknownError(
      `The outcome of ${request.method} ${request.path} is unknown: ${what}. The server may have processed (and billed) it; the SDK did not resend it.${hint}`,
      { status: cause.status, body: cause.body, headers: cause.headers, request, cause, reason },
    );
  }
}

/** One problem found by client-side validation, located by a JSON pointer into the request body. */
export interface ValidationIssue {
  /** JSON pointer (RFC 6901) of the offending value, e.g. `/aspect_ratio`; `` for the body itself. */
  pointer: string;
  message: string;
  /** The JSON-schema keyword that failed (`enum`, `required`, `additionalProperties`, ...). */
  keyword?: string;
}

/** Client-side validation of model parameters failed; nothing was sent. */
export class ValidationError extends SDKError {
  override name = 'ValidationError';
  readonly model: string;
  readonly issues: ValidationIssue[];
  constructor(model: string, issues: ValidationIssue[]) {
    super(`Invalid parameters for model ${model}:\n` + issues.map((i) => `  ${i.pointer || '/'}: ${i.message}`).join('\n'));
    this.model = model;
    this.issues = issues;
  }
}

/**
 * Parse a `Retry-After` header (seconds or an HTTP date) to milliseconds from now.
 * Returns undefined when absent or unparsable.
 */
export function parseRetryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The message string of an error body. The description shows only the 404 body of the queue
 * (`error.type`, `error.title`); other bodies are "not shown", so every common place is tried.
 */
export function messageFromBody(body: unknown, fallback: string): string {
  if (typeof body === 'string') return body.trim() === '' ? fallback : body.slice(0, 2000);
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const err = b['error'];
    if (typeof err === 'string' && err) return err;
    if (err && typeof err === 'object') {
      const e = err as Record<string, unknown>;
      for (const k of ['message', 'title', 'detail']) if (typeof e[k] === 'string' && e[k]) return e[k] as string;
    }
    for (const k of ['message', 'detail', 'title', 'status_message']) if (typeof b[k] === 'string' && b[k]) return b[k] as string;
  }
  return fallback;
}

/** Map a response status (and its message) to the error class that means it. */
export function errorFromResponse(status: number, body: unknown, headers: Headers, request: { method: string; path: string }): APIError {
  const message = messageFromBody(body, `HTTP ${status}`);
  const init: APIErrorInit = { status, body, headers, request };
  if (status === 402 || /\bcredit/i.test(message)) return new InsufficientCreditsError(message, init);
  if (status === 400) return new BadRequestError(message, init);
  if (status === 401) return new AuthenticationError(message, init);
  if (status === 403) return new PermissionDeniedError(message, init);
  if (status === 404) return new NotFoundError(message, init);
  if (status === 422) return new UnprocessableEntityError(message, init);
  if (status === 429) return new RateLimitError(message, init);
  if (status >= 500) return new InternalServerError(message, init);
  return new APIError(message, init);
}
