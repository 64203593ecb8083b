/**
 * The failure path of one attempt: the messages of the errors an attempt ends with when it gets no
 * usable answer (an error status, a redirect, an unusable success body, a `fetch` that rejected),
 * the server's message read out of an error body, and the classification of a network failure.
 * `http.ts` loads this module with a dynamic `import()` only when an attempt failed, so that a
 * bundle of a call that succeeds carries none of it; should it fail to load (a page that lost its
 * network), `http.ts` throws an error of the class the answer's status means (an error `type`
 * about credits, which it does not read, is then not an `InsufficientCreditsError`) with a short
 * message of its own. The chat stream (itself loaded on demand) reads its error chunks with it too.
 *
 * It imports nothing of the runtime (a bundler would split what it shares with the caller into one
 * more chunk, loaded by every page): the error classes and helpers come in a `FailureKit`.
 * Internal: not exported by the package.
 */
import type { APIError, APIErrorInit, ConnectionError, InvalidResponseError, RedirectError } from '../errors.ts';
import type { Redactor } from '../redact.ts';
import type { ResponseCheck } from '../request.ts';

/** What this module needs of the runtime, handed in by `http.ts` (see the module comment). */
export interface FailureKit {
  /** `truncate` of `errors.ts`: a text cut to at most `max` characters (default `MAX_MESSAGE_CHARS`), saying so. */
  truncate(text: string, max?: number): string;
  /** The `APIError` subclass of an error status (`errorClassOf` of `errors.ts`). */
  classOf(status: number): typeof APIError;
  ConnectionError: typeof ConnectionError;
  InvalidResponseError: typeof InvalidResponseError;
  RedirectError: typeof RedirectError;
  /** `MAX_ERROR_BODY_BYTES` of `errors.ts`: how much of an error body is read and kept. */
  maxErrorBodyBytes: number;
  /** `isBrowser` of `env.ts`. */
  isBrowser(): boolean;
  /** `readText` of `http.ts`: a body read as text, at most `limit` bytes (cut beyond it with `truncateInstead`). */
  readText(
    res: Response,
    limit: number,
    request: Shown,
    truncateInstead: boolean,
    redactor: Redactor | undefined,
  ): Promise<{ text: string; truncated: boolean }>;
}

/** A request as errors show it: method and path (no query string, never the key). */
type Shown = { method: string; path: string };

/** What an error body says (`infoFromBody`): the message, and the body's `type`, `title`, `detail` when given. */
export interface ErrorBodyInfo {
  message: string;
  type?: string | undefined;
  title?: string | undefined;
  detail?: string | undefined;
}

/** `text` redacted with `r` (`redacted` of `errors.ts`; as it is when the call has no secret). */
const red = (r: Redactor | undefined, text: string): string => (r ? r.text(text) : text);

/**
 * What an error body says, in the two shapes the service's docs show (`inference-api/overview.mdx`,
 * "Error Format"): `{error: {type, title, detail}, status: 'error', status_message}` and
 * `{error: {message}}`. The message is `detail` (what was wrong, e.g. which parameter), else
 * `error.message`, else `title`; bodies of other shapes (the API description shows no other) are
 * read tolerantly: a string `error`, then the common top-level fields, then the text of a body that
 * is not JSON, else `fallback`. `type` is `error.type`, else `status_message` (the same code). Each
 * string is redacted with `redactor` before it is cut to `MAX_MESSAGE_CHARS`, so no part of a secret stays.
 */
