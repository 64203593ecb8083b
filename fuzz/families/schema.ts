/**
 * Families that put hostile content into a model's request schema (one model per case, of a kind
 * whose schema the SDK sends: image, video or audio; some also as a chat model).
 */
import { obj, setKey } from '../case.ts';
import {
  baseModel,
  schemaNodes,
  objectSchema,
  oneModel,
  schemaField,
  simpleSchema,
  type Ctx,
  type Family,
} from '../build.ts';

/** Keywords whose value is text that reaches JSDoc, Markdown or a schema const. */
const TEXT_KEYWORDS = [
  'description',
  'title',
  '$comment',
  'format',
  'default',
  'examples',
  'contentMediaType',
  'contentEncoding',
  'deprecated',
  'x-order',
  'pattern',
] as const;

/** A real model's schema (image/video/audio), with hostile text in `n` random text positions. */
function hostileStrings(ctx: Ctx) {
  const { rng, plant } = ctx;
  const m = baseModel(ctx, rng.pick(['image-generate', 'image-edit', 'video', 'audio-speech']));
  const field = schemaField(m);
  const schema = (m[field] ?? objectSchema({ prompt: { type: 'string' } })) as Record<string, unknown>;
  m[field] = schema;
  const nodes = schemaNodes(schema);
  const places: string[] = [];
  for (let i = rng.int(1, 8); i > 0; i--) {
    const node = rng.pick(nodes);
    const kw = rng.pick(TEXT_KEYWORDS);
    const text = plant.text();
    if (kw === 'examples') node[kw] = [text, plant.text()];
    else if (kw === 'pattern') node[kw] = rng.chance(0.5) ? text : `^${text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`;
    else node[kw] = text;
    places.push(kw);
  }
  // enum values and the model's own texts
  const withEnum = nodes.filter((n) => Array.isArray(n['enum']));
  if (withEnum.length > 0 && rng.chance(0.7)) {
    const n = rng.pick(withEnum);
    n['enum'] = [...(n['enum'] as unknown[]), plant.text(), plant.text()];
    places.push('enum');
  }
  if (rng.chance(0.5)) ((m['display_name'] = plant.text()), places.push('display_name'));
  if (rng.chance(0.5)) ((m['description'] = plant.text()), places.push('model description'));
  const id = String(m['id']);
  return { note: `hostile text in ${places.join(', ')}`, list: [id], files: [{ name: id, content: m }] };
}

/** Properties named by hostile keys, some required, some nested. */
function hostileKeys(ctx: Ctx) {
  const { rng, plant } = ctx;
  const props: Record<string, unknown> = {};
  const keys: string[] = [];
  for (let i = rng.int(1, 6); i > 0; i--) {
    const k = plant.key();
    keys.push(k);
    setKey(props, k, simpleSchema(ctx, 1));
  }
  if (rng.chance(0.5)) setKey(props, 'prompt', { type: 'string' });
  const required = keys.filter(() => rng.chance(0.4));
  if (rng.chance(0.4)) {
    const inner: Record<string, unknown> = {};
    const k = plant.key();
    setKey(inner, k, { type: 'string', description: plant.text() });
    setKey(props, plant.key(), objectSchema(inner, rng.chance(0.5) ? [k] : []));
  }
  if (rng.chance(0.3)) {
    const inner: Record<string, unknown> = {};
    setKey(inner, plant.key(), { type: 'integer' });
    setKey(props, plant.key(), { type: 'array', items: objectSchema(inner) });
  }
  return oneModel(
    ctx,
    `property names ${JSON.stringify(keys).slice(0, 200)}`,
    objectSchema(props, required),
    rng.chance(0.15) ? 'chat' : undefined,
  );
}

