/**
 * Schema drift, step 1: normalise a model object (via `checkModel`, so `request_schema` /
 * `json_request_schema` are told apart in one place only) into a flat shape built for structural
 * comparison: one entry per parameter (nested object properties as `parent.child`, array item
 * schemas as `parent[]`, up to `MAX_DEPTH` levels), types as a sorted `a|b` string, enum values
 * and capabilities as key sets, defaults and unknown keywords as JSON text.
 */
import { checkModel, type JsonSchema } from '../stages/load.ts';
import { isObject } from '../order.ts';

/** One parameter (or nested property, or array item schema) in normalised form. */
export interface NormParam {
  /** Sorted types joined with `|`; absent: any type. */
  type?: string;
  /** JSON text of each allowed value; absent: no enum. */
  enum?: Record<string, true>;
  required: boolean;
  /** JSON text. */
  default?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  description?: string;
  /** JSON text of `x-order`. */
  order?: string;
  /** Keywords not modelled above, as JSON text. */
  other: Record<string, string>;
}

/** One model in normalised form: what `classify.ts` compares. */
export interface NormModel {
  schemaField: string | null;
  hasSchema: boolean;
  endpoint?: string;
  capabilities?: { input: Record<string, true>; output: Record<string, true> };
  displayName?: string;
  description?: string;
  params: Record<string, NormParam>;
  /** Other top-level fields of the model object and other schema-level keywords, as JSON text. */
  other: Record<string, string>;
}

/** Bounds whose raising narrows what is accepted. */
export const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minItems', 'minLength'] as const;
/** Bounds whose lowering narrows what is accepted. */
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxItems', 'maxLength'] as const;
/** Every bound keyword. */
export const RANGE_KEYS: ReadonlySet<string> = new Set([...LOWER_BOUNDS, ...UPPER_BOUNDS]);
/** Keywords of a parameter schema that the normalised shape models (everything else goes to `other`). */
const PARAM_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'default',
  'description',
  'x-order',
  'properties',
  'required',
  'items',
  ...RANGE_KEYS,
]);
/** Model-object fields modelled (or deliberately handled) by `normalise`. */
const MODEL_FIELDS = new Set([
  'id',
  'request_schema',
  'json_request_schema',
  'endpoint',
  'capabilities',
  'display_name',
  'description',
]);
const SCHEMA_FIELDS_HANDLED = new Set(['type', 'properties', 'required']);
/** How deep nested object properties and array items are followed. */
const MAX_DEPTH = 4;

const json = (v: unknown): string => JSON.stringify(v) ?? 'undefined';
const keySet = (values: readonly unknown[]): Record<string, true> =>
  Object.fromEntries(values.map((v) => [json(v), true as const]));

/** The set of types a schema accepts, or undefined for "any". Reduces `anyOf`/`oneOf` of typed members and `nullable`. */
function typesOf(s: Record<string, unknown>): { types: string[] | undefined; reducedKeyword?: string } {
  let types: string[] | undefined;
  let reducedKeyword: string | undefined;
  if (typeof s['type'] === 'string') types = [s['type']];
  else if (Array.isArray(s['type'])) types = s['type'].filter((t): t is string => typeof t === 'string');
  else {
    for (const k of ['anyOf', 'oneOf']) {
      const members = s[k];
      if (
        Array.isArray(members) &&
        members.length > 0 &&
        members.every(
          (m) =>
            isObject(m) &&
            Object.keys(m).every((mk) => mk === 'type' || mk === 'description') &&
            typeof m['type'] === 'string',
        )
      ) {
        types = members.map((m) => (m as { type: string }).type);
        reducedKeyword = k;
        break;
      }
    }
  }
  if (types && s['nullable'] === true) types.push('null');
  return { types: types ? [...new Set(types)].sort() : undefined, ...(reducedKeyword ? { reducedKeyword } : {}) };
}

function addParam(out: Record<string, NormParam>, name: string, raw: unknown, required: boolean, depth: number): void {
  const s = isObject(raw) ? raw : {};
  const p: NormParam = { required, other: {} };
  if (raw === false) p.other['schema'] = 'false';
  const { types, reducedKeyword } = typesOf(s);
  if (types) p.type = types.join('|');
  if (Array.isArray(s['enum'])) p.enum = keySet(s['enum']);
  else if ('const' in s) p.enum = keySet([s['const']]);
  if ('default' in s) p.default = json(s['default']);
  for (const k of RANGE_KEYS) {
    const v = s[k];
    if (typeof v === 'number') (p as unknown as Record<string, number>)[k] = v;
    else if (v !== undefined) p.other[k] = json(v); // e.g. draft-04 boolean exclusiveMinimum
  }
  if (typeof s['description'] === 'string') p.description = s['description'];
  if (s['x-order'] !== undefined) p.order = json(s['x-order']);
  for (const [k, v] of Object.entries(s)) {
    if (PARAM_KEYWORDS.has(k) || k === 'nullable' || k === reducedKeyword) continue;
    p.other[k] = json(v);
  }
  out[name] = p;
  if (depth >= MAX_DEPTH) {
    for (const k of ['properties', 'required', 'items']) if (s[k] !== undefined) p.other[k] = json(s[k]);
    return;
  }
  if (isObject(s['properties'])) {
    const req = new Set(Array.isArray(s['required']) ? s['required'] : []);
    for (const [child, cs] of Object.entries(s['properties']))
      addParam(out, `${name}.${child}`, cs, req.has(child), depth + 1);
  } else if (s['required'] !== undefined) p.other['required'] = json(s['required']);
  if (isObject(s['items'])) addParam(out, `${name}[]`, s['items'], false, depth + 1);
  else if (s['items'] !== undefined) p.other['items'] = json(s['items']);
}

/**
 * The normalised shape of one model object, for structural comparison.
 * @throws SpecError when the object is not a valid model object (`checkModel`).
 */
export function normalise(raw: unknown, id: string, file: string): NormModel {
  const m = checkModel(raw, id, file);
  const obj = m.raw as Record<string, unknown>;
  const n: NormModel = { schemaField: m.schemaField, hasSchema: m.schema !== null, params: {}, other: {} };
  if (m.endpoint !== undefined) n.endpoint = m.endpoint;
  if (m.capabilities) n.capabilities = { input: keySet(m.capabilities.input), output: keySet(m.capabilities.output) };
  if (m.displayName !== undefined) n.displayName = m.displayName;
  if (m.description !== undefined) n.description = m.description;
  for (const [k, v] of Object.entries(obj)) if (!MODEL_FIELDS.has(k)) n.other[k] = json(v);
  const schema: JsonSchema | null = m.schema;
  if (schema) {
    const required = new Set((schema['required'] ?? []) as string[]);
    for (const [name, ps] of Object.entries((schema['properties'] ?? {}) as Record<string, unknown>))
      addParam(n.params, name, ps, required.has(name), 1);
    for (const [k, v] of Object.entries(schema)) if (!SCHEMA_FIELDS_HANDLED.has(k)) n.other[`schema.${k}`] = json(v);
  }
  return n;
}
