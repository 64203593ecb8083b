/**
 * The failure path of one attempt: the messages of the errors an attempt ends with when it gets no
 * usable answer (an error status, a redirect, an unusable or too large success body, a `fetch` that
 * rejected), the server's message read out of an error body, the classification of a network failure,
 * and the `OutcomeUnknownError` of a generating POST. `http.ts` and `retry-policy.ts` load this module (with
 * the error classes of `error-classes.ts`) with a dynamic `import()` only when an attempt failed, so
 * that a bundle of a call that succeeds carries none of it; should it fail to load (a page that lost
 * its network), the call rejects with an `APIError` (or `ConnectionError`) of the SDK's own message,
 * its status and request id, the load failure as `cause` (see `unexplained` in `http.ts`). The chat
 * stream (itself loaded on demand) reads its error chunks with it too.
 * Internal: not exported by the package.
 */
import {
  APIError,
  ConnectionError,
  MAX_ERROR_BODY_BYTES,
  redacted as red,
  TimeoutError,
  truncate,
  type APIErrorInit,
} from '../errors.ts';
import {
  AuthenticationError,
  BadRequestError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  OutcomeUnknownError,
  RedirectError,
  ResponseTooLargeError,
  type OutcomeUnknownReason,
} from '../error-classes.ts';
import type { Redactor } from '../redact.ts';
import type { ResponseCheck } from '../request.ts';
import { readText } from './read-limited.ts';

/** A request as errors show it: method and path (no query string, never the key). */
type Shown = { method: string; path: string };

/** What an error body says (`infoFromBody`): the message, and the body's `type`, `title`, `detail` when given. */
export interface ErrorBodyInfo {
  message: string;
  type?: string | undefined;
  title?: string | undefined;
  detail?: string | undefined;
}

/**
 * What an error body says, in the two shapes the service's docs show (`inference-api/overview.mdx`,
 * "Error Format"): `{error: {type, title, detail}, status: 'error', status_message}` and
 * `{error: {message}}`. The message is `detail` (what was wrong, e.g. which parameter), else
 * `error.message`, else `title`; bodies of other shapes (the API description shows no other) are
 * read tolerantly: a string `error`, then the common top-level fields, then the text of a body that
 * is not JSON, else `fallback`. `type` is `error.type`, else `status_message` (the same code). Each
 * string is redacted with `redactor` before it is cut to `MAX_MESSAGE_CHARS`, so no part of a secret stays.
 */
export function infoFromBody(body: unknown, fallback: string, redactor: Redactor | undefined): ErrorBodyInfo {
  const cut = (s: string | undefined) => (s === undefined ? undefined : truncate(red(redactor, s)));
  const b: Record<string, unknown> = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const e: Record<string, unknown> =
    b['error'] && typeof b['error'] === 'object' ? (b['error'] as Record<string, unknown>) : {};
  const type = text(e['type']) ?? text(b['status_message']);
  const title = text(e['title']);
  const detail = text(e['detail']);
  const message =
    detail ??
    text(e['message']) ??
    title ??
    text(b['error']) ??
    text(b['message']) ??
    text(b['detail']) ??
    text(b['title']) ??
    text(b['status_message']) ??
    (typeof body === 'string' && body.trim() !== '' ? body : fallback);
  return { message: cut(message)!, type: cut(type), title: cut(title), detail: cut(detail) };
}