/** `patternProperties` (hostile keys, valid and invalid regular expressions) with `properties` and `additionalProperties`. */
function patternProperties(ctx: Ctx) {
  const { rng, plant } = ctx;
  const pattern: Record<string, unknown> = {};
  for (let i = rng.int(1, 4); i > 0; i--) {
    const k = rng.chance(0.5)
      ? plant.sentinel()
      : rng.pick([
          () => plant.key(),
          () => '^x-',
          () => '.*',
          () => '(',
          () => '[a-z',
          () => '\\',
          () => '^[A-Z]+$',
          () => '(?<n>a)\\k<n>',
          () => '\\p{L}+',
        ])();
    setKey(pattern, k, rng.chance(0.7) ? simpleSchema(ctx, 1) : rng.pick([true, false, {}]));
  }
  const entries: Array<[string, unknown]> = [
    ['type', 'object'],
    ['patternProperties', pattern],
  ];
  if (rng.chance(0.8))
    entries.push([
      'properties',
      obj([
        ['prompt', { type: 'string' }],
        [plant.key(), { type: rng.pick(['integer', 'string', 'boolean']) }],
      ]),
    ]);
  if (rng.chance(0.7))
    entries.push([
      'additionalProperties',
      rng.pick([true, false, { type: 'number' }, { type: 'string', description: plant.text() }]),
    ]);
  if (rng.chance(0.3)) entries.push(['propertyNames', { pattern: rng.pick(['^[a-z]+$', plant.text()]) }]);
  if (rng.chance(0.3)) entries.push(['dependentRequired', obj([['prompt', [plant.key()]]])]);
  const schema = obj(entries);
  // nested too: a parameter that is itself such an object
  const wrapped = rng.chance(0.4) ? objectSchema({ prompt: { type: 'string' }, options: schema }) : schema;
  return oneModel(ctx, `patternProperties ${JSON.stringify(Object.keys(pattern)).slice(0, 200)}`, wrapped);
}

/** `required` naming prototype members, absent properties, duplicates, non-strings. */
function required(ctx: Ctx) {
  const { rng, plant } = ctx;
  const lists: unknown[][] = [
    ['toString'],
    ['__proto__'],
    ['constructor'],
    ['hasOwnProperty', 'valueOf'],
    ['prompt', 'prompt'],
    [''],
    [plant.key()],
    ['missing'],
    [1],
    [null],
    [],
    ['prompt', { x: 1 }],
  ];
  const req = rng.pick(lists);
  const props = obj([
    ['prompt', { type: 'string' }],
    ...(rng.chance(0.5) ? ([[String(req[0] ?? 'x'), { type: 'string' }]] as const) : []),
  ]);
  const schema = obj([
    ['type', 'object'],
    ['properties', props],
    ['required', req],
  ]);
  const nested = rng.chance(0.3) ? objectSchema({ prompt: { type: 'string' }, inner: schema }, ['inner']) : schema;
  return oneModel(ctx, `required ${JSON.stringify(req)}`, nested);
}

/** Enums: paths and globs, mixed types, empty, huge, duplicates, hostile values, `const`. */
function enums(ctx: Ctx) {
  const { rng, plant } = ctx;
  const choices: Array<() => unknown[]> = [
    () => ['C:\\', 'image/*'],
    () => ['*/', '/*', 'a*/b'],
    () => [1, 'a', null, true, {}, [], 2.5],
    () => [],
    () => Array.from({ length: rng.logInt(300, 5000) }, (_, i) => `v${i}`),
    () => Array.from({ length: rng.logInt(100, 2000) }, (_, i) => i * 3),
    () => ['a', 'a', 'b'],
    () => [plant.text(), plant.text(), plant.text()],
    () => ['', ' ', '\n', '\u2028'],
    () => [1e308, -1e308, 5e-324, -0, 0.1],
    () => [{ a: plant.text() }, [plant.text()]],
    () => ['__proto__', 'constructor', 'toString'],
  ];
  const values = rng.pick(choices)();
  const p: Record<string, unknown> = { enum: values };
  if (rng.chance(0.5)) p['type'] = rng.pick(['string', 'integer', 'number', ['string', 'null'], 'array']);
  if (rng.chance(0.4)) p['default'] = rng.chance(0.5) && values.length > 0 ? values[0] : plant.text();
  if (rng.chance(0.3)) p['description'] = plant.text();
  const props = obj([
    ['prompt', { type: 'string' }],
    ['choice', p],
  ]);
  if (rng.chance(0.4))
    setKey(props, 'fixed', { const: rng.pick([plant.text(), 42, null, { k: plant.text() }, ['x'], true]) });
  return oneModel(
    ctx,
    `enum of ${values.length} values ${JSON.stringify(values).slice(0, 120)}`,
    objectSchema(props, rng.chance(0.3) ? ['choice'] : []),
  );
}

/** Defaults, examples and bounds of every type and magnitude. */
function values(ctx: Ctx) {
  const { rng, plant } = ctx;
  const any = () =>
    rng.pick<unknown>([
      plant.text(),
      1e308,
      -1e308,
      5e-324,
      -0,
      // eslint-disable-next-line no-loss-of-precision -- a literal beyond 2^53 on purpose
      9007199254740993,
      null,
      true,
      [],
      {},
      [plant.text()],
      { a: { b: plant.text() } },
      '',
    ]);
  const p: Record<string, unknown> = { type: rng.pick(['integer', 'number', 'string', 'boolean', 'array', 'object']) };
  for (const k of [
    'default',
    'examples',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
  ]) {
    if (!rng.chance(0.35)) continue;
    p[k] =
      k === 'examples'
        ? [any(), any()]
        : k === 'default'
          ? any()
          : rng.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, true, '5', null]);
  }
  if (rng.chance(0.2)) Object.assign(p, { minimum: 10, maximum: 1 });
  return oneModel(
    ctx,
    `values ${JSON.stringify(p).slice(0, 200)}`,
    objectSchema({ prompt: { type: 'string' }, value: p }),
  );
}

