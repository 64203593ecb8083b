/**
 * Walking JSON Schemas: every subschema with its JSON pointer, local `$ref`s (their tokens, one
 * canonical spelling, resolution) and canonical JSON. Shared by the stages that read schemas
 * (`schema-check.ts`, `validators.ts`, `types.ts`); it decides nothing about what is supported.
 */
import { pointerToken } from '../errors.ts';

/** The reference tokens of a local `$ref` (`#/a~1b/%25` -> `['a/b', '%']`). @throws URIError on a malformed escape. */
export function refTokens(ref: string): string[] {
  return ref === '#'
    ? []
    : ref
        .slice(2)
        .split('/')
        .map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** One spelling per target: `#/definitions/%61` and `#/definitions/a` are the same reference. */
export function canonicalRef(ref: string): string {
  return (
    '#' +
    refTokens(ref)
      .map((t) => `/${pointerToken(t)}`)
      .join('')
  );
}

/** A JSON value as canonical JSON: object keys sorted, so that equal values have one text (for `enum` uniqueness). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Resolve a local `$ref` in `root`, or undefined when it points nowhere. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  const tokens = refTokens(ref);
  let node: unknown = root;
  for (const t of tokens) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, t)) return undefined;
    node = (node as Record<string, unknown>)[t];
  }
  return node;
}

export function isMap(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Keywords whose value is a map of name -> schema. */
export const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependentSchemas',
]);
/** Keywords whose value is a schema or an array of schemas. */
export const SCHEMA_VALUES: ReadonlySet<string> = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'prefixItems',
  'unevaluatedItems',
  'unevaluatedProperties',
]);

/**
 * Every subschema of `schema` (itself included) that is an object, with its JSON pointer
 * (iterative: hostile depth cannot overflow the stack). Values of data keywords (`enum`, `const`,
 * `default`, `examples`) are not schemas and are not visited.
 */
export function* subschemas(
  schema: unknown,
): Generator<{ node: Record<string, unknown>; pointer: string; root: boolean }> {
  const stack: Array<{ node: unknown; pointer: string; root: boolean }> = [{ node: schema, pointer: '', root: true }];
  while (stack.length > 0) {
    const { node, pointer, root } = stack.pop()!;
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue; // boolean schemas, or junk the meta-schema check reports
    const s = node as Record<string, unknown>;
    yield { node: s, pointer, root };
    for (const [k, v] of Object.entries(s)) {
      const p = `${pointer}/${pointerToken(k)}`;
      if (SCHEMA_MAPS.has(k) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        for (const [name, sub] of Object.entries(v))
          stack.push({ node: sub, pointer: `${p}/${pointerToken(name)}`, root: false });
      } else if (SCHEMA_VALUES.has(k)) {
        if (Array.isArray(v)) v.forEach((sub, i) => stack.push({ node: sub, pointer: `${p}/${i}`, root: false }));
        else stack.push({ node: v, pointer: p, root: false });
      } else if (k === 'dependencies' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        for (const [name, sub] of Object.entries(v))
          if (!Array.isArray(sub)) stack.push({ node: sub, pointer: `${p}/${pointerToken(name)}`, root: false });
      }
    }
  }
}
