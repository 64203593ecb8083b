/**
 * Part of stage 5 (types): a typing-only schema (`types.ts`'s whitelisted copy, `$ref`s inlined)
 * to TypeScript syntax nodes, by json-schema-to-typescript's rules (normalize, kinds, parse,
 * optimize, print), so that every model keeps the type it had; the nodes are built with the
 * compiler's `ts.factory`, every string of the model a leaf written by `generator/escape.ts`
 * (`printer.ts`'s `stringNode`, `keyNode`, `withDoc`).
 *
 * The rules, as json-schema-to-typescript 15 applies them with the options the generator used
 * (`unknownAny`, `additionalProperties: true`, `maxItems: 20`):
 * - normalize: a one-type array is that type; `null` leaves `type` when `enum` holds it; an
 *   object without `additionalProperties` is open; an array's `minItems` defaults to 0, a
 *   `maxItems` more than 20 above it is dropped, and `items` with a bound becomes a tuple (with
 *   `additionalItems` as its rest when there is no maximum); a property's array bounds are noted
 *   in its doc comment (`@minItems`, `@maxItems`);
 * - kinds: what a node matches (`KINDS`, in that order); several are intersected;
 * - a property whose schema has no typing keyword is an open object (`{ [k: string]: unknown }`:
 *   its doc comment makes it a schema with a keyword), any other schema without one `unknown`; a
 *   union or intersection with an `unknown` member is `unknown`, and equal members are kept once
 *   (not inside a tuple, which is kept as parsed).
 */
import type { ts as TS } from 'ts-morph';
import { keyNode, stringNode, withDoc, type Ts } from './printer.ts';

type Schema = Record<string, unknown>;

/** The type of one schema node. */
type Ast =
  | { kind: 'unknown' | 'never' | 'boolean' | 'number' | 'string' | 'null' | 'object' }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'array'; item: Ast }
  | { kind: 'tuple'; items: Ast[]; minItems: number; maxItems: number | undefined; rest: Ast | undefined }
  | { kind: 'union' | 'intersection'; members: Ast[] }
  | { kind: 'interface'; members: Member[] };

/** A member of an object type: a property (`name`), or the index signature (`name` undefined). */
interface Member {
  name: string | undefined;
  required: boolean;
  type: Ast;
  doc: string | undefined;
}

const UNKNOWN: Ast = { kind: 'unknown' };

