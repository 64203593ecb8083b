/**
 * The fixed operations of the API description as data: one table derived from `specs/openapi.yaml`,
 * operationId -> HTTP method, path template, path parameters and query parameters. It is the one
 * source of method and path for the endpoint docs (`endpoint-docs.ts`) and, written as
 * `runtime/operations.ts` (`operations-module.ts`), for the runtime's endpoint
 * functions, the proxy's allowed routes and the local server's routes.
 */
import { SpecError, pointerToken } from '../errors.ts';
import type { OpenApiDoc } from './load.ts';

/** The methods the SDK's transport sends. */
export const OPERATION_METHODS = ['GET', 'POST', 'DELETE'] as const;
export type OperationMethod = (typeof OPERATION_METHODS)[number];

/** One operation of the description. */
export interface Operation {
  /** Its operationId: how the endpoint docs and the runtime name it. */
  id: string;
  method: OperationMethod;
  /** The path template, `{name}` for each path parameter. */
  path: string;
  /** The path parameters' names, in the order of the path. */
  pathParams: string[];
  /** The query parameters' names, in the order the description lists them. */
  query: string[];
}

/** The table: operationId -> operation, in match order (see `operationsOf`). */
export type OperationsTable = ReadonlyMap<string, Operation>;

/** An operationId, a path parameter or a query name: what the runtime can use as a key and a URL part. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Names an operationId may not take: `runtime/operations.ts` exports each operation under its
 * operationId, beside these names, and an export cannot be a reserved word.
 */
const TAKEN = new Set(
  [
    'OPERATIONS Operation OperationId',
    'break case catch class const continue debugger default delete do else enum export extends false finally for',
    'function if import in instanceof new null return super switch this throw true try typeof var void while with',
    'yield let static implements interface package private protected public await arguments eval',
  ]
    .join(' ')
    .split(' '),
);
const PATH_PARAM = /\{([^}]*)\}/g;
/** A path template: segments of letters, digits, `_`, `-`, `.`, or one `{name}` each. */
const PATH_TEMPLATE = /^(?:\/(?:[\w.-]+|\{[A-Za-z_][A-Za-z0-9_]*\}))+$/;
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The parameter object `p`, or the one of `components.parameters` its local `$ref` names. */
function resolveParameter(doc: OpenApiDoc, p: unknown, file: string, pointer: string): Record<string, unknown> {
  if (isObject(p) && typeof p['$ref'] === 'string') {
    const m = /^#\/components\/parameters\/([^/]+)$/.exec(p['$ref']);
    const target = m
      ? (doc as { components?: { parameters?: Record<string, unknown> } }).components?.parameters?.[m[1]!]
      : undefined;
    if (!isObject(target)) throw new SpecError(file, undefined, pointer, `unresolved parameter reference ${p['$ref']}`);
    return target;
  }
  if (!isObject(p)) throw new SpecError(file, undefined, pointer, 'a parameter must be an object');
  return p;
}

/** The names of the parameters `in` a location, from the path item's list then the operation's. */
function parameterNames(
  doc: OpenApiDoc,
  lists: Array<{ list: unknown; pointer: string }>,
  location: 'path' | 'query',
  file: string,
): string[] {
  const names: string[] = [];
  for (const { list, pointer } of lists) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new SpecError(file, undefined, pointer, 'parameters must be an array');
    list.forEach((raw, i) => {
      const p = resolveParameter(doc, raw, file, `${pointer}/${i}`);
      if (p['in'] !== location) return;
      const name = p['name'];
      if (typeof name !== 'string' || !NAME.test(name))
        throw new SpecError(file, undefined, `${pointer}/${i}/name`, `parameter name must match ${String(NAME)}`);
      if (!names.includes(name)) names.push(name);
    });
  }
  return names;
}

/**
 * Whether `a` must be tried before `b` when a request path is matched: their templates can match the
 * same path, and at the first segment where one has a literal and the other a parameter, `a` has
 * the literal (`/api/ai/models/search` before `/api/ai/models/{id}`, as OpenAPI matches concrete
 * paths first).
 */
