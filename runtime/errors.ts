/**
 * Error classes of the SDK. Every error the SDK throws is an `SDKError`; errors that carry an
 * HTTP response are `APIError`s, subclassed by meaning. Messages carry the server's own text
 * (at most `MAX_MESSAGE_CHARS` of it) and never a secret of the client: every error is redacted
 * when it is constructed, with the `Redactor` of the call that made it (given as `redactor`, or
 * else the one of its `cause`), before any text is cut: message, stack, body, headers and cause
 * chain (see `redact.ts`). Its `toJSON()` and `util.inspect` forms show only redacted, bounded data.
 * A call without secrets (no key, no header value) has no redactor: its errors are left as they are.
 */
import { brandErrors } from './internal/brand.ts';
import { defineInspect } from './internal/inspect.ts';
// Types only: `redact.ts` is loaded on demand, by a transport that has secrets (see `internal/http.ts`).
import type { Redactor } from './redact.ts';

/** How many characters of a server's message an error message keeps (the rest is cut, saying so). */
export const MAX_MESSAGE_CHARS = 1_000;

/** Default `maxResponseBytes`, the largest response body read (and chat completion collected): 100 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

/** How many bytes of an error response body are read and kept in `APIError.body` (64 KiB); the rest is not read. */
export const MAX_ERROR_BODY_BYTES = 65_536;

/** `text` cut to `max` characters, saying how much was cut. */
export function truncate(text: string, max: number = MAX_MESSAGE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

/** The redactor each SDK error was made with (held off the error, so that inspecting it shows nothing of it). */
const redactors = new WeakMap<object, Redactor>();

/** The `Redactor` an SDK error was constructed with, or undefined (none, or not an SDK error). */
export function redactorOf(err: unknown): Redactor | undefined {
  return typeof err === 'object' && err !== null ? redactors.get(err) : undefined;
}

/** `text` redacted with `r` (as it is when there is no redactor). */
export const redacted = (r: Redactor | undefined, text: string): string => (r ? r.text(text) : text);

/** A one-line, redacted summary of a `cause` (for `toJSON` and `util.inspect`): `Name: message (code)`, nested causes appended. */
function summarizeCause(r: Redactor | undefined, cause: unknown, depth = 0): string | undefined {
  if (cause === undefined || depth > 4) return undefined;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const inner = summarizeCause(r, (cause as { cause?: unknown }).cause, depth + 1);
    return `${cause.name}: ${truncate(redacted(r, String(cause.message)))}${typeof code === 'string' ? ` (${code})` : ''}${inner ? `; caused by ${inner}` : ''}`;
  }
  // Anything else thrown is shown as the language shows it (a custom toString included).
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return truncate(redacted(r, typeof cause === 'string' ? cause : String(cause)));
}

/** Options of every SDK error. */
export interface SDKErrorOptions {
  /** The underlying error (a foreign one is redacted in place, with its cause chain). */
  cause?: unknown;
  /**
   * The secrets to keep out of this error: the redactor of the transport whose call failed.
   * Default: the redactor of `cause` when it is an SDK error, else none.
   */
  redactor?: Redactor | undefined;
}

/**
 * The fields of the SDK's errors that `toJSON` and `util.inspect` show (those an error has, in this
 * order): `APIError`'s (`type`, `title`, `detail` when the body gave them), then
 * `ConnectionError.notSent`, `RedirectError.location`, `ResponseTooLargeError.limitBytes`,
 * `OutcomeUnknownError.reason`, `ValidationError.model` and `issues`.
 */
const SHOWN_FIELDS = [
  'status',
  'request',
  'requestId',
  'type',
  'title',
  'detail',
  'body',
  'headers',
  'notSent',
  'location',
  'limitBytes',
  'reason',
  'model',
  'issues',
] as const;

