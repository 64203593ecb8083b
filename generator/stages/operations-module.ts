/**
 * Part of stage 6 (emit): `runtime/operations.ts`, the operations table of the API description
 * (`operations.ts`) as a data-only module of the runtime, printed by `printer.ts` (formatted with
 * prettier like the other modules). The runtime's endpoint functions, the proxy's routes and the
 * local server's routes read method, path and parameters from it.
 *
 * It lives in `runtime/`, not `generated/`: the runtime imports it, and the runtime may import
 * nothing of `generated/` (which imports the runtime: specs -> generator -> generated -> runtime). It
 * holds data and types only, so the runtime stays the one place of behaviour. `npm run generate`
 * produces it with `generated/` (`GenerateOptions.runtime`): tracked by the manifest, written in the
 * same all-or-nothing commit.
 */
import type { ts as TS } from 'ts-morph';
import { printModuleAs, type LaidOut } from './layout/index.ts';
import { loadTsMorph } from './emit.ts';
import { OPERATION_METHODS, type Operation, type OperationsTable } from './operations.ts';
import {
  constStatement,
  exported,
  jsonExpression,
  keyNode,
  literalUnion,
  ref,
  typeNode,
  withDoc,
  type Ts,
  type TypeSpec,
} from './printer.ts';

/** `readonly name: type;` with its doc comment (when given). */
function readonlyMember(ts: Ts, name: string, type: TS.TypeNode, doc?: string): TS.PropertySignature {
  const f = ts.factory;
  return withDoc(
    ts,
    f.createPropertySignature([f.createModifier(ts.SyntaxKind.ReadonlyKeyword)], name, undefined, type),
    doc,
  );
}

/** `readonly string[]` */
function readonlyStrings(ts: Ts): TS.TypeNode {
  return ts.factory.createTypeOperatorNode(ts.SyntaxKind.ReadonlyKeyword, typeNode(ts, { array: 'string' }));
}

/** `export interface name [extends base] { members }` with its doc comment. */
function interfaceOf(
  ts: Ts,
  name: string,
  doc: string,
  members: TS.PropertySignature[],
  base?: string,
): TS.InterfaceDeclaration {
  const f = ts.factory;
  const heritage =
    base === undefined
      ? undefined
      : [
          f.createHeritageClause(ts.SyntaxKind.ExtendsKeyword, [
            f.createExpressionWithTypeArguments(f.createIdentifier(base), undefined),
          ]),
        ];
  return withDoc(ts, f.createInterfaceDeclaration(exported(ts), name, undefined, heritage, members), doc);
}

/** `value as const satisfies type` */
function constSatisfies(ts: Ts, value: TS.Expression, type: TypeSpec): TS.Expression {
  const f = ts.factory;
  return f.createSatisfiesExpression(
    f.createAsExpression(value, f.createTypeReferenceNode('const')),
    typeNode(ts, type),
  );
}

/** An operation's fields as data, in the module's order (`method`, `path`, then with `params` its parameters). */
function operationData(o: Operation, params: boolean): Record<string, unknown> {
  return params
    ? { method: o.method, path: o.path, pathParams: o.pathParams, query: o.query }
    : { method: o.method, path: o.path };
}

/**
 * The module's text after its generated-file header, as the printer gives it (prettier formats it).
 *
 * Each operation's method and path are an export of their own, named by its operationId, so that a
 * bundle keeps only the operations its calls perform (a per-model image call carries one, not the
 * table); `OPERATIONS` repeats them with their parameters, for the code that needs every operation
 * (the proxy's routes, the local server's). It repeats rather than spreads them: a bundler keeps an
 * unused object whose literal spreads another (a spread may run a getter).
 */
export async function operationsModule(table: OperationsTable, layOut = false): Promise<string | LaidOut> {
  const { ts } = await loadTsMorph();
  const f = ts.factory;
  const ops = [...table.values()];
  const operation = interfaceOf(
    ts,
    'Operation',
    'One fixed operation of the API: its method and path template (`{name}` for each path parameter).',
    [
      readonlyMember(ts, 'method', literalUnion(ts, OPERATION_METHODS)),
      readonlyMember(ts, 'path', typeNode(ts, 'string')),
    ],
  );
  const withParams = interfaceOf(
    ts,
    'OperationWithParams',
    'An operation with its parameters, as `OPERATIONS` lists it.',
    [
      readonlyMember(ts, 'pathParams', readonlyStrings(ts), 'The path parameters, in the order of the path.'),
      readonlyMember(ts, 'query', readonlyStrings(ts), 'The query parameters the operation takes.'),
    ],
    'Operation',
  );
  // operationIds are checked names (`operations.ts`: identifiers, no reserved word): the generator's own
  const consts = ops.map((o) =>
    withDoc(
      ts,
      constStatement(ts, o.id, undefined, constSatisfies(ts, jsonExpression(ts, operationData(o, false)), 'Operation')),
      `\`${o.method} ${o.path}\`.`,
    ),
  );
  const table_ = withDoc(
    ts,
    constStatement(
      ts,
      'OPERATIONS',
      undefined,
      constSatisfies(
        ts,
        f.createObjectLiteralExpression(
          ops.map((o) => f.createPropertyAssignment(keyNode(ts, o.id), jsonExpression(ts, operationData(o, true)))),
          true,
        ),
        ref('Readonly', ref('Record', 'string', 'OperationWithParams')),
      ),
    ),
    "The API's fixed operations, by operationId, as `specs/openapi.yaml` describes them, in its order\nexcept that an operation comes before those whose template it shadows (a literal segment where\nthe other has a parameter: `/api/ai/models/search` before `/api/ai/models/{id}`). A request path\nis matched against the templates in this order; the first whose template and method fit is its\noperation.",
  );
  const ids = withDoc(
    ts,
    f.createTypeAliasDeclaration(
      exported(ts),
      'OperationId',
      undefined,
      f.createTypeOperatorNode(ts.SyntaxKind.KeyOfKeyword, f.createTypeQueryNode(f.createIdentifier('OPERATIONS'))),
    ),
    'The operationIds of the API description.',
  );
  return printModuleAs(ts, [operation, withParams, ...consts, table_, ids], layOut, true);
}
