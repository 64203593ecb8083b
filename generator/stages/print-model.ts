/**
 * Part of stage 6 (emit): `generated/models/<id>.ts` as TypeScript syntax nodes (the compiler's
 * `ts.factory`, from ts-morph's copy of TypeScript), printed by the compiler's printer: the
 * imports, the parameter type (`types.ts`), the schema as data, the model id, the functions' named
 * parameter types and the endpoint functions (`emit-model.ts`).
 *
 * Every piece of model data is a leaf written by `generator/escape.ts`: a string literal
 * (`stringLiteral`), a property key (`propertyKey`, `__proto__` as a computed key so that it stays
 * data), comment text (`commentText`). The printer writes such a leaf as it is (an identifier's
 * text); it never re-escapes or re-reads it, so no text is searched or replaced after printing.
 * The parameter type is the types stage's own text, placed between the printed statements.
 */
import type { ts as TS } from 'ts-morph';
import { commentText, propertyKey, stringLiteral } from '../escape.ts';
import type { OperationsTable } from './operations.ts';
import { endpointFunctions, functionDoc, type EmitModel, type EndpointFn } from './emit-model.ts';
import { packageTarget, type Target } from '../output/target.ts';
import { fileStem } from './name.ts';
import { queueJsonSchemas } from './json-schema-drafts.ts';

type Ts = typeof TS;

/** A leaf printed exactly as `text` (text made by escape.ts, or the generator's own names and types). */
function leaf(ts: Ts, text: string): TS.Identifier {
  return ts.factory.createIdentifier(text);
}

/** Attach a doc comment (`text` already through `commentText`): one line as `/** text *\/`, more as a block. */
function withDoc<T extends TS.Node>(ts: Ts, node: T, text: string): T {
  const lines = text.split('\n');
  const body =
    lines.length === 1 ? `* ${lines[0]} ` : `*\n${lines.map((l) => (l === '' ? ' *' : ` * ${l}`)).join('\n')}\n `;
  return ts.addSyntheticLeadingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, body, true);
}

/** A JSON value as an expression: keys through `propertyKey` (`__proto__` computed), strings through `stringLiteral`. */
function jsonExpression(ts: Ts, value: unknown): TS.Expression {
  const f = ts.factory;
  if (value === null) return f.createNull();
  if (typeof value === 'boolean') return value ? f.createTrue() : f.createFalse();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return f.createNull();
    return value < 0 || Object.is(value, -0)
      ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, f.createNumericLiteral(String(-value)))
      : f.createNumericLiteral(String(value));
  }
  if (typeof value === 'string') return leaf(ts, stringLiteral(value));
  if (Array.isArray(value))
    return f.createArrayLiteralExpression(
      value.map((v) => jsonExpression(ts, v)),
      true,
    );
  if (typeof value === 'object')
    return f.createObjectLiteralExpression(
      Object.entries(value as Record<string, unknown>).map(([k, v]) =>
        f.createPropertyAssignment(
          k === '__proto__' ? f.createComputedPropertyName(leaf(ts, stringLiteral(k))) : leaf(ts, propertyKey(k)),
          jsonExpression(ts, v),
        ),
      ),
      true,
    );
  return f.createNull();
}

/** `import [type] { names } from 'specifier';` */
function importDeclaration(ts: Ts, names: string[], specifier: string, typeOnly: boolean): TS.ImportDeclaration {
  const f = ts.factory;
  return f.createImportDeclaration(
    undefined,
    f.createImportClause(
      typeOnly,
      undefined,
      f.createNamedImports(names.map((n) => f.createImportSpecifier(false, undefined, f.createIdentifier(n)))),
    ),
    leaf(ts, stringLiteral(specifier)),
  );
}

/** `export const name: type = initializer;` */
function constStatement(
  ts: Ts,
  name: string,
  type: TS.TypeNode | undefined,
  init: TS.Expression,
): TS.VariableStatement {
  const f = ts.factory;
  return f.createVariableStatement(
    [f.createModifier(ts.SyntaxKind.ExportKeyword)],
    f.createVariableDeclarationList([f.createVariableDeclaration(name, undefined, type, init)], ts.NodeFlags.Const),
  );
}