/**
 * Base class of every error this SDK throws. `message`, `stack` and the `cause` chain never contain a secret of the client whose call made it.
 * In Node, Deno and Bun, `instanceof` it (and each of its subclasses here) is true of the errors of every
 * copy of this package in the program, its ES module and its CommonJS build (`internal/brand.ts`).
 */
export class SDKError extends Error {
  override name = 'SDKError';

  constructor(message: string, options?: SDKErrorOptions) {
    const cause = options?.cause;
    const r = options?.redactor ?? redactorOf(cause);
    r?.errorChain(cause);
    super(
      redacted(r, message),
      cause === undefined ? undefined : { cause: typeof cause === 'string' ? redacted(r, cause) : cause },
    );
    if (r) redactors.set(this, r);
  }

  /** The redactor of this error (its call's secrets), for subclasses that redact their own fields; undefined when none. */
  protected get redactor(): Redactor | undefined {
    return redactors.get(this);
  }

  /** The error as plain, redacted data: `name`, `message`, the fields of its class, and a summary of `cause`. */
  toJSON(): Record<string, unknown> {
    const cause = summarizeCause(this.redactor, this.cause);
    return { name: this.name, message: this.message, ...this.details(), ...(cause === undefined ? {} : { cause }) };
  }

  /**
   * The fields shown by `toJSON` and `util.inspect` besides name, message and cause: those of
   * `SHOWN_FIELDS` this error has, in that order, bounded (a string `body` at `MAX_MESSAGE_CHARS`,
   * each header value at 200 characters; an empty `body` left out). A subclass may add its own.
   */
  protected details(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const k of SHOWN_FIELDS) {
      let v = (this as unknown as Record<string, unknown>)[k];
      if (v === undefined || (k === 'body' && v === '')) continue;
      if (k === 'headers') {
        const headers: Record<string, string> = {};
        (v as Headers).forEach((value, name) => (headers[name] = truncate(value, 200)));
        v = headers;
      } else if (k === 'body' && typeof v === 'string') v = truncate(v);
      out[k] = v;
    }
    return out;
  }
}

// `util.inspect` (Node, Deno, Bun): the stack, then the redacted details of `toJSON`. Browser builds define
// nothing (`internal/inspect.browser.ts`).
defineInspect(SDKError.prototype);

/** Options of an `APIError`. */
export interface APIErrorInit extends SDKErrorOptions {
  /** HTTP status, or undefined when no response was received. */
  status?: number | undefined;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body?: unknown;
  headers?: Headers | undefined;
  /** HTTP method and path of the request (no query string, never the key). */
  request?: { method: string; path: string } | undefined;
}

/**
 * The response headers read for a request id, in order; the first present wins. The API
 * description shows no request-id header, so the common ones are tried: `x-request-id` (the usual
 * name), `request-id`, `x-amzn-requestid` and `x-amz-request-id` (AWS front ends), and `cf-ray`
 * (Cloudflare's id of the request, also useful to the service's support).
 */
export const REQUEST_ID_HEADERS: readonly string[] = Object.freeze([
  'x-request-id',
  'request-id',
  'x-amzn-requestid',
  'x-amz-request-id',
  'cf-ray',
]);

/**
 * The request id of a response (see `REQUEST_ID_HEADERS`), redacted with `redactor` (a server may
 * echo a secret there) and cut to 200 characters, or undefined when it sent none.
 */
export function requestIdOf(headers: Headers | undefined | null, redactor?: Redactor): string | undefined {
  if (!headers) return undefined;
  for (const name of REQUEST_ID_HEADERS) {
    const v = headers.get(name);
    if (v) return truncate(redacted(redactor, v), 200);
  }
  return undefined;
}

/** A copy of response headers redacted with `r` (a server or proxy may echo the `Authorization` header). */
export function redactHeaders(r: Redactor | undefined, headers: Headers): Headers {
  const copy = new Headers();
  headers.forEach((value, name) => copy.append(name, redacted(r, value)));
  return copy;
}

