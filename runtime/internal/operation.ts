/**
 * The request of an operation with path parameters: its method and path template from the
 * operations table (`runtime/operations.ts`, generated from `specs/openapi.yaml`), each parameter
 * encoded (`encodePath`). An operation without path parameters is its own request's method and path
 * (`{ ...ops.imagesGenerate, body }`). The endpoint functions pass the operation itself, so that a
 * bundle keeps only the operations its calls perform.
 */
import type { Operation } from '../operations.ts';
import type { HttpRequest } from '../request.ts';
import { encodePath } from './http.ts';

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