/** The generator's own type text (names from `name.ts` and the runtime's type names) as a type node. */
function typeText(ts: Ts, text: string): TS.TypeNode {
  return ts.factory.createTypeReferenceNode(leaf(ts, text));
}

/** A type parameter list such as `F extends ResponseFormat = 'url'` (the generator's own text). */
function typeParameters(ts: Ts, params: string[]): TS.TypeParameterDeclaration[] | undefined {
  return params.length === 0
    ? undefined
    : params.map((p) => ts.factory.createTypeParameterDeclaration(undefined, leaf(ts, p)));
}

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
    f.createPropertyAssignment('model', leaf(ts, stringLiteral(m.id))),
  ]);
  const args: TS.Expression[] = [f.createIdentifier('client'), body, f.createIdentifier('options')];
  if (fn.validates) args.push(f.createIdentifier('validate'));
  const call = f.createCallExpression(f.createIdentifier(fn.calls.name), undefined, args);
  const returned = fn.typeParams.length > 0 ? f.createAsExpression(call, typeText(ts, fn.returns)) : call;
  const param = (name: string, type: string, optional = false) =>
    f.createParameterDeclaration(
      undefined,
      undefined,
      name,
      optional ? f.createToken(ts.SyntaxKind.QuestionToken) : undefined,
      typeText(ts, type),
    );
  const decl = f.createFunctionDeclaration(
    [f.createModifier(ts.SyntaxKind.ExportKeyword)],
    undefined,
    `${m.names.camel}${fn.suffix}`,
    typeParameters(ts, fn.typeParams),
    [param('client', 'Transport'), param('params', fn.params), param('options', fn.options, true)],
    typeText(ts, fn.returns),
    f.createBlock([f.createReturnStatement(returned)], true),
  );
  return withDoc(ts, decl, commentText(functionDoc(m, fn, target, operations)));
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
    leaf(ts, stringLiteral(m.id)),
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
    constStatement(ts, `${camel}QueueSchema`, typeText(ts, `StandardQueueSchema<${m.names.pascal}QueueParams>`), call),
    commentText(doc),
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

/** Body of `generated/models/<id>.ts` (or, for a user's target, `<out>/models/<id>.ts`), unformatted. */
export function printModelModule(
  ts: Ts,
  m: EmitModel,
  hasValidator: boolean,
  operations: OperationsTable,
  target: Target = packageTarget,
): string {
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
            typeText(ts, 'Readonly<Record<string, unknown>>'),
            jsonExpression(ts, m.schema),
          ),
      commentText(schemaDoc),
    ),
  );
  data.push(
    withDoc(
      ts,
      constStatement(
        ts,
        `${m.names.camel}Id`,
        undefined,
        f.createAsExpression(leaf(ts, stringLiteral(m.id)), typeText(ts, 'const')),
      ),
      commentText(`The model id of \`${m.names.params}\`.`),
    ),
  );
  for (const fn of fns) {
    if (!fn.paramsType) continue;
    const alias = f.createTypeAliasDeclaration(
      [f.createModifier(ts.SyntaxKind.ExportKeyword)],
      fn.paramsType.name,
      typeParameters(ts, fn.paramsType.typeParams),
      typeText(ts, fn.paramsType.type),
    );
    data.push(withDoc(ts, alias, commentText(fn.paramsType.doc)));
  }
  if (standard) data.push(standardSchemaStatement(ts, m, target));

  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const file = ts.createSourceFile('model.ts', '', ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const print = (nodes: TS.Statement[]) => nodes.map((n) => printer.printNode(ts.EmitHint.Unspecified, n, file));
  // Statements as ts-morph's printer laid them out: a blank line after the imports, around the
  // parameter type and before each function; the data statements one after the other.
  const parts = [
    ...(target.kind === 'user' ? [USER_NOCHECK] : []),
    print(head).join('\n'),
    m.type.code.trimEnd(),
    print(data).join('\n'),
    ...print(fns.map((fn) => endpointFunction(ts, m, fn, target, operations))),
  ].filter((p) => p !== '');
  return `${parts.join('\n\n')}\n`;
}
