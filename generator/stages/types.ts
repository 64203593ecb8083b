/**
 * Stage 5, types: each model's request schema to a TypeScript interface, emitted as syntax nodes
 * (the compiler's `ts.factory`, from ts-morph's copy of TypeScript) and printed by the compiler's
 * printer. Enums become literal unions; `description`, `default`, `minimum`/`maximum`, `format`
 * (and the other validation keywords) and the model id and schema field a member came from go
 * into its JSDoc. Printed by `printer.ts`, the generator's one TypeScript printer.
 *
 * The schema is first rebuilt from a whitelist of typing keywords (`typeSchema`: local `$ref`s
 * inlined, recursion refused by the load stage, expansion bounded here), then typed as
 * json-schema-to-typescript types it (the rules are kept, so the types are those it gave): the
 * kinds a node matches are intersected (`type`, `enum`, `anyOf`/`oneOf` as unions, `allOf`), an
 * `enum` (or `const`) is the union of its values (one holding an object or array value is typed by
 * `type`, else by the JSON types of its values), a type array the union of its types, an array
 * with `minItems`/`maxItems` (up to 20) or an `items` array a union of tuples, an object with no
 * `additionalProperties` open; OpenAPI's `nullable: true` adds `| null` (`nullable.ts`, shared
 * with the validators). Extension keys (`x-*`) are not typing keywords and never reach a type; a
 * parameter marked `x-hidden: true` says so in its doc comment. Every string of the model reaches
 * the output as a leaf written by `generator/escape.ts`: a key through `propertyKey`, a value through `stringLiteral`, a
 * description through `commentText`. Nothing is substituted in printed text.
 *
 * Objects are closed (`additionalProperties: false`) unless the schema itself opens them (an
 * explicit `additionalProperties` other than `false`, or `patternProperties`): then they take any
 * further key (`[k: string]: unknown`), never stricter than the schema. Objects with no documented
 * fields stay open.
 *
 * A model whose schema is null takes the endpoint's parameters as the API description lists them
 * (a type from the runtime; for a chat model its non-streamed body, `ChatCompletionParamsNonStreaming`,
 * which `chat.completions.create` answers with a `ChatCompletion`).
 */
import type { ClassifiedModel } from './classify.ts';
import type { ModelNames } from './name.ts';
import { SpecError, pointerToken } from '../errors.ts';
import type { ts as TS } from 'ts-morph';
import { docCode, docText } from '../escape.ts';
import { exported, printModule, withDoc } from './printer.ts';
import { interfaceDeclaration } from './type-emit.ts';
import { resolveLocalRef } from './schema-walk.ts';
import { draftNullable } from './nullable.ts';
import { loadTsMorph } from '../libraries.ts';
import { isObject } from '../order.ts';

/** The parameter type of one model. */
export interface ModelType {
  /** The `<Pascal>Params` interface or alias, with JSDoc, as a syntax node (printed by `printer.ts`). */
  declaration: TS.Statement;
  /** Runtime type names the code uses (to import from the runtime). */
  runtimeImports: string[];
  /** Required and optional parameter names, in schema order (for MODELS.md). */
  required: string[];
  optional: string[];
}

/** Keywords copied into JSDoc tags, in this order. */
const DOC_KEYWORDS = [
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
] as const;

/** Most schema nodes one model's type may expand to (after inlining `$ref`s). */
const MAX_TYPE_NODES = 20_000;
/** Deepest nesting of the type schema after inlining `$ref`s. */
const MAX_TYPE_DEPTH = 48;

/** The JSDoc text of one property: its description, the keyword tags, and its source (unescaped; the caller escapes). */
export function propertyDoc(model: string, field: string, path: string, prop: Record<string, unknown>): string {
  const lines: string[] = [];
  if (typeof prop['description'] === 'string' && prop['description'].trim() !== '')
    lines.push(docText(prop['description'].trim()), '');
  // What the service does with `x-hidden` is not shown (its forms leave such a field out): it stays typed.
  if (prop['x-hidden'] === true)
    lines.push(
      'Hidden: the model marks this parameter `x-hidden` (not shown by default); it is typed and sent as any other.',
      '',
    );
  for (const k of DOC_KEYWORDS)
    if (prop[k] !== undefined) lines.push(`@${k} ${docText(JSON.stringify(prop[k]) ?? '')}`);
  lines.push(`@see model \`${model}\`, schema field ${docCode(`${field}${path}`)}`);
  return lines.join('\n');
}

