/**
 * The `APIError` subclasses of an answer (`BadRequestError`, `NotFoundError`, `RateLimitError`, ...,
 * `RedirectError`, `InvalidResponseError`, `ResponseTooLargeError`, `OutcomeUnknownError`). Only the
 * failure path makes them (`internal/failure.ts`, loaded with `import()` when an attempt failed, which
 * also says which class a status means; and the modules loaded on demand: streams, the queue, outputs),
 * so that a page whose calls succeed loads none of this module; the classes every call may need
 * (`SDKError`, `APIError`, `ConnectionError`, `TimeoutError`, `AbortError`) are in `errors.ts`.
 *
 * Every export of this module is public: `exports.ts` takes them with `export *`, which (unlike a named
 * re-export) does not put this module into the first load of a page that uses `exports.ts` (see
 * `runtime/index.ts`).
 */
import { brandErrors } from './internal/brand.ts';
import { APIError, redacted, type APIErrorInit } from './errors.ts';
import { parseRetryAfterMs } from './internal/retry-after.ts';
import { queueEnqueue } from './operations.ts';

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
/**
 * The namespace has too few credits: a 402, or an error `type` naming credits (the API description
 * shows neither the status nor the type of its "credit-related error"; the message text is not read).
 */
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
 * The service answered with a redirect (3xx). The SDK never follows redirects: a followed POST
 * may turn into a GET whose answer is not the result, or resend the prompt to another origin.
 * `location` is the `Location` header (undefined when the runtime hides it, as browsers do).
 * Point `baseUrl` at the final address instead.
 */
export class RedirectError extends APIError {
  override name = 'RedirectError';
  /** The redirect target, as the `Location` header gave it. */
  declare readonly location: string | undefined;
  constructor(message: string, init: APIErrorInit & { location?: string | undefined } = {}) {
    super(message, init);
    this.location = init.location === undefined ? undefined : redacted(this.redactor, init.location);
  }
}
/**
 * A success status whose body the SDK cannot use: empty, `null`, not JSON, or not the documented
 * shape (e.g. an image result without `images`). For a generating POST it arrives as the `cause` of
 * an `OutcomeUnknownError` (reason `invalid_response`): the request was probably processed.
 */
export class InvalidResponseError extends APIError {
  override name = 'InvalidResponseError';
}
/**
 * A response body larger than `maxResponseBytes` (or one server-sent event larger than it): the
 * SDK stopped reading and closed the connection. For a generating POST it arrives as the `cause`
 * of an `OutcomeUnknownError` (reason `invalid_response`): the request was processed. Raise
 * `maxResponseBytes`, or ask for `response_format: 'url'` instead of `'b64_json'`.
 */
export class ResponseTooLargeError extends APIError {
  override name = 'ResponseTooLargeError';
  /** The limit that was exceeded, in bytes. */
  declare readonly limitBytes: number;
  constructor(message: string, init: APIErrorInit & { limitBytes: number }) {
    super(message, init);
    this.limitBytes = init.limitBytes;
  }
}

/** Why a generating POST's outcome is unknown. */
export type OutcomeUnknownReason =
  /** A 5xx answer: the service may have processed the request before failing. */
  | 'server_error'
  /** The request failed without an answer after it may have been sent (a reset; in a browser, any network failure). */
  | 'connection'
  /** The call's `timeoutMs` elapsed while the request was in flight. */
  | 'timeout'
  /** A success status whose body could not be used (empty, not JSON, not the documented shape, too large): the request was probably processed. */
  | 'invalid_response';

/**
 * A POST that generates (and bills) failed in a way that leaves its outcome unknown: the server
 * may have processed it (e.g. a 5xx, a reset after the body was sent, a timeout while in flight,
 * an unusable success answer). The SDK does not resend it, so that nobody is charged twice. For
 * `queue.enqueue`/`queue.run`, check `queue.list()` before retrying by hand. `status` is the HTTP
 * status when there was one; `cause` is the underlying error (`InternalServerError`,
 * `ConnectionError`, `TimeoutError`, `InvalidResponseError`, `ResponseTooLargeError`, ...).
 */
export class OutcomeUnknownError extends APIError {
  override name = 'OutcomeUnknownError';
  /** What left the outcome unknown. */
  declare readonly reason: OutcomeUnknownReason;
  constructor(message: string, init: APIErrorInit & { reason?: OutcomeUnknownReason } = {}) {
    super(message, init);
    this.reason = init.reason ?? 'connection';
  }
  /**
   * The error for a generating request `request` that failed with `cause` (never contains the key).
   * The message says the outcome is unknown, that the request was not resent and, for the queue,
   * to check `queue.list`.
   */
  static from(
    request: { method: string; path: string },
    cause: APIError,
    reason: OutcomeUnknownReason,
  ): OutcomeUnknownError {
    const what =
      reason === 'server_error'
        ? `the server answered ${cause.status ?? 'an error'} (${cause.message})`
        : reason === 'timeout'
          ? 'it timed out while the request was in flight'
          : reason === 'invalid_response'
            ? `the server answered ${cause.status ?? 'a success status'} with a body the SDK cannot use (${cause.message})`
            : `the request failed without an answer (${cause.message})`;
    const hint =
      request.path === queueEnqueue.path
        ? ' Check client.queue.list() for the generations before enqueueing again.'
        : ' Check whether it took effect before sending it again.';
    return new OutcomeUnknownError(
      `The outcome of ${request.method} ${request.path} is unknown: ${what}. If the request reached the server, it may have been processed (and billed); the SDK did not resend it.${hint}`,
      { status: cause.status, body: cause.body, headers: cause.headers, request, cause, reason },
    );
  }
}

// `instanceof` across the ES module and CommonJS copies of the package (Node, Deno, Bun; nothing in a browser build).
brandErrors({
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  InsufficientCreditsError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  RedirectError,
  InvalidResponseError,
  ResponseTooLargeError,
  OutcomeUnknownError,
});