/** Nesting 1..1500 levels deep through properties, items, allOf, anyOf, additionalProperties or not. */
function nesting(ctx: Ctx) {
  const { rng, plant } = ctx;
  const depth = rng.logInt(1, 1500);
  const via = rng.pick(['properties', 'items', 'allOf', 'anyOf', 'additionalProperties', 'not', 'mixed']);
  let s: Record<string, unknown> = { type: 'string', description: plant.text() };
  for (let i = 0; i < depth; i++) {
    const how =
      via === 'mixed' ? rng.pick(['properties', 'items', 'allOf', 'anyOf', 'additionalProperties', 'not']) : via;
    if (how === 'properties') s = objectSchema({ [`k${i}`]: s }, rng.chance(0.3) ? [`k${i}`] : []);
    else if (how === 'items') s = { type: 'array', items: s };
    else if (how === 'allOf') s = { allOf: [s] };
    else if (how === 'anyOf') s = { anyOf: [s, { type: 'null' }] };
    else if (how === 'additionalProperties') s = { type: 'object', additionalProperties: s };
    else s = { not: s };
  }
  return oneModel(ctx, `nesting depth ${depth} via ${via}`, objectSchema({ prompt: { type: 'string' }, deep: s }));
}

/** `$ref`: local, `$defs`/`definitions`, recursive, remote, malformed, dangling; `$id`, `$anchor`, `$dynamicRef`. */
function refs(ctx: Ctx) {
  const { rng, plant } = ctx;
  const refTargets = [
    '#/$defs/A',
    '#/definitions/A',
    '#',
    '#/properties/prompt',
    '#/$defs/Loop',
    'https://example.com/schema.json',
    'http://169.254.169.254/latest/meta-data/',
    'file:///etc/passwd',
    'other.json#/x',
    '//evil.example/x',
    '#/%zz',
    '#/$defs/%41',
    '#/a~2',
    '#a',
    '#/definitions/',
    '#/$defs/Missing',
    '',
    plant.text(),
    5,
    null,
    {},
  ];
  // Half the cases use only valid, non-recursive local references (these must generate).
  const valid = rng.chance(0.5);
  const ref = valid
    ? rng.pick(['#/$defs/A', '#/definitions/A', '#/$defs/Hostile', '#/properties/prompt'])
    : rng.pick(refTargets);
  const hostileKey = plant.key();
  const defs = obj([
    ['A', { type: 'string', description: plant.text() }],
    ['Hostile', { type: 'object', properties: obj([[hostileKey, { type: 'integer', description: plant.text() }]]) }],
    ...(valid
      ? []
      : ([
          ['Loop', objectSchema({ next: { $ref: '#/$defs/Loop' }, value: { type: 'string' } })],
          ['B', { $ref: '#/$defs/C' }],
          ['C', { $ref: '#/$defs/B' }],
        ] as const)),
  ]);
  const param: Record<string, unknown> = { $ref: ref };
  if (rng.chance(0.3)) Object.assign(param, { description: plant.text(), type: 'string' });
  const entries: Array<[string, unknown]> = [
    ['type', 'object'],
    [
      'properties',
      obj([
        ['prompt', { type: 'string' }],
        ['value', param],
        ...(!valid && rng.chance(0.3) ? ([['loop', { $ref: '#/$defs/B' }]] as const) : []),
      ]),
    ],
  ];
  entries.push(['$defs', defs]);
  entries.push(['definitions', obj([['A', { type: rng.pick(['number', 'string']), description: plant.text() }]])]);
  if (valid) return oneModel(ctx, `$ref ${JSON.stringify(ref)} (valid)`, obj(entries));
  if (rng.chance(0.25))
    entries.push(['$id', rng.pick(['https://example.com/root.json', plant.text(), 'urn:x', '#frag', 7])]);
  if (rng.chance(0.15)) param['$id'] = rng.pick(['https://example.com/nested.json', 'nested.json', plant.text()]);
  if (rng.chance(0.1)) param['$anchor'] = rng.pick(['a', plant.text()]);
  if (rng.chance(0.1)) param['$dynamicRef'] = '#meta';
  if (rng.chance(0.1)) param['$recursiveRef'] = '#';
  return oneModel(ctx, `$ref ${JSON.stringify(ref)}`, obj(entries));
}

