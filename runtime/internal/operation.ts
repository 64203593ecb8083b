/**
 * The request of one operation of the API description: its method and path template from the
 * operations table (`runtime/operations.ts`, generated from `specs/openapi.yaml`), its path
 * parameters encoded (`encodePath`). The endpoint functions build every request here, so that the
 * description is the one place of methods and paths.
 */
import { OPERATIONS, type OperationId } from '../operations.ts';
import type { HttpRequest } from '../request.ts';
import { encodePath } from './http.ts';

/** The path parameters of operation `O`, by the description's names (`{ generation_id }`, `{ namespace, repo_name, id }`). */
export type PathParams<O extends OperationId> = {
  readonly [K in (typeof OPERATIONS)[O]['pathParams'][number]]: string;
};

/**
 * The `HttpRequest` of operation `op` with `params` in its path and the rest of the request as given.
 * @throws SDKError, before anything is sent, for a path parameter that is not a string, is empty,
 * `.` or `..`, or decodes to one (`encodePath`).
 */
export function operationRequest<O extends OperationId>(
  op: O,
  params: PathParams<O>,
  rest: Omit<HttpRequest, 'method' | 'path'> = {},
): HttpRequest {
  const { method, path } = OPERATIONS[op];
  const values = params as Readonly<Record<string, string>>;
  return { ...rest, method, path: path.replace(/\{(\w+)\}/g, (_, name: string) => encodePath(values[name]!, name)) };
}
