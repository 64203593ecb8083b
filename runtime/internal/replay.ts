/**
 * The `Response` that `APIPromise.asResponse()` / `withResponse()` hand back for a JSON call: a copy with
 * the original's status, status text, headers (redacted of the call's secrets) and `url`, whose body is
 * the text the SDK read. Loaded with `import()` by the first `asResponse()` / `withResponse()`, so that a
 * page that only awaits its calls does not carry it. It imports nothing of the runtime (a bundler would
 * split what it shares with the caller into one more chunk): `redactHeaders` and `SDKError` of `errors.ts`
 * are handed in.
 * Internal: not exported by the package.
 */
import type { Redactor } from '../redact.ts';
import type { HttpResult } from '../request.ts';

/** A response the SDK can hand back: the original (a stream), or a copy whose body is the text it read and whose headers are redacted. */
export function replay(
  result: HttpResult,
  redactHeaders: (r: Redactor | undefined, headers: Headers) => Headers,
): Response {
  const { response, text } = result;
  if (text === undefined) return response;
  const { status, statusText } = response;
  const copy = new Response(text, { status, statusText, headers: redactHeaders(result.redactor, response.headers) });
  // `url` is read-only on Response.prototype: an own property keeps the original's.
  Object.defineProperty(copy, 'url', { value: response.url, enumerable: true });
  return copy;
}

/**
 * The error of `withResponse()` / `asResponse()` on an `APIPromise` made from a plain `Promise` (a custom
 * `Transport` whose `request()` returns one): `SDKError` (of `errors.ts`, handed in) saying so.
 */
export function noResponse(SDKError: new (message: string) => Error): Error {
  return new SDKError(
    "No Response: the Transport's request() returned a plain Promise (a wrapper keeps it by returning the inner transport's promise)",
  );
}