function isObject(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function hasType(s: Schema, t: string): boolean {
  return s['type'] === t || (Array.isArray(s['type']) && s['type'].includes(t));
}

function isObjectType(s: Schema): boolean {
  return s['properties'] !== undefined || hasType(s, 'object') || hasType(s, 'any');
}

function isArrayType(s: Schema): boolean {
  return s['items'] !== undefined || hasType(s, 'array') || hasType(s, 'any');
}

/** The normalize rules on one node (in place; the node is the generator's own copy), then its children. */
function normalize(s: unknown, seen = new Set<unknown>()): void {
  if (!isObject(s) || seen.has(s)) return;
  seen.add(s);
  if (Array.isArray(s['enum']) && s['enum'].includes(null) && Array.isArray(s['type']) && s['type'].includes('null'))
    s['type'] = (s['type'] as unknown[]).filter((t) => t !== 'null');
  if (Array.isArray(s['type']) && s['type'].length === 1) s['type'] = s['type'][0];
  if (isObjectType(s) && !('required' in s)) s['required'] = [];
  if (isObjectType(s) && !('additionalProperties' in s)) s['additionalProperties'] = true;
  if (isArrayType(s)) {
    const notes = [
      'minItems' in s ? `@minItems ${String(s['minItems'])}` : '',
      'maxItems' in s ? `@maxItems ${String(s['maxItems'])}` : '',
    ].filter(Boolean);
    if (notes.length > 0)
      s['description'] =
        typeof s['description'] === 'string' && s['description'] !== ''
          ? `${s['description']}\n\n${notes.join('\n')}`
          : notes.join('\n');
    s['minItems'] = typeof s['minItems'] === 'number' ? s['minItems'] : 0;
    if (typeof s['maxItems'] === 'number' && s['maxItems'] - (s['minItems'] as number) > 20) delete s['maxItems'];
  }
  const max = s['maxItems'];
  const min = s['minItems'];
  const hasMax = typeof max === 'number' && max >= 0;
  const hasMin = typeof min === 'number' && min > 0;
  if (s['items'] !== undefined && !Array.isArray(s['items']) && (hasMax || hasMin)) {
    const items = s['items'];
    s['items'] = Array<unknown>((max as number) || (min as number) || 0).fill(items);
    if (!hasMax) s['additionalItems'] = items;
  }
  if (Array.isArray(s['items']) && hasMax && max < s['items'].length) s['items'] = s['items'].slice(0, max);
  for (const k of ['anyOf', 'allOf', 'oneOf'] as const)
    if (Array.isArray(s[k])) for (const sub of s[k] as unknown[]) normalize(sub, seen);
  if (isObject(s['properties'])) for (const sub of Object.values(s['properties'])) normalize(sub, seen);
  if (isObject(s['additionalProperties'])) normalize(s['additionalProperties'], seen);
  if (Array.isArray(s['items'])) for (const sub of s['items'] as unknown[]) normalize(sub, seen);
  else normalize(s['items'], seen);
  normalize(s['additionalItems'], seen);
}

const SCALAR_TYPES = new Set(['boolean', 'integer', 'number', 'string']);

/** What a node matches, in json-schema-to-typescript's order (the order of an intersection's members). */
const KINDS: Array<[string, (s: Schema) => boolean]> = [
  ['ALL_OF', (s) => 'allOf' in s],
  ['ANY', (s) => Object.keys(s).length === 0 || s['type'] === 'any'],
  ['ANY_OF', (s) => 'anyOf' in s],
  ['BOOLEAN', (s) => !('enum' in s) && s['type'] === 'boolean'],
  ['NULL', (s) => s['type'] === 'null'],
  ['NUMBER', (s) => !('enum' in s) && (s['type'] === 'integer' || s['type'] === 'number')],
  [
    'OBJECT',
    (s) =>
      s['type'] === 'object' &&
      !isObject(s['additionalProperties']) &&
      !s['allOf'] &&
      !s['anyOf'] &&
      !s['oneOf'] &&
      !s['properties'] &&
      !s['required'],
  ],
  ['ONE_OF', (s) => 'oneOf' in s],
  ['STRING', (s) => !('enum' in s) && s['type'] === 'string'],
  ['TYPED_ARRAY', (s) => !(s['type'] && s['type'] !== 'array') && 'items' in s],
  ['UNION', (s) => Array.isArray(s['type'])],
  ['UNNAMED_ENUM', (s) => 'enum' in s && !(s['type'] && !SCALAR_TYPES.has(s['type'] as string))],
  ['UNTYPED_ARRAY', (s) => s['type'] === 'array' && !('items' in s)],
];

/** The type of a node (`boolean` schemas included). */
function parse(s: unknown): Ast {
  if (s === true) return UNKNOWN;
  if (s === false) return { kind: 'never' };
  if (!isObject(s)) return UNKNOWN;
  const kinds = KINDS.filter(([, match]) => match(s)).map(([k]) => k);
  if (kinds.length === 0) return parseKind(s, 'UNNAMED_SCHEMA');
  if (kinds.length === 1) return parseKind(s, kinds[0]!);
  // several kinds: the intersection of `allOf` and each other kind
  const members = Array.isArray(s['allOf']) ? (s['allOf'] as unknown[]).map(parse) : [];
  const rest: Schema = { ...s };
  delete rest['allOf'];
  for (const k of kinds) if (k !== 'ALL_OF') members.push(parseKind(rest, k));
  return { kind: 'intersection', members };
}

function parseKind(s: Schema, kind: string): Ast {
  switch (kind) {
    case 'ALL_OF':
      return { kind: 'intersection', members: (s['allOf'] as unknown[]).map(parse) };
    case 'ANY':
      return UNKNOWN;
    case 'ANY_OF':
      return { kind: 'union', members: (s['anyOf'] as unknown[]).map(parse) };
    case 'ONE_OF':
      return { kind: 'union', members: (s['oneOf'] as unknown[]).map(parse) };
    case 'BOOLEAN':
      return { kind: 'boolean' };
    case 'NULL':
      return { kind: 'null' };
    case 'NUMBER':
      return { kind: 'number' };
    case 'STRING':
      return { kind: 'string' };
    case 'OBJECT':
      return { kind: 'object' };
    case 'UNNAMED_ENUM':
      return {
        kind: 'union',
        members: (s['enum'] as unknown[]).map((v) => ({
          kind: 'literal',
          value: v as string | number | boolean | null,
        })),
      };
    case 'UNION':
      return {
        kind: 'union',
        members: (s['type'] as unknown[]).map((type) => {
          const member: Schema = { ...s, type };
          delete member['description'];
          return parse(member);
        }),
      };
    case 'TYPED_ARRAY': {
      const items = s['items'];
      if (!Array.isArray(items)) return { kind: 'array', item: parse(items) };
      const add = s['additionalItems'];
      return {
        kind: 'tuple',
        items: items.map(parse),
        minItems: s['minItems'] as number,
        maxItems: s['maxItems'] as number | undefined,
        rest: add === true ? UNKNOWN : add ? parse(add) : undefined,
      };
    }
    case 'UNTYPED_ARRAY': {
      const min = s['minItems'] as number;
      const max = typeof s['maxItems'] === 'number' ? s['maxItems'] : -1;
      if (min > 0 || max >= 0)
        return {
          kind: 'tuple',
          items: Array<Ast>(Math.max(max, min) || 0).fill(UNKNOWN),
          minItems: min,
          maxItems: s['maxItems'] as number | undefined,
          rest: max >= 0 ? undefined : UNKNOWN,
        };
      return { kind: 'array', item: UNKNOWN };
    }
    default:
      return parseObject(s);
  }
}

/** An object's members: its properties in schema order, then the index signature it is open to. */
function parseObject(s: Schema): Ast {
  const props = isObject(s['properties']) ? s['properties'] : {};
  const required = new Set(Array.isArray(s['required']) ? s['required'] : []);
  const members: Member[] = Object.entries(props).map(([name, sub]) => ({
    name,
    required: required.has(name),
    type: parse(sub),
    doc: isObject(sub) && typeof sub['description'] === 'string' ? sub['description'] : undefined,
  }));
  const add = s['additionalProperties'];
  if (add === undefined || add === true)
    members.push({ name: undefined, required: true, type: UNKNOWN, doc: undefined });
  else if (add !== false) members.push({ name: undefined, required: true, type: parse(add), doc: undefined });
  return { kind: 'interface', members };
}

/** A stable key of a type, for keeping equal union members once. */
function key(a: Ast): string {
  return JSON.stringify(a);
}

/** An `unknown` member makes a union or intersection `unknown`; equal members are kept once. */
function optimize(a: Ast): Ast {
  switch (a.kind) {
    case 'array':
      return { ...a, item: optimize(a.item) };
    case 'tuple': // json-schema-to-typescript leaves a tuple's members as parsed
      return a;
    case 'interface':
      return { ...a, members: a.members.map((m) => ({ ...m, type: optimize(m.type) })) };
    case 'union':
    case 'intersection': {
      const optimized = a.members.map(optimize);
      if (optimized.some((m) => m.kind === 'unknown')) return UNKNOWN;
      const seen = new Set<string>();
      const members = optimized.filter((m) => !seen.has(key(m)) && seen.add(key(m)) !== undefined);
      // one member is written as that member, so it compares equal to it in the parent
      return members.length === 1 ? members[0]! : { ...a, members };
    }
    default:
      return a;
  }
}

/** The members of an object type as syntax nodes. */
function memberNodes(ts: Ts, members: Member[]): TS.TypeElement[] {
  const f = ts.factory;
  return members.map((m) =>
    m.name === undefined
      ? f.createIndexSignature(
          undefined,
          [
            f.createParameterDeclaration(
              undefined,
              undefined,
              'k',
              undefined,
              f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
            ),
          ],
          typeNode(ts, m.type),
        )
      : withDoc(
          ts,
          f.createPropertySignature(
            undefined,
            keyNode(ts, m.name),
            m.required ? undefined : f.createToken(ts.SyntaxKind.QuestionToken),
            typeNode(ts, m.type),
          ),
          m.doc,
          false,
        ),
  );
}

/** A type as a syntax node (the factory adds the parentheses precedence needs). */
function typeNode(ts: Ts, a: Ast): TS.TypeNode {
  const f = ts.factory;
  const K = ts.SyntaxKind;
  switch (a.kind) {
    case 'unknown':
      return f.createKeywordTypeNode(K.UnknownKeyword);
    case 'never':
      return f.createKeywordTypeNode(K.NeverKeyword);
    case 'boolean':
      return f.createKeywordTypeNode(K.BooleanKeyword);
    case 'number':
      return f.createKeywordTypeNode(K.NumberKeyword);
    case 'string':
      return f.createKeywordTypeNode(K.StringKeyword);
    case 'object':
      return f.createKeywordTypeNode(K.ObjectKeyword);
    case 'null':
      return f.createLiteralTypeNode(f.createNull());
    case 'literal': {
      const v = a.value;
      if (v === null) return f.createLiteralTypeNode(f.createNull());
      if (typeof v === 'boolean') return f.createLiteralTypeNode(v ? f.createTrue() : f.createFalse());
      if (typeof v === 'number')
        return f.createLiteralTypeNode(
          v < 0
            ? f.createPrefixUnaryExpression(K.MinusToken, f.createNumericLiteral(String(-v)))
            : f.createNumericLiteral(String(v)),
        );
      return f.createLiteralTypeNode(stringNode(ts, v));
    }
    case 'array':
      return f.createArrayTypeNode(typeNode(ts, a.item));
    case 'union':
    case 'intersection': {
      const members = a.members.map((m) => typeNode(ts, m));
      if (members.length === 1) return members[0]!;
      return a.kind === 'union' ? f.createUnionTypeNode(members) : f.createIntersectionTypeNode(members);
    }
    case 'interface':
      return f.createTypeLiteralNode(memberNodes(ts, a.members));
    case 'tuple':
      return tupleNode(ts, a);
  }
}

/** A tuple as json-schema-to-typescript writes it: a union of the prefixes from `minItems` on, the rest on the longest. */
function tupleNode(ts: Ts, a: Extract<Ast, { kind: 'tuple' }>): TS.TypeNode {
  const f = ts.factory;
  const max = a.maxItems || -1; // json-schema-to-typescript reads a maxItems of 0 as none
  let rest = a.rest;
  const items = [...a.items];
  if (a.minItems > 0 && a.minItems > items.length && rest === undefined && max < 0) rest = UNKNOWN;
  if (max > items.length && rest === undefined) for (let i = items.length; i < max; i++) items.push(UNKNOWN);
  const nodes = items.map((i) => typeNode(ts, i));
  const withRest = (list: TS.TypeNode[]) =>
    f.createTupleTypeNode(rest ? [...list, f.createRestTypeNode(f.createArrayTypeNode(typeNode(ts, rest)))] : list);
  if (nodes.length <= a.minItems) return withRest(nodes);
  const tuples: TS.TypeNode[] = [f.createTupleTypeNode(nodes.slice(0, a.minItems))];
  for (let i = a.minItems; i < nodes.length; i++)
    tuples.push(
      i === nodes.length - 1 ? withRest(nodes.slice(0, i + 1)) : f.createTupleTypeNode(nodes.slice(0, i + 1)),
    );
  return f.createUnionTypeNode(tuples);
}

/**
 * `export interface <name> { ... }` for a typing-only object schema (normalized here in place), or
 * undefined when the schema does not type as one object interface.
 */
export function interfaceDeclaration(
  ts: Ts,
  schema: Schema,
  name: string,
  doc: string,
): TS.InterfaceDeclaration | undefined {
  normalize(schema);
  // the root must parse as an object (a union of one object member is declared as a type alias by
  // json-schema-to-typescript, and refused like any other non-interface root)
  const parsed = parse(schema);
  if (parsed.kind !== 'interface') return undefined;
  const ast = optimize(parsed) as Extract<Ast, { kind: 'interface' }>;
  const f = ts.factory;
  return withDoc(
    ts,
    f.createInterfaceDeclaration(
      [f.createModifier(ts.SyntaxKind.ExportKeyword)],
      name,
      undefined,
      undefined,
      memberNodes(ts, ast.members),
    ),
    doc,
    false,
  );
}