function shadows(a: Operation, b: Operation): boolean {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  if (sa.length !== sb.length) return false;
  let first: boolean | undefined;
  for (let i = 0; i < sa.length; i++) {
    const pa = sa[i]!.startsWith('{');
    const pb = sb[i]!.startsWith('{');
    if (!pa && !pb && sa[i] !== sb[i]) return false;
    if (pa !== pb) first ??= !pa;
  }
  return first === true;
}

/** `ops` in the description's order, but each before every earlier one it shadows. */
function inMatchOrder(ops: Operation[]): Operation[] {
  const out: Operation[] = [];
  for (const op of ops) {
    const at = out.findIndex((o) => shadows(op, o));
    if (at < 0) out.push(op);
    else out.splice(at, 0, op);
  }
  return out;
}

/**
 * The operations of `doc`, in the description's order except that an operation comes before the
 * ones it shadows (`shadows`): a request path is matched against their templates in this order and
 * the first operation whose template and method fit is the one.
 * @param file how messages name the description (e.g. `specs/openapi.yaml`).
 * @throws SpecError (file, JSON pointer) for a path outside `PATH_TEMPLATE`, an operation without a
 * unique operationId of letters, digits and `_` (not a reserved word), a method other than GET, POST
 * and DELETE, or path parameters the template and the parameter list disagree on.
 */
export function operationsOf(doc: OpenApiDoc, file: string): OperationsTable {
  const ops: Operation[] = [];
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const at = `/paths/${pointerToken(path)}`;
    if (!isObject(item)) throw new SpecError(file, undefined, at, 'a path item must be an object');
    if (!PATH_TEMPLATE.test(path))
      throw new SpecError(
        file,
        undefined,
        at,
        `a path must be segments of letters, digits, _, - and . or one {name} each`,
      );
    const templated = [...path.matchAll(PATH_PARAM)].map((m) => m[1]!);
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const opAt = `${at}/${method}`;
      const upper = method.toUpperCase();
      if (!(OPERATION_METHODS as readonly string[]).includes(upper))
        throw new SpecError(
          file,
          undefined,
          opAt,
          `method ${upper} is not one the SDK sends (${OPERATION_METHODS.join(', ')})`,
        );
      if (!isObject(op)) throw new SpecError(file, undefined, opAt, 'an operation must be an object');
      const id = op['operationId'];
      if (typeof id !== 'string' || !NAME.test(id))
        throw new SpecError(file, undefined, `${opAt}/operationId`, `operationId must match ${String(NAME)}`);
      if (TAKEN.has(id))
        throw new SpecError(file, undefined, `${opAt}/operationId`, `operationId ${id} is a reserved name`);
      if (seen.has(id)) throw new SpecError(file, undefined, `${opAt}/operationId`, `operationId ${id} is used twice`);
      seen.add(id);
      const lists = [
        { list: item['parameters'], pointer: `${at}/parameters` },
        { list: op['parameters'], pointer: `${opAt}/parameters` },
      ];
      const pathParams = parameterNames(doc, lists, 'path', file);
      const missing = templated.filter((n) => !pathParams.includes(n));
      const extra = pathParams.filter((n) => !templated.includes(n));
      if (missing.length > 0 || extra.length > 0 || templated.some((n) => !NAME.test(n)))
        throw new SpecError(
          file,
          undefined,
          opAt,
          `the path parameters of ${path} and its parameter list differ (template: ${templated.join(', ') || 'none'}; listed: ${pathParams.join(', ') || 'none'})`,
        );
      ops.push({
        id,
        method: upper as OperationMethod,
        path,
        pathParams: templated,
        query: parameterNames(doc, lists, 'query', file),
      });
    }
  }
  return new Map(inMatchOrder(ops).map((o) => [o.id, o]));
}

/**
 * The operation `id` of the table.
 * @throws Error naming the id when the description has no such operation (an endpoint doc or a
 * runtime function that names one the description lost).
 */
export function operation(table: OperationsTable, id: string): Operation {
  const op = table.get(id);
  if (!op) throw new Error(`the API description has no operation ${JSON.stringify(id)}`);
  return op;
}