export function infoFromBody(
  kit: Pick<FailureKit, 'truncate'>,
  body: unknown,
  fallback: string,
  redactor: Redactor | undefined,
): ErrorBodyInfo {
  const cut = (s: string | undefined) => (s === undefined ? undefined : kit.truncate(red(redactor, s)));
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
export function classOfAnswer(
  kit: Pick<FailureKit, 'classOf'>,
  status: number,
  type: string | undefined,
): typeof APIError {
  if (status === 402 || (type !== undefined && /credit/i.test(type))) return kit.classOf(402);
  const byStatus = kit.classOf(status);
  // `classOf(0)` is `APIError`, the class of a status that means nothing more.
  const typeStatus = type === undefined ? undefined : TYPE_STATUS[type];
  return byStatus === kit.classOf(0) && typeStatus !== undefined ? kit.classOf(typeStatus) : byStatus;
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
  kit: FailureKit,
  status: number,
  body: unknown,
  headers: Headers,
  request: Shown,
  redactor: Redactor | undefined,
): APIError {
  const { message, ...fields } = infoFromBody(kit, body, `HTTP ${status}`, redactor);
  const ErrorClass = classOfAnswer(kit, status, fields.type);
  return withBodyInfo(new ErrorClass(message, { status, body, headers, request, redactor }), fields);
}

/**
 * The body of an error answer as text, at most `maxErrorBodyBytes`: cut at the limit, a secret across the cut
 * is redacted with the part before it (`Redactor.cutText`).
 */
export async function errorText(
  kit: FailureKit,
  res: Response,
  request: Shown,
  redactor: Redactor | undefined,
): Promise<string> {
  const read = await kit.readText(res, kit.maxErrorBodyBytes, request, true, redactor);
  return read.truncated && redactor ? redactor.cutText(read.text) : read.text;
}

/**
 * The error of an answer that is not a success: an error status from its body as read (`text`,
 * see `errorText`; parsed as JSON when it is, else kept as text), or a redirect.
 */
export function answerError(
  kit: FailureKit,
  res: Response,
  request: Shown,
  text: string,
  redactor: Redactor | undefined,
): APIError {
  if (res.status < 400) return redirectError(kit, res, request, redactor);
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : text;
  } catch {
    /* not JSON (or cut): keep the text */
  }
  return errorFromResponse(kit, res.status, body, res.headers, request, redactor);
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
  kit: FailureKit,
  res: Response,
  request: Shown,
  text: string,
  redactor: Redactor | undefined,
  expect: ResponseCheck | undefined,
): InvalidResponseError {
  const what = `${request.method} ${request.path}`;
  const init: APIErrorInit = { status: res.status, headers: res.headers, request, redactor, body: text };
  if (text.trim() === '')
    return new kit.InvalidResponseError(
      `The response to ${what} has an empty body (status ${res.status}); a JSON body was expected`,
      init,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return new kit.InvalidResponseError(`Invalid JSON in the response to ${what}`, {
      ...init,
      body: kit.truncate(red(redactor, text), kit.maxErrorBodyBytes),
      cause: redactedJsonError(err, text, redactor),
    });
  }
  const problem = parsed === null ? 'the body is null' : expect?.(parsed);
  return new kit.InvalidResponseError(`Unexpected response to ${what}: ${problem}`, { ...init, body: parsed });
}

/** A redirect answer (3xx, or the opaque redirect of a browser): never followed. */
export function redirectError(
  kit: FailureKit,
  res: Response,
  request: Shown,
  redactor: Redactor | undefined,
): RedirectError {
  const location = res.headers.get('location') ?? undefined;
  const where =
    location === undefined ? 'another location (the runtime hides which)' : kit.truncate(red(redactor, location), 500);
  return new kit.RedirectError(
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
 * false, so a generating POST is never resent. `init` holds the request, the cause and the redactor.
 */
export function connectionError(
  kit: FailureKit,
  err: unknown,
  phase: 'request' | 'body',
  init: APIErrorInit & { request: Shown },
): ConnectionError {
  const what = `${init.request.method} ${init.request.path}`;
  const message = err instanceof Error ? err.message : String(err);
  const cut = `The response to ${what} was cut while it was read`;
  if (codeOf(err) === undefined && err instanceof TypeError && kit.isBrowser()) {
    return new kit.ConnectionError(
      phase === 'request'
        ? `${what} failed without a response (${message}): it may have been blocked by CORS or by the network; if it was sent, it may have been processed`
        : `${cut} (${message})`,
      { ...init, notSent: false },
    );
  }
  const detail = err instanceof Error && err.cause instanceof Error ? err.cause.message : message;
  return new kit.ConnectionError(`${phase === 'request' ? `Connection error on ${what}` : cut}: ${detail}`, {
    ...init,
    notSent: phase === 'request' && surelyNotSent(err),
  });
}
