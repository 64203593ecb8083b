/**
 * Part of stage 6 (emit): `generated/models/<id>.ts` as TypeScript syntax nodes, printed by the
 * generator's one printer (`printer.ts`): the imports, the parameter type (`types.ts`), the schema
 * as data, the model id, the functions' named parameter types and the endpoint functions
 * (`emit-model.ts`, which gives their types as data: `TypeSpec`).
 *
 * Every piece of model data is a leaf written by `generator/escape.ts` (`printer.ts`'s
 * `stringNode`, `keyNode`, `withDoc`), so no text is searched or replaced after printing.
 */
import type { ts as TS } from 'ts-morph';
import type { OperationsTable } from './operations.ts';
import { endpointFunctions, functionDoc, type EmitModel, type EndpointFn } from './emit-model.ts';
import type { TypeSpec } from './printer.ts';
import { packageTarget, type Target } from '../output/target.ts';
import { fileStem } from './name.ts';
import { queueJsonSchemas } from './json-schema-drafts.ts';
import { printModuleAs, type LaidOut } from './layout/index.ts';
import {
  constStatement,
  exported,
  importDeclaration,
  jsonExpression,
  ref,
  stringNode,
  typeNode,
  typeParameters,
  withDoc,
  type Ts,
} from './printer.ts';

/** One endpoint function: `export function <name>(client, params, options?) { return <call>; }`. */
function endpointFunction(
  ts: Ts,
  m: EmitModel,
  fn: EndpointFn,
  target: Target,
  operations: OperationsTable,
): TS.FunctionDeclaration {
  const f = ts.factory;
  const body = f.createObjectLiteralExpression([
    f.createSpreadAssignment(f.createIdentifier('params')),
    f.createPropertyAssignment('model', stringNode(ts, m.id)),
  ]);
  const args: TS.Expression[] = [f.createIdentifier('client'), body, f.createIdentifier('options')];
  if (fn.validates) args.push(f.createIdentifier('validate'));
  const call = f.createCallExpression(f.createIdentifier(fn.calls.name), undefined, args);
  const returned = fn.typeParams.length > 0 ? f.createAsExpression(call, typeNode(ts, fn.returns)) : call;
  const param = (name: string, type: TypeSpec, optional = false) =>
    f.createParameterDeclaration(
      undefined,
      undefined,
      name,
      optional ? f.createToken(ts.SyntaxKind.QuestionToken) : undefined,
      typeNode(ts, type),
    );
  const decl = f.createFunctionDeclaration(
    exported(ts),
    undefined,
    `${m.names.camel}${fn.suffix}`,
    typeParameters(ts, fn.typeParams),
    [param('client', 'Transport'), param('params', fn.params), param('options', fn.options, true)],
    typeNode(ts, fn.returns),
    f.createBlock([f.createReturnStatement(returned)], true),
  );
  return withDoc(ts, decl, functionDoc(m, fn, target, operations));
}

/**
 * `export const <camel>QueueSchema: StandardQueueSchema<<Pascal>QueueParams> = /* @__PURE__ *\/
 * standardSchemaFor(validate, <draft-07 schema>, '<id>'[, <draft 2020-12 schema>]);`: pure, so that a
 * bundle of a call that does not use it keeps neither it nor the schema data.
 */
function standardSchemaStatement(ts: Ts, m: EmitModel, target: Target): TS.VariableStatement {
  const f = ts.factory;
  const schemas = queueJsonSchemas(m.schema!, m.output === 'video');
  const call = f.createCallExpression(f.createIdentifier('standardSchemaFor'), undefined, [
    f.createIdentifier('validate'),
    jsonExpression(ts, schemas.draft07),
    stringNode(ts, m.id),
    ...(schemas.draft2020 ? [jsonExpression(ts, schemas.draft2020)] : []),
  ]);
  ts.addSyntheticLeadingComment(call, ts.SyntaxKind.MultiLineCommentTrivia, ' @__PURE__ ', false);
  const camel = m.names.camel;
  const field = m.schemaField ?? 'request_schema';
  const doc = [
    `The queue request body of \`${m.id}\` as a Standard Schema (\`StandardSchemaV1\` and \`StandardJSONSchemaV1\`, vendor \`oxen-inference-sdk\`; https://standardschema.dev), for libraries that take one: an LLM tool's input (the Vercel AI SDK's \`tool({ inputSchema })\`, an MCP server's \`registerTool\`), a form's or a route's validator.`,
    `It validates what \`${camel}Enqueue\` and \`${camel}Run\` validate (and \`client.queue.enqueue\` / \`client.queue.run\` for this model): the model's parameters (\`${m.file}\`, field \`${field}\`) with \`num_generations\`, \`response_format\`, \`target_namespace\` and \`model\` (any non-empty string: the functions set it), with the model's compiled validator (\`${target.prefix}validators/${fileStem(m.id)}.ts\`, no code evaluated at run time).`,
    `\`~standard.validate(value)\` is synchronous: \`{ value }\` (the value as given), or \`{ issues }\`, each \`{ message, path }\` (path: keys, array indexes as numbers). \`~standard.jsonSchema.input({ target })\` (and \`.output\`, the same) returns that JSON Schema, annotations kept, for \`target\` \`'draft-07'\` or \`'draft-2020-12'\`, a fresh object each call; another target throws \`SDKError\`.`,
  ].join('\n');
  return withDoc(
    ts,
    constStatement(
      ts,
      `${camel}QueueSchema`,
      typeNode(ts, ref('StandardQueueSchema', `${m.names.pascal}QueueParams`)),
      call,
    ),
    doc,
  );
}

