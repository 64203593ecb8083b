/**
 * Building blocks of the families: a case context (seeded PRNG and sentinel planter), model objects
 * made from a real snapshot model of a chosen kind, and random ordinary schemas.
 */
import { clone, obj, snapshotModels, type CaseSpec } from './case.ts';
import type { Planter } from './hostile.ts';
import type { Rng } from './rng.ts';

/** What a family builds a case with. */
export interface Ctx {
  rng: Rng;
  plant: Planter;
  /** How many cases of the same family come before this one in the run (0, 1, ...). */
  ordinal: number;
}

/** One family of cases. */
export interface Family {
  name: string;
  /** What it covers (shown by `npm run fuzz -- --list`). */
  about: string;
  build(ctx: Ctx): CaseSpec;
}

/** Kinds of model, by the endpoint a real model of that kind is served on. */
export const KINDS = {
  'image-generate': '/images/generate',
  'image-edit': '/images/edit',
  video: '/videos/generate',
  'audio-speech': '/audio/speech',
  'audio-transcription': '/audio/transcriptions',
  chat: '/chat/completions',
} as const;
export type Kind = keyof typeof KINDS;

/** A real model object of that kind (a copy). */
export function baseModel(ctx: Ctx, kind: Kind = ctx.rng.pick(Object.keys(KINDS) as Kind[])): Record<string, unknown> {
  const all = [...snapshotModels().values()].filter((m) => m['endpoint'] === KINDS[kind]);
  return clone(ctx.rng.pick(all.length > 0 ? all : [...snapshotModels().values()]));
}

/** A valid model id (letters, digits, `-`, `.`, `_`), distinct per `n`. */
export function validId(ctx: Ctx, n = 0): string {
  return `${ctx.rng.pick(['fuzz', 'acme', 'x', 'm0', 'Model'])}-${ctx.rng.pick(['gen', 'edit', 'v1.0', 'a_b', 'pro'])}-${n}`;
}

/** The schema field name of a model object (`request_schema` / `json_request_schema`), or the other one. */
export function schemaField(m: Record<string, unknown>): 'request_schema' | 'json_request_schema' {
  return 'json_request_schema' in m ? 'json_request_schema' : 'request_schema';
}

/**
 * A model object of `kind` with `id` and `schema` in the field the base model used (or the other
 * one at random). Keys stay in the base's order.
 */
export function withSchema(
  ctx: Ctx,
  schema: unknown,
  options: { id?: string; kind?: Kind } = {},
): Record<string, unknown> {
  const base = baseModel(ctx, options.kind);
  const field = ctx.rng.chance(0.8)
    ? schemaField(base)
    : schemaField(base) === 'request_schema'
      ? 'json_request_schema'
      : 'request_schema';
  const entries = Object.entries(base).filter(([k]) => k !== 'request_schema' && k !== 'json_request_schema');
  const out = obj(entries.map(([k, v]) => [k, k === 'id' ? (options.id ?? 'fuzz-model') : v]));
  out[field] = schema;
  return out;
}

/** A case of one model with this schema (a kind that sends the schema: not chat, unless asked). */
export function oneModel(ctx: Ctx, note: string, schema: unknown, kind?: Kind): CaseSpec {
  const id = validId(ctx);
  const k = kind ?? ctx.rng.pick(['image-generate', 'image-edit', 'video', 'audio-speech'] as Kind[]);
  return { note, list: [id], files: [{ name: id, content: withSchema(ctx, schema, { id, kind: k }) }] };
}

/** An object schema with these properties and (some of them) required. */
export function objectSchema(properties: Record<string, unknown>, required: string[] = []): Record<string, unknown> {
  return obj([
    ['type', 'object'],
    ['properties', properties],
    ...(required.length > 0 ? [['required', required] as const] : []),
  ]);
}

/** A random ordinary parameter schema, `depth` levels of nesting at most. */
export function simpleSchema(ctx: Ctx, depth = 2): Record<string, unknown> {
  const { rng } = ctx;
  const kind = rng.int(0, depth > 0 ? 7 : 5);
  const s: Record<string, unknown> = {};
  switch (kind) {
    case 0:
      s['type'] = 'string';
      break;
    case 1:
      Object.assign(s, { type: 'integer', minimum: rng.int(-5, 5), maximum: rng.int(6, 100) });
      break;
    case 2:
      Object.assign(s, { type: 'number', default: rng.float() });
      break;
    case 3:
      Object.assign(s, { type: 'boolean', default: rng.chance(0.5) });
      break;
    case 4:
      Object.assign(s, { type: 'string', enum: ['a', 'b', 'c'].slice(0, rng.int(1, 3)) });
      break;
    case 5:
      Object.assign(s, { type: 'string', format: rng.pick(['uri', 'date-time', 'email', 'uuid']) });
      break;
    case 6:
      Object.assign(s, { type: 'array', items: simpleSchema(ctx, depth - 1) });
      break;
    default:
      Object.assign(
        s,
        objectSchema(
          { a: simpleSchema(ctx, depth - 1), b: simpleSchema(ctx, depth - 1) },
          rng.chance(0.5) ? ['a'] : [],
        ),
      );
  }
  if (rng.chance(0.5)) s['description'] = rng.chance(0.5) ? ctx.plant.text() : 'An ordinary description.';
  if (rng.chance(0.3)) s['x-order'] = rng.int(0, 20);
  return s;
}

/** Keywords whose value is a map of subschemas, or a list of them, or one subschema. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const SCHEMA_ONE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
];

/** Every subschema object of a schema, the schema first (iterative: any depth). */
export function schemaNodes(schema: unknown): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const stack: unknown[] = [schema];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  while (stack.length > 0) {
    const s = stack.pop();
    if (!isObj(s)) continue;
    out.push(s);
    for (const k of SCHEMA_MAPS) if (isObj(s[k])) stack.push(...Object.values(s[k]));
    for (const k of SCHEMA_LISTS) if (Array.isArray(s[k])) stack.push(...(s[k] as unknown[]));
    for (const k of SCHEMA_ONE) if (isObj(s[k])) stack.push(s[k]);
  }
  return out;
}
