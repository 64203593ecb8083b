/**
 * Part of stages 4 (types) and 5 (validators): OpenAPI 3.0's `nullable: true`, seen in newer
 * request schemas (`audio_urls: { type: 'array', maxItems: 3, nullable: true }`), as the draft-07
 * it means, in this one place, so that the types and the validators agree:
 * - beside `type`: `null` joins the types (`type: ['string', 'null']`), and the `enum` (or `const`)
 *   when there is one;
 * - beside an `enum` or `const` and no `type`: `null` joins the values;
 * - otherwise (beside `$ref`, `anyOf`, or alone): the node becomes `anyOf: [node, { type: 'null' }]`;
 * - `nullable` of any other value is dropped (`false` changes nothing; nothing else is OpenAPI).
 * That null joins an `enum` is our reading: OpenAPI 3.0.3 asks a nullable enum to list null
 * itself, the service's schemas are not shown doing so, and a type `'a' | 'b' | null` whose
 * validator refused null would contradict itself.
 * ajv's own `nullable` keyword (on in ajv 8) is not relied on: it refuses `nullable` without
 * `type` (no validator for a schema the service serves) and leaves such an enum refusing null.
 */
/** The draft-07 equivalent of one schema node's `nullable` (shallow: subschemas are left as they are). */
export function draftNullable(node: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(node, 'nullable')) return node;
  const { nullable, ...rest } = node;
  if (nullable !== true) return rest;
  const either = () => ({ anyOf: [rest, { type: 'null' }] });
  if (Object.hasOwn(rest, '$ref')) return either(); // draft-07 ignores the siblings of `$ref`
  const out: Record<string, unknown> = { ...rest };
  let typed = false;
  const t = out['type'];
  if (typeof t === 'string' || Array.isArray(t)) {
    const types: unknown[] = Array.isArray(t) ? t : [t];
    out['type'] = types.includes('null') ? types : [...types, 'null'];
    typed = true;
  }
  if (Array.isArray(out['enum'])) {
    const values = out['enum'] as unknown[];
    if (!values.includes(null)) out['enum'] = [...values, null];
    typed = true;
  } else if (Object.hasOwn(out, 'const')) {
    out['enum'] = out['const'] === null ? [null] : [out['const'], null];
    delete out['const'];
    typed = true;
  }
  return typed ? out : either();
}