/** `$schema` naming other dialects, or not a dialect URL at all; draft-04 style keywords. */
function dialects(ctx: Ctx) {
  const { rng, plant } = ctx;
  const dialect = rng.pick<unknown>([
    'http://json-schema.org/draft-04/schema#',
    'http://json-schema.org/draft-06/schema#',
    'http://json-schema.org/draft-07/schema#',
    'https://json-schema.org/draft-07/schema',
    'https://json-schema.org/draft/2019-09/schema',
    'https://json-schema.org/draft/2020-12/schema',
    'http://json-schema.org/schema#',
    'https://spec.openapis.org/oas/3.1/dialect/base',
    'https://example.com/my-dialect',
    plant.text(),
    '',
    5,
    null,
  ]);
  const schema = objectSchema({
    prompt: { type: 'string' },
    n: rng.chance(0.4) ? { type: 'number', minimum: 0, exclusiveMinimum: true } : { type: 'integer' },
    maybe: rng.chance(0.4) ? { type: 'string', nullable: true } : { type: 'string' },
  });
  schema['$schema'] = dialect;
  if (rng.chance(0.2)) schema['id'] = 'http://example.com/draft4-id';
  if (rng.chance(0.2)) schema['$vocabulary'] = { 'https://example.com/vocab': true };
  if (rng.chance(0.2))
    (schema['properties'] as Record<string, Record<string, unknown>>)['prompt']!['$schema'] = dialect;
  return oneModel(ctx, `$schema ${JSON.stringify(dialect)}`, schema);
}

/** Type arrays and the combinators: allOf/anyOf/oneOf/not/if/then/else, const, boolean schemas, tuples. */
function combinators(ctx: Ctx) {
  const { rng, plant } = ctx;
  const s = () => simpleSchema(ctx, 1);
  const options: Array<() => unknown> = [
    () => ({
      type: rng.pick([
        ['integer', 'string'],
        ['null'],
        [],
        ['object', 'array'],
        ['string', 'string'],
        ['foo'],
        ['integer', 'null', 'boolean'],
      ]),
    }),
    () => ({ allOf: rng.pick([[], [s()], [s(), s()], [{ type: 'string' }, { type: 'integer' }]]) }),
    () => ({ anyOf: rng.pick([[], [s()], [s(), s(), { type: 'null' }]]) }),
    () => ({ oneOf: [s(), s()] }),
    () => ({ not: s() }),
    () => ({ if: { type: 'string' }, then: { minLength: 1 }, else: { type: 'integer' } }),
    () => ({ const: rng.pick([plant.text(), 1, null, [1], { a: 1 }]) }),
    () => rng.pick([true, false]),
    () => ({ type: 'array', items: [s(), s()], additionalItems: rng.pick([false, s()]) }),
    () => ({ type: 'array', prefixItems: [s()], contains: s(), unevaluatedItems: false }),
    () => ({
      type: 'object',
      properties: { a: s() },
      unevaluatedProperties: false,
      dependentSchemas: { a: { required: ['b'] } },
    }),
    () => ({ type: 'string', nullable: true, description: plant.text() }),
    () => ({ anyOf: [{ $ref: '#/properties/prompt' }, { type: 'integer' }] }),
  ];
  const props = obj([['prompt', { type: 'string' }]]);
  for (let i = rng.int(1, 4); i > 0; i--) setKey(props, `p${i}`, rng.pick(options)());
  const root = objectSchema(props, rng.chance(0.4) ? ['p1'] : []);
  if (rng.chance(0.2)) root['allOf'] = [{ required: ['prompt'] }];
  if (rng.chance(0.1))
    root['oneOf'] = [objectSchema({ a: { type: 'string' } }), objectSchema({ b: { type: 'string' } })];
  return oneModel(
    ctx,
    `combinators ${JSON.stringify(props).slice(0, 200)}`,
    root,
    rng.chance(0.1) ? 'chat' : undefined,
  );
}

