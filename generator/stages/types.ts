/**
 * Stage 5, types: each model's request schema to a TypeScript interface, with
 * json-schema-to-typescript. Enums become literal unions; `description`, `default`,
 * `minimum`/`maximum`, `format` (and the other validation keywords) and the model id and schema
 * field a member came from go into its JSDoc.
 *
 * json-schema-to-typescript never sees a string of the model object. The schema given to it is
 * rebuilt from a whitelist of typing keywords, in which every property name, enum or const string
 * and description is replaced by a placeholder token; after compiling, each token is replaced by
 * the real text through `generator/escape.ts` (a key through `propertyKey`, a value through
 * `stringLiteral`, a description through `commentText`). Local `$ref`s are inlined (recursion was
 * refused by the load stage; expansion is bounded here).
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
import { commentText, docCode, docText, propertyKey, stringLiteral } from '../escape.ts';
import { resolveLocalRef } from './schema-check.ts';

/** The parameter type of one model. */
export interface ModelType {
  /** TypeScript declarations: the `<Pascal>Params` interface or alias, with JSDoc. */
  code: string;
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
  for (const k of DOC_KEYWORDS)
    if (prop[k] !== undefined) lines.push(`@${k} ${docText(JSON.stringify(prop[k]) ?? '')}`);
  lines.push(`@see model \`${model}\`, schema field ${docCode(`${field}${path}`)}`);
  return lines.join('\n');
}

/** Placeholder tokens and what they stand for. */
class Tokens {
  readonly keys: string[] = [];
  readonly values: string[] = [];
  readonly docs: string[] = [];
  nodes = 0;
  key(name: string): string {
    this.keys.push(name);
    return `__sdkK${this.keys.length - 1}__`;
  }
  value(text: string): string {
    this.values.push(text);
    return `__sdkV${this.values.length - 1}__`;
  }
  doc(text: string): string {
    this.docs.push(text);
    return `__sdkD${this.docs.length - 1}__`;
  }
}

