/**
 * The request contract between the endpoint functions and a `Transport`: one request as the endpoint
 * functions describe it, what one attempt gives back, and the retry settings of a call. Types only.
 */
import type { RetryContext } from './hooks.ts';
import type { Redactor } from './redact.ts';

/**
 * Checks a parsed success body: returns what is wrong with it (e.g. `expected an object with an
 * "images" array`), or undefined when it is usable.
 */
export type ResponseCheck = (body: unknown) => string | undefined;

/** One request as the endpoint functions describe it. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the base URL, starting with `/`; path parameters already encoded. */
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  body?: unknown;
  /** `text/event-stream` responses: return the Response unread instead of parsing JSON. */
  stream?: boolean | undefined;
  /**
   * Whether resending is harmless. Default: true for GET and DELETE, false for POST (every POST of
   * this API generates and bills). A non-idempotent request is retried only when the server surely
   * did not process it (429, or the connection was refused before any byte was sent).
   */
  idempotent?: boolean | undefined;
  /** Checks the parsed success body; a problem becomes `InvalidResponseError`. */
  expect?: ResponseCheck | undefined;
  /** Extra headers of this request (a call's `headers`), over the transport's; see `RequestOptions.headers`. */
  headers?: Record<string, string> | undefined;
}

/**
 * What one attempt gives back: the parsed body (`data`; the `Response` itself for a stream), the
 * `Response`, and the body's text when the SDK read it (then `response.body` is used up).
 */
export interface HttpResult {
  data: unknown;
  response: Response;
  /** The body as read (undefined for a stream, whose body is still unread). */
  text: string | undefined;
  /**
   * The call's secrets: `withResponse()` / `asResponse()` give the response's headers and request
   * id redacted of them (none when undefined).
   */
  redactor?: Redactor | undefined;
}

/** Retry settings, from the client's options and the call's `maxRetries`. */
export interface RetryPolicy {
  /** How many times a failed attempt may be retried (0 = one attempt only). */
  maxRetries: number;
  /** Base delay of the backoff, in milliseconds. */
  baseDelayMs: number;
  /** Upper bound of one backoff delay, in milliseconds (a longer `Retry-After` is still honoured). */
  maxDelayMs: number;
  /**
   * Asked before each retry this policy would make (never about one it would not): false vetoes it
   * and the call fails with the attempt's error; a throw ends the call with that error.
   */
  beforeRetry?: ((context: RetryContext) => boolean | Promise<boolean>) | undefined;
}
