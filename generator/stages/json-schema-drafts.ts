/**
 * Part of stage 6 (emit): the JSON Schema of a model's Standard Schema object
 * (`<camel>QueueSchema`, built by the runtime's `standardSchemaFor`): the queue body schema its
 * validator was compiled from (`queueBodySchema`, annotations kept) in the models' draft, draft-07,
 * and, when it differs, in draft 2020-12, converted here once so that the runtime carries no
 * converter.
 *
 * Draft-07 to 2020-12: `definitions` -> `$defs` (unless the schema has a `$defs` already), tuple
 * `items` (an array) -> `prefixItems` with `additionalItems` -> `items` (an `additionalItems`
 * beside non-tuple `items` does nothing in draft-07 and is dropped), `dependencies` ->
 * `dependentRequired` (arrays) and `dependentSchemas` (schemas), and every local `$ref` that
 * passes through a renamed keyword rewritten to the new location. The snapshot's schemas use none
 * of these today; a user's added model may.
 */
import { pointerToken } from '../errors.ts';
import { canonicalJson, isMap, refTokens, SCHEMA_MAPS, SCHEMA_VALUES, subschemas } from './schema-walk.ts';
import { queueBodySchema } from './validators.ts';

/** A model's queue body schema in draft-07 and, when it differs other than in `$schema`, in draft 2020-12. */
export interface QueueJsonSchemas {
  draft07: Record<string, unknown>;
  draft2020?: Record<string, unknown>;
}

/** The JSON Schemas of a model's Standard Schema object (see the module comment). */
export function queueJsonSchemas(schema: Record<string, unknown>, video: boolean): QueueJsonSchemas {
  const draft07 = queueBodySchema(schema, video);
  const draft2020 = toDraft2020(draft07);
  return canonicalJson(draft2020) === canonicalJson(draft07) ? { draft07 } : { draft07, draft2020 };
}

/** The draft 2020-12 spelling of a keyword at a schema node of draft-07 (`next`: the token after it, for `dependencies`). */
function renamed(node: Record<string, unknown>, keyword: string, next: string | undefined): string {
  if (keyword === 'definitions' && isMap(node['definitions']) && !Object.hasOwn(node, '$defs')) return '$defs';
  if (keyword === 'items' && Array.isArray(node['items'])) return 'prefixItems';
  if (keyword === 'additionalItems' && Array.isArray(node['items'])) return 'items';
  if (keyword === 'dependencies' && isMap(node['dependencies']) && next !== undefined) {
    const dependency = (node['dependencies'] as Record<string, unknown>)[next];
    return Array.isArray(dependency) ? 'dependentRequired' : 'dependentSchemas';
  }
  return keyword;
}

/**
 * A local `$ref` of a draft-07 schema (`root`) pointed at the same subschema after conversion:
 * each token that is a renamed keyword at a schema node is renamed, names and indexes are kept.
 */
function convertRef(root: Record<string, unknown>, ref: string): string {
  const tokens = refTokens(ref);
  let node: unknown = root;
  let expect: 'schema' | 'key' | 'data' = 'schema';
  let changed = false;
  const out = tokens.map((token, i) => {
    let mapped = token;
    if (expect === 'schema' && isMap(node)) {
      const schema = node as Record<string, unknown>;
      mapped = renamed(schema, token, tokens[i + 1]);
      const value = schema[token];
      // a map of schemas or an array of them: a name or an index, then a schema; one schema; else data
      if (SCHEMA_MAPS.has(token) || token === 'dependencies') expect = 'key';
      else if (SCHEMA_VALUES.has(token)) expect = Array.isArray(value) ? 'key' : 'schema';
      else expect = 'data';
    } else if (expect === 'key') expect = 'schema';
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[token] : undefined;
    if (mapped !== token) changed = true;
    return mapped;
  });
  return changed ? '#' + out.map((t) => `/${pointerToken(t)}`).join('') : ref;
}

/** A draft-07 schema converted to draft 2020-12 (see the module comment); `schema` is not changed. */
export function toDraft2020(schema: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(schema);
  // the references first, read against the draft-07 structure
  for (const { node } of subschemas(out)) {
    const ref = node['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#')) node['$ref'] = convertRef(schema, ref);
  }
  // then each node, before the walk reads its children (so under their new keywords)
  for (const { node } of subschemas(out)) {
    if (isMap(node['definitions']) && !Object.hasOwn(node, '$defs')) {
      node['$defs'] = node['definitions'];
      delete node['definitions'];
    }
    if (Array.isArray(node['items'])) {
      node['prefixItems'] = node['items'];
      delete node['items'];
      if (Object.hasOwn(node, 'additionalItems')) node['items'] = node['additionalItems'];
    }
    delete node['additionalItems'];
    const dependencies = node['dependencies'];
    if (isMap(dependencies)) {
      const required: Record<string, unknown> = {};
      const schemas: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(dependencies as Record<string, unknown>))
        (Array.isArray(value) ? required : schemas)[name] = value;
      delete node['dependencies'];
      if (Object.keys(required).length > 0) node['dependentRequired'] = required;
      if (Object.keys(schemas).length > 0) node['dependentSchemas'] = schemas;
    }
  }
  return out;
}
