/**
 * The generator's one TypeScript printer (stage 6, emit): every generated TypeScript module is built
 * as syntax nodes (the compiler's `ts.factory`, from ts-morph's copy of TypeScript) and printed here
 * by the compiler's printer (`printModule`). The index modules, the model modules and their
 * parameter types (`type-emit.ts`) all come through it; no TypeScript is built as text.
 *
 * Model text reaches a node only through `generator/escape.ts`: `stringNode` (a string literal,
 * `stringLiteral`), `keyNode` (a property name, `propertyKey`), `withDoc` (comment text,
 * `commentText`). The printer writes such a leaf as it is (an identifier's text) and never
 * re-escapes or re-reads it. Every other name (`name.ts`'s type names, the runtime's) is an
 * identifier of the generator's own.
 */
import type { ts as TS } from 'ts-morph';
import { commentText, propertyKey, stringLiteral } from '../escape.ts';

export type Ts = typeof TS;

/** A string literal holding `value` (escape.ts's `stringLiteral`), as an expression or a literal type's literal. */
export function stringNode(ts: Ts, value: string): TS.StringLiteral {
  return ts.factory.createIdentifier(stringLiteral(value)) as unknown as TS.StringLiteral;
}

/** A property name for `name` (escape.ts's `propertyKey`: plain when an identifier, else a string literal). */
export function keyNode(ts: Ts, name: string): TS.Identifier {
  return ts.factory.createIdentifier(propertyKey(name));
}

/**
 * A JSON value as an expression: keys through `propertyKey` (`__proto__` computed, so that it stays
 * data), strings through `stringLiteral`; objects and arrays one member a line. `printModule` writes
 * the value as text where the expression is (`jsonText`), not the nodes (the layout reads them).
 */
export function jsonExpression(ts: Ts, value: unknown): TS.Expression {
  const node = jsonNode(ts, value);
  if (value !== null && typeof value === 'object') jsonValues.set(node, value);
  return node;
}

/** The values of `jsonExpression`'s objects and arrays, by node. */
const jsonValues = new WeakMap<TS.Node, unknown>();

function jsonNode(ts: Ts, value: unknown): TS.Expression {
  const f = ts.factory;
  if (value === null) return f.createNull();
  if (typeof value === 'boolean') return value ? f.createTrue() : f.createFalse();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return f.createNull();
    return value < 0 || Object.is(value, -0)
      ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, f.createNumericLiteral(String(-value)))
      : f.createNumericLiteral(String(value));
  }
  if (typeof value === 'string') return stringNode(ts, value);
  if (Array.isArray(value))
    return f.createArrayLiteralExpression(
      value.map((v) => jsonNode(ts, v)),
      true,
    );
  if (typeof value === 'object')
    return f.createObjectLiteralExpression(
      Object.entries(value as Record<string, unknown>).map(([k, v]) =>
        f.createPropertyAssignment(
          k === '__proto__' ? f.createComputedPropertyName(stringNode(ts, k)) : keyNode(ts, k),
          jsonNode(ts, v),
        ),
      ),
      true,
    );
  return f.createNull();
}

/**
 * `value` as the compiler's printer prints `jsonNode(value)` on a line indented `indent` (each
 * member a line, indented four more; no trailing comma; `{}` and `[]` when empty), without the
 * nodes: test/generator/layout-data.test.ts proves it the same on seeded random values.
 */
export function jsonText(value: unknown, indent = ''): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'null';
    return value < 0 || Object.is(value, -0) ? `-${String(-value)}` : String(value);
  }
  if (typeof value === 'string') return stringLiteral(value);
  if (typeof value !== 'object') return 'null';
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + jsonText(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const member = ([k, v]: [string, unknown]) =>
    `${inner}${k === '__proto__' ? `[${stringLiteral(k)}]` : propertyKey(k)}: ${jsonText(v, inner)}`;
  return `{\n${entries.map(member).join(',\n')}\n${indent}}`;
}

/**
 * A doc comment on `node`, its text through `commentText`. `oneLine`: a single line is written
 * `/** text *\/` (as ts-morph's printer and prettier write it); else always as a block.
 */
export function withDoc<T extends TS.Node>(ts: Ts, node: T, text: string | undefined, oneLine = true): T {
  if (text === undefined) return node;
  const lines = commentText(text).split('\n');
  const body =
    oneLine && lines.length === 1
      ? `* ${lines[0]} `
      : `*\n${lines.map((l) => (l === '' ? ' *' : ` * ${l}`)).join('\n')}\n `;
  return ts.addSyntheticLeadingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, body, true);
}

