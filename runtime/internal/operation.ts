/**
 * The request of an operation with path parameters (and `guarded`, which turns an error thrown while
 * building it into a rejected `APIPromise`): its method and path template from the
 * operations table (`runtime/operations.ts`, generated from `specs/openapi.yaml`), each parameter
 * encoded (`encodePath`). An operation without path parameters is its own request's method and path
 * (`{ ...ops.imagesGenerate, body }`). The endpoint functions pass the operation itself, so that a
 * bundle keeps only the operations its calls perform. Not a module of a first call's chunk (`CORE_MODULES` in
 * `scripts/build/package.mjs`): only the endpoints with path parameters (queue, models, fine-tunes) use it.
 */
import type { Operation } from '../operations.ts';
import type { HttpRequest } from '../request.ts';
import { APIPromise } from '../api-promise.ts';
import { SDKError } from '../errors.ts';

/** The names of the `{name}` parameters of a path template. */
type ParamsOf<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamsOf<Rest> : never;

/** The path parameters of operation `O`, by the description's names (`{ generation_id }`, `{ namespace, repo_name, id }`). */
export type PathParams<O extends Operation> = { readonly [K in ParamsOf<O['path']>]: string };

/**
 * The request of operation `op` with `params` in its path and the rest of the request as given.
 * @throws SDKError, before anything is sent, for a path parameter that is not a string, is empty,
 * `.` or `..`, or decodes to one (`encodePath`).
 */
export function operationRequest<O extends Operation>(
  op: O,
  params: PathParams<O>,
  rest: Omit<HttpRequest, 'method' | 'path'> = {},
): HttpRequest {
  const values = params as Readonly<Record<string, string>>;
  return {
    ...rest,
    method: op.method,
    path: op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodePath(values[name]!, name)),
  };
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
 * The call `make` returns, or an `APIPromise` rejected with what it threw while building the request
 * (a bad path parameter): a rejection, as callers of the endpoint functions have always seen.
 */
export function guarded<T>(make: () => APIPromise<T>): APIPromise<T> {
  try {
    return make();
  } catch (err) {
    return APIPromise.rejected(err);
  }
}