/** `v` when it is a non-empty string. */
function text(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The `APIError` subclass that an error status means: 400, 401, 402 (`InsufficientCreditsError`),
 * 403, 404, 422, 429, any 5xx (`InternalServerError`), else `APIError`. The error of an answer also
 * reads the service's error `type` (`classOfAnswer`): a type naming credits
 * makes `InsufficientCreditsError` at any status; a documented type gives the class of a status that
 * has none of its own.
 */
export function errorClassOf(status: number): typeof APIError {
  return (
    (
      {
        400: BadRequestError,
        401: AuthenticationError,
        402: InsufficientCreditsError,
        403: PermissionDeniedError,
        404: NotFoundError,
        422: UnprocessableEntityError,
        429: RateLimitError,
      } as Partial<Record<number, typeof APIError>>
    )[status] ?? (status >= 500 ? InternalServerError : APIError)
  );
}

/**
 * The status an error `type` of the service's means (the docs' types: `unauthenticated`,
 * `invalid_params`, `resource_not_found`; `unknown_error` says nothing more than its status).
 */
const TYPE_STATUS: Partial<Record<string, number>> = {
  unauthenticated: 401,
  invalid_params: 400,
  resource_not_found: 404,
};

/**
 * The class of an error answer, from the status and the service's error `type`, never from the
 * message text: `InsufficientCreditsError` for 402 or a type naming credits (`insufficient_credits`,
 * ...): the API description says only that "a credit-related error is returned" and shows neither its
 * status nor its type, so both common signals are taken. Else the class of the status; a status
 * without a class of its own (a 4xx other than 400, 401, 403, 404, 422, 429; a 200 error chunk of the
 * chat stream) takes the class of a documented `type`.
 */
export function classOfAnswer(status: number, type: string | undefined): typeof APIError {
  if (status === 402 || (type !== undefined && /credit/i.test(type))) return errorClassOf(402);
  const byStatus = errorClassOf(status);
  // `errorClassOf(0)` is `APIError`, the class of a status that means nothing more.
  const typeStatus = type === undefined ? undefined : TYPE_STATUS[type];
  return byStatus === APIError && typeStatus !== undefined ? errorClassOf(typeStatus) : byStatus;
}

/**
 * `err` with the `type`, `title` and `detail` of `info` that are present set on it (`APIError`
 * declares them; they are set here, on the failure path, not by its constructor, which is in every
 * bundle). `info`'s strings are already redacted and cut (`infoFromBody`).
 */
export function withBodyInfo<E extends APIError>(err: E, info: Omit<ErrorBodyInfo, 'message'>): E {
  for (const k of ['type', 'title', 'detail'] as const)
    if (info[k] !== undefined) Object.defineProperty(err, k, { value: info[k], enumerable: true });
  return err;
}

/**
 * The error of an error status: the class `classOfAnswer` gives, with the server's message and its
 * `type`, `title` and `detail` (`infoFromBody`, `withBodyInfo`), redacted with `redactor` (the transport's secrets).
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: Headers,
  request: Shown,
  redactor: Redactor | undefined,
): APIError {
  const { message, ...fields } = infoFromBody(body, `HTTP ${status}`, redactor);
  const ErrorClass = classOfAnswer(status, fields.type);
  return withBodyInfo(new ErrorClass(message, { status, body, headers, request, redactor }), fields);
}

/**
 * The error of an answer that is not a success: an error status from its body as read (`text`,
 * see `errorText`; parsed as JSON when it is, else kept as text), or a redirect.
 */
export function answerError(res: Response, request: Shown, text: string, redactor: Redactor | undefined): APIError {
  if (res.status < 400) return redirectError(res, request, redactor);
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : text;
  } catch {
    /* not JSON (or cut): keep the text */
  }
  return errorFromResponse(res.status, body, res.headers, request, redactor);
}

/**
 * The error of `JSON.parse(text)` (`err`) as it reads for the redacted text: runtimes quote a cut
 * piece of the text in the message (`Unexpected token … "not json: B"...`), which may hold the
 * start of a secret that whole-secret redaction would miss. Use it as the `cause` of an error.
 */
export function redactedJsonError(err: unknown, text: string, redactor: Redactor | undefined): unknown {
  if (!redactor?.contains(text)) return err;
  try {
    JSON.parse(redactor.text(text));
  } catch (e) {
    return e;
  }
  return new SyntaxError('The text is not valid JSON');
}

/**
 * A success status whose body (`text`) cannot be used: empty, not JSON, `null`, or not the
 * documented shape (`expect`, the request's check, says how).
 */
export function invalidResponse(
  res: Response,
  request: Shown,
  text: string,
  redactor: Redactor | undefined,
  expect: ResponseCheck | undefined,
): InvalidResponseError {
  const what = `${request.method} ${request.path}`;
  const init: APIErrorInit = { status: res.status, headers: res.headers, request, redactor, body: text };
  if (text.trim() === '')
    return new InvalidResponseError(
      `The response to ${what} has an empty body (status ${res.status}); a JSON body was expected`,
      init,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return new InvalidResponseError(`Invalid JSON in the response to ${what}`, {
      ...init,
      body: truncate(red(redactor, text), MAX_ERROR_BODY_BYTES),
      cause: redactedJsonError(err, text, redactor),
    });
  }
  const problem = parsed === null ? 'the body is null' : expect?.(parsed);
  return new InvalidResponseError(`Unexpected response to ${what}: ${problem}`, { ...init, body: parsed });
}