/**
 * `declaration` (an interface or a type alias) again, printed without any of its comments: a new
 * top node over the same children (the shared node is not changed), its nested comments turned off.
 * `withDoc` may then give it a doc of its own.
 */
export function withoutComments<T extends TS.InterfaceDeclaration | TS.TypeAliasDeclaration>(
  ts: Ts,
  declaration: T,
): T {
  const f = ts.factory;
  const d: TS.InterfaceDeclaration | TS.TypeAliasDeclaration = declaration;
  const copy = ts.isInterfaceDeclaration(d)
    ? f.createInterfaceDeclaration(d.modifiers, d.name, d.typeParameters, d.heritageClauses, d.members)
    : f.createTypeAliasDeclaration(d.modifiers, d.name, d.typeParameters, d.type);
  return ts.setEmitFlags(copy, ts.EmitFlags.NoNestedComments) as T;
}

/** A type given as data: a name, optionally with type arguments; a string literal type; an array type. */
export type TypeSpec = string | { name: string; args: TypeSpec[] } | { literal: string } | { array: TypeSpec };

/** `name<args>` as a type spec. */
export function ref(name: string, ...args: TypeSpec[]): TypeSpec {
  return args.length === 0 ? name : { name, args };
}

/** A type's name as an identifier. */
const TYPE_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * A type name's identifier. @throws Error when `name` is not an identifier (type text such as
 * `Promise<X>` or `A | B`: a type is given as a `TypeSpec`, never as text, so the printer sees its structure).
 */
function typeName(ts: Ts, name: string): TS.Identifier {
  if (!TYPE_NAME.test(name))
    throw new Error(`type name ${JSON.stringify(name)} is not an identifier: give the type as a TypeSpec`);
  return ts.factory.createIdentifier(name);
}

/**
 * A type spec's node (its names are the generator's own: `name.ts`'s and the runtime's types).
 * @throws Error when a name is type text, not an identifier (`typeName`).
 */
export function typeNode(ts: Ts, spec: TypeSpec): TS.TypeNode {
  const f = ts.factory;
  if (typeof spec === 'string') return f.createTypeReferenceNode(typeName(ts, spec));
  if ('literal' in spec) return f.createLiteralTypeNode(stringNode(ts, spec.literal));
  if ('array' in spec) return f.createArrayTypeNode(typeNode(ts, spec.array));
  return f.createTypeReferenceNode(
    typeName(ts, spec.name),
    spec.args.map((a) => typeNode(ts, a)),
  );
}

/** A type parameter given as data: `name extends constraint = default`. */
export interface TypeParamSpec {
  name: string;
  constraint?: TypeSpec;
  default?: TypeSpec;
}

/** Type parameter declarations, or undefined for none. */
export function typeParameters(ts: Ts, params: readonly TypeParamSpec[]): TS.TypeParameterDeclaration[] | undefined {
  return params.length === 0
    ? undefined
    : params.map((p) =>
        ts.factory.createTypeParameterDeclaration(
          undefined,
          p.name,
          p.constraint === undefined ? undefined : typeNode(ts, p.constraint),
          p.default === undefined ? undefined : typeNode(ts, p.default),
        ),
      );
}

/** A union of string literal types (through `stringLiteral`), or `never` for none. */
export function literalUnion(ts: Ts, values: readonly string[]): TS.TypeNode {
  const f = ts.factory;
  if (values.length === 0) return f.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword);
  const members = values.map((v) => f.createLiteralTypeNode(stringNode(ts, v)));
  return members.length === 1 ? members[0]! : f.createUnionTypeNode(members);
}

/** The `export` modifier list, or undefined. */
export function exported(ts: Ts, isExported = true): TS.Modifier[] | undefined {
  return isExported ? [ts.factory.createModifier(ts.SyntaxKind.ExportKeyword)] : undefined;
}

/**
 * `import [type] { names } from "specifier";` (a name may be `a as b`). `singleQuote`: a plain
 * specifier (the generator's own paths) in single quotes, as a module no formatter reads (a
 * validator) has always written it; else through `stringNode`.
 */
export function importDeclaration(
  ts: Ts,
  names: readonly string[],
  specifier: string,
  typeOnly: boolean,
  singleQuote = false,
): TS.ImportDeclaration {
  const f = ts.factory;
  return f.createImportDeclaration(
    undefined,
    f.createImportClause(
      typeOnly,
      undefined,
      f.createNamedImports(
        names.map((n) => {
          const [name, alias] = n.split(' as ');
          return alias === undefined
            ? f.createImportSpecifier(false, undefined, f.createIdentifier(name!))
            : f.createImportSpecifier(false, f.createIdentifier(name!), f.createIdentifier(alias));
        }),
      ),
    ),
    singleQuote && /^[\w\-./@~]+$/.test(specifier) ? f.createStringLiteral(specifier, true) : stringNode(ts, specifier),
  );
}