interface Ctx {
  tokens: Tokens;
  root: Record<string, unknown>;
  model: ClassifiedModel;
  field: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** An enum or const value json-schema-to-typescript can print safely (strings become tokens). */
function literal(v: unknown, ctx: Ctx): { ok: true; value: unknown } | { ok: false } {
  if (typeof v === 'string') return { ok: true, value: ctx.tokens.value(v) };
  if (typeof v === 'number') return Number.isFinite(v) ? { ok: true, value: v } : { ok: false };
  if (typeof v === 'boolean' || v === null) return { ok: true, value: v };
  return { ok: false }; // objects and arrays: typed by `type` only
}

/**
 * The typing-only copy of a schema node: whitelisted keywords, tokens for every string of the
 * model, `$ref`s inlined. `pointer` is the node's JSON pointer (for errors), `docPath` its path for
 * `@see` (`.properties.a.items.properties.b`).
 */
function typeSchema(node: unknown, ctx: Ctx, pointer: string, docPath: string, depth: number, top: boolean): unknown {
  const fail = (problem: string): never => {
    throw new SpecError(ctx.model.file, ctx.model.id, `/${ctx.field}${pointer}`, problem);
  };
  if (++ctx.tokens.nodes > MAX_TYPE_NODES)
    fail(`the schema expands to more than ${MAX_TYPE_NODES} nodes: not supported`);
  if (depth > MAX_TYPE_DEPTH)
    fail(`the schema nests deeper than ${MAX_TYPE_DEPTH} levels once its $refs are followed: not supported`);
  if (typeof node === 'boolean') return node;
  if (!isObject(node)) return true;
  let s = node;
  const seen = new Set<string>();
  while (typeof s['$ref'] === 'string') {
    const ref = s['$ref'];
    if (seen.has(ref)) fail(`recursive $ref ${JSON.stringify(ref)} is not supported`);
    seen.add(ref);
    const target = resolveLocalRef(ctx.root, ref);
    if (typeof target === 'boolean') return target;
    if (!isObject(target)) fail(`$ref ${JSON.stringify(ref)} does not point to a schema`);
    s = target as Record<string, unknown>; // draft-07: siblings of $ref are ignored
  }
  const out: Record<string, unknown> = {};
  const t = s['type'];
  if (typeof t === 'string' || Array.isArray(t)) out['type'] = t;
  for (const k of ['enum'] as const) {
    const v = s[k];
    if (Array.isArray(v)) {
      const items = v.map((x) => literal(x, ctx));
      if (items.every((i) => i.ok)) out[k] = items.map((i) => (i as { value: unknown }).value);
    }
  }
  if (Object.hasOwn(s, 'const')) {
    const c = literal(s['const'], ctx);
    if (c.ok) out['enum'] = [c.value];
  }
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
  const props = s['properties'];
  const explicitAdditional = Object.hasOwn(s, 'additionalProperties') && s['additionalProperties'] !== false;
  const opened = explicitAdditional || isObject(s['patternProperties']);
  if (isObject(props)) {
    const properties: Record<string, unknown> = {};
    const tokenOf = new Map<string, string>();
    for (const [name, sub] of Object.entries(props)) {
      const token = ctx.tokens.key(name);
      tokenOf.set(name, token);
      const subPath = `${docPath}.properties.${name}`;
      const typed = typeSchema(sub, ctx, `${pointer}/properties/${pointerToken(name)}`, subPath, depth + 1, false);
      const doc = ctx.tokens.doc(propertyDoc(ctx.model.id, ctx.field, subPath, isObject(sub) ? sub : {}));
      properties[token] = isObject(typed)
        ? { ...typed, description: doc }
        : typed === true
          ? { description: doc }
          : typed;
    }
    out['properties'] = properties;
    const required = Array.isArray(s['required'])
      ? (s['required'] as unknown[]).filter((r): r is string => typeof r === 'string' && tokenOf.has(r))
      : [];
    if (required.length > 0) out['required'] = [...new Set(required)].map((r) => tokenOf.get(r)!);
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

/** Put the real text back for every token of `code`. */
function untoken(code: string, tokens: Tokens): string {
  return code
    .replace(/^([ \t]*)\* __sdkD(\d+)__$/gm, (_, indent: string, i: string) =>
      commentText(tokens.docs[Number(i)]!)
        .split('\n')
        .map((l) => `${indent}*${l === '' ? '' : ` ${l}`}`)
        .join('\n'),
    )
    .replace(/(["'])__sdkV(\d+)__\1/g, (_, _q: string, i: string) => stringLiteral(tokens.values[Number(i)]!))
    .replace(/__sdkK(\d+)__/g, (_, i: string) => propertyKey(tokens.keys[Number(i)]!));
}

/** Build the parameter type of a model. @throws SpecError when the schema cannot be typed. */
export async function modelType(m: ClassifiedModel & { names: ModelNames }, doc: string): Promise<ModelType> {
  const { params } = m.names;
  const head = `/**\n${commentText(doc)
    .split('\n')
    .map((l) => ` * ${l}`.trimEnd())
    .join('\n')}\n */\n`;
  if (!m.schema) {
    const described: Record<string, string> = {
      text: 'ChatCompletionParamsNonStreaming',
      image: m.endpoints.includes('images.generate') ? 'DescribedImageGenerateParams' : 'DescribedImageEditParams',
      video: 'DescribedVideoGenerateParams',
    };
    const alias = m.uncovered === undefined ? described[m.output] : undefined;
    if (alias)
      return {
        code: `${head}export type ${params} = ${alias};\n`,
        runtimeImports: [alias],
        required: [],
        optional: [],
      };
    return {
      code: `${head}export interface ${params} {\n  [key: string]: unknown;\n}\n`,
      runtimeImports: [],
      required: [],
      optional: [],
    };
  }
  const field = m.schemaField ?? 'request_schema';
  const tokens = new Tokens();
  const ctx: Ctx = { tokens, root: m.schema, model: m, field };
  const schema = typeSchema(m.schema, ctx, '', '', 0, true) as Record<string, unknown>;
  schema['description'] = tokens.doc(doc);
  const { compile } = await import('json-schema-to-typescript');
  let code: string;
  try {
    code = await compile(schema, 'GeneratedParams', {
      bannerComment: '',
      format: false,
      additionalProperties: true, // objects with no documented fields stay open
      declareExternallyReferenced: true,
      enableConstEnums: false,
      strictIndexSignatures: false,
      unknownAny: true,
      ignoreMinAndMaxItems: false,
      $refOptions: { resolve: { external: false } },
    });
  } catch (err) {
    throw new SpecError(
      m.file,
      m.id,
      `/${field}`,
      `json-schema-to-typescript could not type the schema (${(err as Error).name})`,
    );
  }
  const declarations = code.match(/^export (interface|type) /gm) ?? [];
  if (!code.includes('export interface GeneratedParams ') || declarations.length !== 1) {
    throw new SpecError(
      m.file,
      m.id,
      `/${field}`,
      'the schema does not type as one object interface (is it an object schema?)',
    );
  }
  code = untoken(code.replace('export interface GeneratedParams ', `export interface ${params} `), tokens);
  if (/__sdk[KVD]\d+__/.test(code))
    throw new SpecError(
      m.file,
      m.id,
      `/${field}`,
      'the schema could not be typed safely (a name or value was printed where the generator did not expect it)',
    );
  const props = isObject(m.schema['properties']) ? m.schema['properties'] : {};
  const req = new Set(Array.isArray(m.schema['required']) ? (m.schema['required'] as string[]) : []);
  const names = Object.keys(props);
  return {
    code,
    runtimeImports: [],
    required: names.filter((n) => req.has(n)),
    optional: names.filter((n) => !req.has(n)),
  };
}