interface Ctx {
  /** Schema nodes typed so far (after inlining `$ref`s). */
  nodes: number;
  root: Record<string, unknown>;
  model: ClassifiedModel;
  field: string;
}

/** An enum or const value typed as a literal (objects and arrays are not: see `jsonType`). */
function literal(v: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof v === 'string') return { ok: true, value: v };
  if (typeof v === 'number') return Number.isFinite(v) ? { ok: true, value: v } : { ok: false };
  if (typeof v === 'boolean' || v === null) return { ok: true, value: v };
  return { ok: false }; // objects and arrays: typed by `type` only
}

/** The JSON type name of a value, as a `type` keyword names it. */
function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/**
 * The typing-only copy of a schema node: whitelisted keywords, `$ref`s inlined, each property's
 * doc text as its `description`. `pointer` is the node's JSON pointer (for errors), `docPath` its path for
 * `@see` (`.properties.a.items.properties.b`).
 */
function typeSchema(node: unknown, ctx: Ctx, pointer: string, docPath: string, depth: number, top: boolean): unknown {
  const fail = (problem: string): never => {
    throw new SpecError(ctx.model.file, ctx.model.id, `/${ctx.field}${pointer}`, problem);
  };
  if (++ctx.nodes > MAX_TYPE_NODES) fail(`the schema expands to more than ${MAX_TYPE_NODES} nodes: not supported`);
  if (depth > MAX_TYPE_DEPTH)
    fail(`the schema nests deeper than ${MAX_TYPE_DEPTH} levels once its $refs are followed: not supported`);
  if (typeof node === 'boolean') return node;
  if (!isObject(node)) return true;
  let s = draftNullable(node);
  const seen = new Set<string>();
  while (typeof s['$ref'] === 'string') {
    const ref = s['$ref'];
    if (seen.has(ref)) fail(`recursive $ref ${JSON.stringify(ref)} is not supported`);
    seen.add(ref);
    const target = resolveLocalRef(ctx.root, ref);
    if (typeof target === 'boolean') return target;
    if (!isObject(target)) fail(`$ref ${JSON.stringify(ref)} does not point to a schema`);
    s = draftNullable(target as Record<string, unknown>); // draft-07: siblings of $ref are ignored
  }
  const out: Record<string, unknown> = {};
  const t = s['type'];
  if (typeof t === 'string' || Array.isArray(t)) out['type'] = t;
  let structured: unknown[] | undefined; // an enum or const holding an object or array value
  if (Array.isArray(s['enum'])) {
    const items = (s['enum'] as unknown[]).map((x) => literal(x));
    if (items.every((i) => i.ok)) out['enum'] = items.map((i) => (i as { value: unknown }).value);
    else structured = s['enum'] as unknown[];
  }
  if (Object.hasOwn(s, 'const')) {
    const c = literal(s['const']);
    if (c.ok) out['enum'] = [c.value];
    else structured = [s['const']];
  }
  // typed by `type`, else by the JSON types of its values (not as an object, which an array value is not)
  if (structured && out['enum'] === undefined && out['type'] === undefined)
    out['type'] = [...new Set(structured.map(jsonType))];
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const v = s[k];
    if (Array.isArray(v) && v.length > 0)
      out[k] = v.map((sub, i) => typeSchema(sub, ctx, `${pointer}/${k}/${i}`, docPath, depth + 1, false));
  }
  const items = s['items'];
  if (Array.isArray(items)) {
    out['items'] = items.map((sub, i) =>
      typeSchema(sub, ctx, `${pointer}/items/${i}`, `${docPath}.items[${i}]`, depth + 1, false),
    );
    if (s['additionalItems'] !== undefined)
      out['additionalItems'] = typeSchema(
        s['additionalItems'],
        ctx,
        `${pointer}/additionalItems`,
        `${docPath}.additionalItems`,
        depth + 1,
        false,
      );
  } else if (items !== undefined) {
    out['items'] = typeSchema(items, ctx, `${pointer}/items`, `${docPath}.items`, depth + 1, false);
  }
  for (const k of ['minItems', 'maxItems'] as const)
    if (typeof s[k] === 'number' && Number.isInteger(s[k]) && s[k] <= 20) out[k] = s[k];
  if (typeof out['minItems'] === 'number' && typeof out['maxItems'] === 'number' && out['maxItems'] < out['minItems'])
    fail(`maxItems ${out['maxItems']} is less than minItems ${out['minItems']}: no array is allowed`);
  const props = s['properties'];
  const explicitAdditional = Object.hasOwn(s, 'additionalProperties') && s['additionalProperties'] !== false;
  const opened = explicitAdditional || isObject(s['patternProperties']);
  if (isObject(props)) {
    const properties: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(props)) {
      const subPath = `${docPath}.properties.${name}`;
      const typed = typeSchema(sub, ctx, `${pointer}/properties/${pointerToken(name)}`, subPath, depth + 1, false);
      const doc = propertyDoc(ctx.model.id, ctx.field, subPath, isObject(sub) ? sub : {});
      // `__proto__` as an own key (a plain assignment would set the copy's prototype)
      Object.defineProperty(properties, name, {
        value:
          // `true` or `{}` takes any value: jstt's `any` type (`unknown`), which keeps the doc (a
          // doc alone would make it a schema without a typing keyword: an object)
          sub === true || (isObject(sub) && Object.keys(sub).length === 0)
            ? { type: 'any', description: doc }
            : isObject(typed)
              ? { ...typed, description: doc }
              : typed === true
                ? { description: doc }
                : typed,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out['properties'] = properties;
    const required = Array.isArray(s['required'])
      ? (s['required'] as unknown[]).filter((r): r is string => typeof r === 'string' && Object.hasOwn(props, r))
      : [];
    if (required.length > 0) out['required'] = [...new Set(required)];
    // Closed unless the schema opens it; an index signature must accept every property: `unknown`.
    out['additionalProperties'] = opened ? true : false;
  } else if (top) {
    out['additionalProperties'] = opened ? true : false;
  } else if (isObject(s['additionalProperties']) && !isObject(s['patternProperties'])) {
    out['additionalProperties'] = typeSchema(
      s['additionalProperties'],
      ctx,
      `${pointer}/additionalProperties`,
      `${docPath}.additionalProperties`,
      depth + 1,
      false,
    );
  } else if (s['additionalProperties'] === false && !isObject(s['patternProperties'])) {
    out['additionalProperties'] = false;
  }
  return out;
}

/** Build the parameter type of a model. @throws SpecError when the schema cannot be typed. */
export function modelType(m: ClassifiedModel & { names: ModelNames }, doc: string): ModelType {
  const { params } = m.names;
  const { ts } = loadTsMorph();
  const f = ts.factory;
  const declared = (declaration: TS.Statement, runtimeImports: string[] = []): ModelType => ({
    declaration: withDoc(ts, declaration, doc, false),
    runtimeImports,
    required: [],
    optional: [],
  });
  if (!m.schema) {
    const described: Record<string, string> = {
      text: 'ChatCompletionParamsNonStreaming',
      image: m.endpoints.includes('images.generate') ? 'DescribedImageGenerateParams' : 'DescribedImageEditParams',
      video: 'DescribedVideoGenerateParams',
    };
    const alias = m.uncovered === undefined ? described[m.output] : undefined;
    if (alias)
      return declared(f.createTypeAliasDeclaration(exported(ts), params, undefined, f.createTypeReferenceNode(alias)), [
        alias,
      ]);
    return declared(
      f.createInterfaceDeclaration(exported(ts), params, undefined, undefined, [
        f.createIndexSignature(
          undefined,
          [
            f.createParameterDeclaration(
              undefined,
              undefined,
              'key',
              undefined,
              f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
            ),
          ],
          f.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword),
        ),
      ]),
    );
  }
  const field = m.schemaField ?? 'request_schema';
  const ctx: Ctx = { nodes: 0, root: m.schema, model: m, field };
  const schema = typeSchema(m.schema, ctx, '', '', 0, true) as Record<string, unknown>;
  const declaration = interfaceDeclaration(ts, schema, params, doc);
  if (!declaration)
    throw new SpecError(
      m.file,
      m.id,
      `/${field}`,
      'the schema does not type as one object interface (is it an object schema?)',
    );
  const props = isObject(m.schema['properties']) ? m.schema['properties'] : {};
  const req = new Set(Array.isArray(m.schema['required']) ? (m.schema['required'] as string[]) : []);
  const names = Object.keys(props);
  return {
    declaration,
    runtimeImports: [],
    required: names.filter((n) => req.has(n)),
    optional: names.filter((n) => !req.has(n)),
  };
}

/** The text of a model's parameter type alone (for the fuzzer's oracle and tests). */
export function modelTypeText(t: ModelType): string {
  return printModule(loadTsMorph().ts, [t.declaration]);
}