/**
 * An error answered by the service (or a failure to get an answer: see subclasses).
 * `message` is the server's own message string when it sent one (at most 1,000 characters): an
 * error body's `error.detail` (e.g. which parameter is wrong), else `error.message`, else
 * `error.title`. `type`, `title` and `detail` are the body's, when it gave them. The class follows
 * the status and the service's error `type`, never the message text.
 * `body` and `headers` are redacted copies; `body` holds at most 64 KiB of an error response.
 */
export class APIError extends SDKError {
  override name = 'APIError';
  // The fields of the error classes are `declare`d: each constructor assigns every one of them, in this
  // order, so no class field initialiser is needed (and none is emitted into every browser bundle).
  /** HTTP status code; undefined for connection errors and timeouts. */
  declare readonly status: number | undefined;
  /** The response body: parsed JSON, or the raw text (redacted; at most 64 KiB of an error body). */
  declare readonly body: unknown;
  /** The response headers (a redacted copy). */
  declare readonly headers: Headers | undefined;
  declare readonly request: { method: string; path: string } | undefined;
  /**
   * The service's id of the request, from the first response header of `REQUEST_ID_HEADERS`
   * (`x-request-id`, `request-id`, ...) present; undefined when no response came or it had none.
   * Quote it when reporting a problem.
   */
  declare readonly requestId: string | undefined;
  // `type`, `title` and `detail` are read from the body, redacted with the call's redactor and set by
  // the failure path (`internal/failure.ts`, loaded on demand), so that this constructor, in every
  // bundle, carries none of it.
  /**
   * The service's error type, when the body gave one: `error.type` (else `status_message`) of
   * `{error: {type, title, detail}, status: 'error', status_message}`. The docs list
   * `unauthenticated`, `invalid_params`, `resource_not_found` and `unknown_error`; others may come.
   */
  declare readonly type: string | undefined;
  /** The error's human-readable title (`error.title`, e.g. `Invalid parameters supplied, ...`), when given. */
  declare readonly title: string | undefined;
  /** What was wrong (`error.detail`, e.g. which parameter), when given; then it is also `message`. */
  declare readonly detail: string | undefined;

  constructor(message: string, init: APIErrorInit = {}) {
    super(message, { cause: init.cause, redactor: init.redactor });
    this.status = init.status;
    this.body = this.redactor ? this.redactor.value(init.body) : init.body;
    this.headers = init.headers && redactHeaders(this.redactor, init.headers);
    this.request = init.request;
    this.requestId = this.headers === undefined ? undefined : requestIdOf(this.headers);
  }
}

/**
 * No response: the connection failed or was reset, or the response body could not be read.
 * `status` is undefined. `notSent` is true only when the connection failed before any byte of the
 * request was sent (connection refused, DNS failure): such a request surely was not processed. In
 * a browser, `fetch` rejects without saying why (CORS, a dropped connection, an offline network):
 * then `notSent` is false and the message says only what is known.
 */
export class ConnectionError extends APIError {
  override name = 'ConnectionError';
  /** True when the request surely never reached the server (e.g. `ECONNREFUSED`); false when it may have. */
  declare readonly notSent: boolean;
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
/** One problem found by client-side validation, located by a JSON pointer into the request body. */
export interface ValidationIssue {
  /** JSON pointer (RFC 6901) of the offending value, e.g. `/aspect_ratio`; `` for the body itself. */
  pointer: string;
  message: string;
  /** The JSON-schema keyword that failed (`enum`, `required`, `additionalProperties`, ...). */
  keyword?: string;
}

// `instanceof` across the ES module and CommonJS copies of the package (Node, Deno, Bun; nothing in a browser build).
// `ValidationError` is in `validation-error.ts`, branded there, so that a bundle that never validates leaves it out.
brandErrors({
  SDKError,
  APIError,
  ConnectionError,
  TimeoutError,
  AbortError,
});