/** `[export] const name[: type] = init;` */
export function constStatement(
  ts: Ts,
  name: string,
  type: TS.TypeNode | undefined,
  init: TS.Expression,
  isExported = true,
): TS.VariableStatement {
  const f = ts.factory;
  return f.createVariableStatement(
    exported(ts, isExported),
    f.createVariableDeclarationList([f.createVariableDeclaration(name, undefined, type, init)], ts.NodeFlags.Const),
  );
}

/** Statements printed as one run of lines; runs are separated by a blank line. */
export type Layout = ReadonlyArray<TS.Statement | readonly TS.Statement[] | string>;

/**
 * `statements` as ts-morph's structure printer lays them out: a blank line before and after each
 * interface, class and function declaration; the other statements one after the other.
 */
export function blockLayout(ts: Ts, statements: readonly TS.Statement[]): TS.Statement[][] {
  const runs: TS.Statement[][] = [];
  let run: TS.Statement[] = [];
  for (const s of statements) {
    const block = ts.isInterfaceDeclaration(s) || ts.isClassDeclaration(s) || ts.isFunctionDeclaration(s);
    if (block && run.length > 0) {
      runs.push(run);
      run = [];
    }
    run.push(s);
    if (block) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * The text of a module: each entry of `layout` (a statement, a run of statements, or a line of the
 * generator's own such as a `// @ts-nocheck` directive) printed by the compiler's printer, entries
 * separated by a blank line, statements of a run by a line break; ending with a line break.
 * `dataAsText`: `jsonExpression`'s values written by `jsonText` (the same text, in about a tenth
 * of the printer's time for them); off, printed from their nodes.
 */
export function printModule(ts: Ts, layout: Layout, dataAsText = true): string {
  const isRun = (e: Layout[number]): e is readonly TS.Statement[] => Array.isArray(e);
  // `jsonExpression`'s values are written as text (`jsonText`) where the printer puts a mark for them
  const data: unknown[] = [];
  const substituteNode = (_hint: TS.EmitHint, node: TS.Node): TS.Node => {
    // a node with comments of its own is printed as it is (the mark would not carry them)
    if (!jsonValues.has(node) || ts.getSyntheticLeadingComments(node) || ts.getSyntheticTrailingComments(node))
      return node;
    data.push(jsonValues.get(node));
    // the mark in an object (or an array) of one member, so that the printer puts the parentheses an
    // object (an array) would need where it is
    const mark = ts.factory.createIdentifier(`${DATA_MARK}${data.length - 1}\u0000`);
    return ts.isObjectLiteralExpression(node)
      ? ts.factory.createObjectLiteralExpression([ts.factory.createShorthandPropertyAssignment(mark)], false)
      : ts.factory.createArrayLiteralExpression([mark], false);
  };
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed }, dataAsText ? { substituteNode } : {});
  const file = ts.createSourceFile('module.ts', '', ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const print = (n: TS.Statement) => printer.printNode(ts.EmitHint.Unspecified, n, file);
  const parts = layout
    .map((entry) => (typeof entry === 'string' ? entry : (isRun(entry) ? entry : [entry]).map(print).join('\n')))
    .filter((p) => p !== '');
  const text = `${parts.join('\n\n')}\n`;
  return data.length === 0 ? text : fillData(text, data);
}

/** The mark of a JSON value in the printed text (`printModule`): no printed text holds a NUL (`escape.ts` escapes it). */
const DATA_MARK = '\u0000json ';

/**
 * `text` with each mark's object (`{ mark }`) or array (`[mark]`) replaced by its value's
 * `jsonText`, indented as the mark's line.
 * @throws Error when a mark is not where `printModule` put it.
 */
function fillData(text: string, data: readonly unknown[]): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(DATA_MARK); at >= 0; at = text.indexOf(DATA_MARK, from)) {
    const end = text.indexOf('\u0000', at + DATA_MARK.length) + 1;
    const object = text.slice(at - 2, at) === '{ ' && text.slice(end, end + 2) === ' }';
    if (!object && (text[at - 1] !== '[' || text[end] !== ']')) throw new Error('printer: a JSON mark out of place');
    const begin = at - (object ? 2 : 1);
    const line = text.lastIndexOf('\n', begin) + 1;
    const indent = /^ */.exec(text.slice(line, begin))![0];
    out += text.slice(from, begin) + jsonText(data[Number(text.slice(at + DATA_MARK.length, end - 1))], indent);
    from = end + (object ? 2 : 1);
  }
  return out + text.slice(from);
}