/** Schemas that are not valid JSON Schema. */
function invalidSchema(ctx: Ctx) {
  const { rng, plant } = ctx;
  const broken: Array<() => [string, unknown]> = [
    () => ['type', rng.pick([5, 'foo', {}, null, true])],
    () => ['properties', rng.pick([[], 'x', 5, null, [{ type: 'string' }]])],
    () => ['required', rng.pick(['x', 5, { a: 1 }, null])],
    () => ['items', rng.pick([3, 'x', null])],
    () => ['enum', rng.pick([{}, 'x', 5, null])],
    () => ['minimum', rng.pick(['a', null, {}])],
    () => ['maxLength', rng.pick([-1, 1.5, 'x'])],
    () => ['additionalProperties', rng.pick(['x', 5, null])],
    () => ['pattern', rng.pick(['(', '[', '\\', 5, plant.text()])],
    () => ['format', rng.pick([5, null, {}])],
    () => ['description', rng.pick([5, {}, [], null])],
    () => ['allOf', rng.pick([{}, 'x', [5], null])],
    () => ['$ref', rng.pick([5, null, {}])],
    () => ['x-order', rng.pick(['x', {}, null])],
  ];
  const [k, v] = rng.pick(broken)();
  const where = rng.int(0, 2);
  let schema: Record<string, unknown>;
  if (where === 0) {
    schema = objectSchema({ prompt: { type: 'string' } });
    setKey(schema, k, v);
  } else {
    const p: Record<string, unknown> = { type: 'string' };
    setKey(p, k, v);
    schema = objectSchema({ prompt: { type: 'string' }, bad: where === 1 ? p : rng.pick([null, 5, 'str', [], true]) });
  }
  return oneModel(ctx, `invalid ${where === 0 ? 'root' : 'parameter'} ${k}: ${JSON.stringify(v)}`, schema);
}

/** Request schemas that are not object schemas, and both schema fields at once. */
function requestShape(ctx: Ctx) {
  const { rng } = ctx;
  const shapes: unknown[] = [
    [],
    'string',
    42,
    true,
    false,
    { type: 'string' },
    { type: 'array', items: { type: 'string' } },
    {},
    { type: 'object' },
    { properties: {} },
    { type: 'object', properties: {}, additionalProperties: false },
    { type: ['object', 'null'], properties: { prompt: { type: 'string' } } },
  ];
  const shape = rng.pick(shapes);
  const c = oneModel(ctx, `request schema ${JSON.stringify(shape)}`, shape, rng.chance(0.3) ? 'chat' : undefined);
  if (rng.chance(0.4)) {
    const m = c.files[0]!.content as Record<string, unknown>;
    const other = schemaField(m) === 'request_schema' ? 'json_request_schema' : 'request_schema';
    m[other] = rng.pick([null, shape, objectSchema({ other: { type: 'integer' } })]);
    c.note += ` and ${other} ${JSON.stringify(m[other])}`;
  }
  return c;
}

export const SCHEMA_FAMILIES: readonly Family[] = [
  {
    name: 'strings',
    about:
      'hostile text (comment/string/template terminators, line and paragraph separators, sentinels) in descriptions, titles, formats, patterns, defaults, examples, enum values, display_name',
    build: hostileStrings,
  },
  {
    name: 'keys',
    about:
      'property names: [k: string], __proto__, constructor, toString, empty, numeric, very long, sentinels; required and nested',
    build: hostileKeys,
  },
  {
    name: 'pattern-properties',
    about: 'patternProperties with hostile and invalid keys together with properties and additionalProperties',
    build: patternProperties,
  },
  {
    name: 'required',
    about: 'required: ["toString"], ["__proto__"], absent names, duplicates, non-strings',
    build: required,
  },
  {
    name: 'enums',
    about: 'enums ["C:\\\\", "image/*"], mixed types, empty, huge, duplicates, hostile values; const',
    build: enums,
  },
  { name: 'values', about: 'defaults, examples and bounds of every type and magnitude', build: values },
  {
    name: 'nesting',
    about: 'nesting depth 1..1500 through properties, items, allOf, anyOf, additionalProperties, not',
    build: nesting,
  },
  {
    name: 'refs',
    about: '$ref local, $defs/definitions, recursive, remote, malformed, dangling; $id, $anchor, $dynamicRef',
    build: refs,
  },
  {
    name: 'dialects',
    about: '$schema naming other dialects or not a URL; draft-04 keywords, nullable',
    build: dialects,
  },
  {
    name: 'combinators',
    about: 'type arrays, allOf/anyOf/oneOf/not/if/then/else, const, boolean schemas, tuples',
    build: combinators,
  },
  {
    name: 'invalid-schema',
    about: 'invalid JSON Schema: type: 5, properties: [], required: "x", parameter schema null ...',
    build: invalidSchema,
  },
  {
    name: 'request-shape',
    about: 'request schemas that are not object schemas; both request_schema and json_request_schema',
    build: requestShape,
  },
];
