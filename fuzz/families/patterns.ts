/**
 * Families of the regular expressions and formats that generated validators run on an app's users'
 * input: patterns that backtrack catastrophically (exponential or polynomial time), which the
 * generator must refuse (a validator made from one is slow on the fuzzer's hostile input, see
 * `fuzz/adversarial.ts`), and ordinary patterns and every format, which must stay fast.
 */
import { obj } from '../case.ts';
import { objectSchema, oneModel, type Ctx, type Family, type Kind } from '../build.ts';

/** Atoms that the templates repeat: one character, or a class. */
const ATOMS = ['a', '\\d', '\\w', '[a-z]', '.', '\\s', '[0-9a-f]'];

/**
 * Patterns with nested or overlapping repetition (`A` is an atom): each takes over 100 ms in V8 on
 * an input of 24 characters (the exponential ones) to 10 KB (the polynomial ones) made of the
 * atom's characters and one that breaks the match.
 */
const DANGEROUS: readonly string[] = [
  '^(A+)+$',
  '^(A*)*$',
  '^(A|A)*$',
  '^(A|AA)+$',
  '(A+)+!',
  '^(A+A+)+$',
  '^(A+)*z',
  '(?:A+){2,}$',
  '^(?:A|A?)+$',
  '^A*A*$',
  'A*A*A*$',
  'A*$',
  '^(A+)+(?:x|y)$',
  '^(A+,?)+$',
];

/** Patterns of real-looking schemas: matched in linear time, so they generate. */
const ORDINARY: readonly string[] = [
  '^[a-z0-9-]+$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^#[0-9a-fA-F]{6}$',
  '^\\d+:\\d+$',
  '^(?:1:1|16:9|9:16|4:3|3:4)$',
  '^https?://',
  '^[A-Za-z0-9_.-]{1,64}$',
  '^data:image/[a-z]+;base64,',
  '^\\S+$',
  '^v?\\d+\\.\\d+\\.\\d+$',
];

/** The formats a schema can name: ajv-formats' (the generator checks those that are regular expressions, and `url`), and some it ignores. */
const FORMATS: readonly string[] = [
  'url',
  'uri',
  'uri-reference',
  'uri-template',
  'email',
  'hostname',
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'ipv4',
  'ipv6',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'regex',
  'byte',
  'idn-email',
  'iri',
];

/**
 * A request schema with `check` (a string schema's keyword, e.g. `{ pattern }`) at one random place:
 * a top-level property, a nested one, array items, behind a `$ref`, in `allOf`; or, for a pattern,
 * as a `patternProperties` key or a `propertyNames` pattern.
 */
function placed(ctx: Ctx, check: Record<string, unknown>): { schema: Record<string, unknown>; where: string } {
  const { rng } = ctx;
  const leaf = { type: 'string', ...check };
  const pattern = typeof check['pattern'] === 'string' ? check['pattern'] : undefined;
  const where = rng.pick([
    'property',
    'nested',
    'items',
    '$ref',
    'allOf',
    ...(pattern !== undefined ? ['patternProperties', 'propertyNames'] : []),
  ]);
  const prompt = { type: 'string' };
  switch (where) {
    case 'nested':
      return { schema: objectSchema({ prompt, options: objectSchema({ value: leaf }) }), where };
    case 'items':
      return { schema: objectSchema({ prompt, values: { type: 'array', items: leaf } }), where };
    case '$ref':
      return {
        schema: {
          ...objectSchema({ prompt, value: { $ref: '#/definitions/Checked' } }),
          definitions: { Checked: leaf },
        },
        where,
      };
    case 'allOf':
      return { schema: objectSchema({ prompt, value: { allOf: [{ type: 'string' }, leaf] } }), where };
    case 'patternProperties':
      return {
        schema: objectSchema({
          prompt,
          tags: { type: 'object', patternProperties: obj([[pattern!, { type: 'string' }]]) },
        }),
        where,
      };
    case 'propertyNames':
      return { schema: objectSchema({ prompt, tags: { type: 'object', propertyNames: { pattern } } }), where };
    default:
      return { schema: objectSchema({ prompt: leaf }, rng.chance(0.5) ? ['prompt'] : []), where };
  }
}

/** A kind of model served by the queue: the SDK validates its requests, so its validator is generated. */
const queued = (ctx: Ctx): Kind => ctx.rng.pick(['image-generate', 'image-edit', 'video'] as Kind[]);

function dangerousPatterns(ctx: Ctx) {
  const { rng } = ctx;
  const pattern = rng.pick(DANGEROUS).replaceAll('A', rng.pick(ATOMS));
  const { schema, where } = placed(ctx, { pattern });
  return oneModel(ctx, `backtracking pattern ${JSON.stringify(pattern)} (${where})`, schema, queued(ctx));
}

function formats(ctx: Ctx) {
  const { rng } = ctx;
  const r = rng.float();
  // `url` most: its regular expression backtracked (now the runtime's isUrl)
  const check = r < 0.3 ? { format: 'url' } : r < 0.7 ? { format: rng.pick(FORMATS) } : { pattern: rng.pick(ORDINARY) };
  const { schema, where } = placed(ctx, check);
  return oneModel(ctx, `${JSON.stringify(check)} (${where})`, schema, queued(ctx));
}

export const PATTERN_FAMILIES: readonly Family[] = [
  {
    name: 'backtracking-patterns',
    about:
      'patterns that backtrack catastrophically (^(a+)+$, (a|a)*, a*a*a*$, ...) as a pattern, a patternProperties key or propertyNames, at any depth: must be refused',
    build: dangerousPatterns,
  },
  {
    name: 'formats',
    about:
      'every format (url, uri, email, date-time, ...) and ordinary patterns at any depth: validators fast on hostile input',
    build: formats,
  },
];