/**
 * The first line of a user's `<out>/models/<id>.ts`. It is in the user's program as source (not a
 * declaration file, which `skipLibCheck` would spare), and checking every model module the index
 * imports made each compile of the user's application grow with the models added. The same printer's
 * output compiles under strict flags in this repository (`generated/models/`, test/generator).
 */
const USER_NOCHECK =
  "// @ts-nocheck -- generated code, type-checked where it is generated; the user's program uses its declared types";

/**
 * Body of `generated/models/<id>.ts` (or, for a user's target, `<out>/models/<id>.ts`), unformatted;
 * with `layOut`, in prettier's layout where `layout/` covers it (`LaidOut`).
 */
export function printModelModule(
  ts: Ts,
  m: EmitModel,
  hasValidator: boolean,
  operations: OperationsTable,
  target: Target = packageTarget,
  layOut = false,
): string | LaidOut {
  const f = ts.factory;
  const fns = m.endpoints.flatMap((e) => endpointFunctions(e, m, hasValidator));
  const head: TS.Statement[] = [];
  // a model with a compiled validator exports its Standard Schema object (`standardSchemaFor`)
  const standard = hasValidator && m.schema !== null && fns.some((fn) => fn.validates);
  const types = [
    ...new Set<string>([
      ...m.type.runtimeImports,
      ...fns.flatMap((fn) => fn.types),
      ...(standard ? ['StandardQueueSchema'] : []),
    ]),
  ].sort();
  if (types.length > 0) head.push(importDeclaration(ts, types, target.runtime.types, true));
  // value imports by specifier (a user's target takes several modules' names from one entry)
  const values = new Map<string, Set<string>>();
  const value = (specifier: string, name: string) =>
    values.set(specifier, (values.get(specifier) ?? new Set()).add(name));
  for (const fn of fns) value(target.runtime[fn.calls.module], fn.calls.name);
  if (standard) value(target.runtime.standardSchema, 'standardSchemaFor');
  for (const [specifier, names] of values) head.push(importDeclaration(ts, [...names].sort(), specifier, false));
  if (fns.some((fn) => fn.validates))
    head.push(importDeclaration(ts, ['validate'], `../validators/${fileStem(m.id)}${target.ext}`, false));

  const data: TS.Statement[] = [];
  const schemaDoc = `The request schema of \`${m.id}\` exactly as in \`${m.file}\`${m.schemaField ? ` (field \`${m.schemaField}\`)` : ' (null)'}, as data.${hasValidator ? ` The queue functions validate with its compiled validator (\`${target.prefix}validators/${fileStem(m.id)}.ts\`), not with this object.` : ''}`;
  data.push(
    withDoc(
      ts,
      m.schema === null
        ? constStatement(ts, m.names.schema, f.createLiteralTypeNode(f.createNull()), f.createNull())
        : constStatement(
            ts,
            m.names.schema,
            typeNode(ts, ref('Readonly', ref('Record', 'string', 'unknown'))),
            jsonExpression(ts, m.schema),
          ),
      schemaDoc,
    ),
  );
  data.push(
    withDoc(
      ts,
      constStatement(
        ts,
        `${m.names.camel}Id`,
        undefined,
        f.createAsExpression(stringNode(ts, m.id), f.createTypeReferenceNode('const')),
      ),
      `The model id of \`${m.names.params}\`.`,
    ),
  );
  for (const fn of fns) {
    if (!fn.paramsType) continue;
    const alias = f.createTypeAliasDeclaration(
      exported(ts),
      fn.paramsType.name,
      typeParameters(ts, fn.paramsType.typeParams),
      typeNode(ts, fn.paramsType.type),
    );
    data.push(withDoc(ts, alias, fn.paramsType.doc));
  }
  if (standard) data.push(standardSchemaStatement(ts, m, target));

  // A blank line after the imports, around the parameter type and before each function; the data
  // statements one after the other.
  return printModuleAs(
    ts,
    [
      ...(target.kind === 'user' ? [USER_NOCHECK] : []),
      head,
      m.type.declaration,
      data,
      ...fns.map((fn) => endpointFunction(ts, m, fn, target, operations)),
    ],
    layOut,
  );
}