/** A redirect answer (3xx, or the opaque redirect of a browser): never followed. */
export function redirectError(res: Response, request: Shown, redactor: Redactor | undefined): RedirectError {
  const location = res.headers.get('location') ?? undefined;
  const where =
    location === undefined ? 'another location (the runtime hides which)' : truncate(red(redactor, location), 500);
  return new RedirectError(
    `${request.method} ${request.path} was answered with a redirect${res.status ? ` (${res.status})` : ''} to ${where}. The SDK does not follow redirects; set baseUrl to the final address.`,
    { status: res.status || undefined, headers: res.headers, request, location, redactor },
  );
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

/**
 * The `ConnectionError` of a `fetch` (`phase: 'request'`) or body read (`'body'`) that failed for
 * another reason than the call's timeout or signal. In a browser a rejected `fetch` says nothing
 * about why (CORS, network, offline): the message says only what is known, and `notSent` stays
 * false, so a generating POST is never resent. `init` holds the request, the cause and the redactor;
 * `browser`: whether this runs in a browser (`isBrowser` of `env.ts`, passed in: this module imports
 * nothing a page loads first but the error classes and `read-limited.ts`).
 */
export function connectionError(
  err: unknown,
  phase: 'request' | 'body',
  init: APIErrorInit & { request: Shown },
  browser: boolean,
): ConnectionError {
  const what = `${init.request.method} ${init.request.path}`;
  const message = err instanceof Error ? err.message : String(err);
  const cut = `The response to ${what} was cut while it was read`;
  if (codeOf(err) === undefined && err instanceof TypeError && browser) {
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

/**
 * The error of a success body larger than `limit` (`maxResponseBytes`): the SDK stopped reading it.
 */
export function tooLarge(
  res: Response,
  request: Shown,
  limit: number,
  redactor: Redactor | undefined,
): ResponseTooLargeError {
  return new ResponseTooLargeError(
    `The response to ${request.method} ${request.path} is larger than maxResponseBytes (${limit} bytes); the SDK stopped reading it`,
    { status: res.status, headers: res.headers, request, limitBytes: limit, redactor },
  );
}

/**
 * The body of an error answer as text, at most `MAX_ERROR_BODY_BYTES`: cut at the limit, a secret across
 * the cut is redacted with the part before it (`Redactor.cutText`).
 */
async function errorText(res: Response, redactor: Redactor | undefined): Promise<string> {
  const read = (await readText(res, MAX_ERROR_BODY_BYTES, true))!; // (cut: never too large)
  return read.truncated && redactor ? redactor.cutText(read.text) : read.text;
}

/** What `failedAnswer` needs of the attempt (`Http.send` of `http.ts`). */
export interface FailedAnswer {
  /** The success body as read, or undefined when it was larger than `limit` (`maxResponseBytes`); undefined for another status. */
  read: { text: string } | undefined;
  limit: number;
  /** The request's check of a success body. */
  expect: ResponseCheck | undefined;
  /** The call's signal; when it ended the read of an error body, the error is `bodyError`'s. */
  signal: AbortSignal;
  bodyError(err: unknown): Promise<Error>;
  /** Called with the error body read (undefined for a redirect), for the attempt's log line. */
  logged(text: string | undefined): void;
}

/**
 * The error of an answer `Http.send` cannot use: a success status whose body is unusable (`invalidResponse`)
 * or too large (`tooLarge`), an error status (its body read here, at most `MAX_ERROR_BODY_BYTES`; a read that
 * fails keeps the status with an empty body), or a redirect (`answerError`).
 * @throws `answer.bodyError`'s error when the call's signal ended the read of an error body.
 */
export async function failedAnswer(
  res: Response,
  request: Shown,
  redactor: Redactor | undefined,
  answer: FailedAnswer,
): Promise<APIError> {
  if (res.ok)
    return answer.read
      ? invalidResponse(res, request, answer.read.text, redactor, answer.expect)
      : tooLarge(res, request, answer.limit, redactor);
  let text: string | undefined;
  if (res.status >= 400) {
    try {
      text = await errorText(res, redactor);
    } catch (err) {
      // The status is known even when the body is cut: keep the status, but a timeout/abort wins.
      if (answer.signal.aborted) throw await answer.bodyError(err);
      text = '';
    }
  } else void res.body?.cancel().catch(() => undefined);
  answer.logged(text);
  return answerError(res, request, text ?? '', redactor);
}

/**
 * The error a failed generating POST (`request`, not idempotent) ends with: `OutcomeUnknownError` over
 * `error` when the server may have processed it (a 5xx, a reset after it may have been sent, a timeout
 * while `inFlight`, an unusable success answer), else `error` itself.
 */
export function outcomeOf(request: Shown, error: APIError, inFlight: boolean): APIError {
  if (error instanceof OutcomeUnknownError) return error;
  const status = error.status ?? 0;
  const reason: OutcomeUnknownReason | false =
    error instanceof TimeoutError
      ? inFlight && 'timeout'
      : error instanceof ConnectionError
        ? !error.notSent && 'connection'
        : status >= 500
          ? 'server_error'
          : status >= 200 && status < 300 && 'invalid_response';
  return reason ? OutcomeUnknownError.from(request, error, reason) : error;
}
