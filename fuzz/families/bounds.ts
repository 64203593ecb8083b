/**
 * Families for the generator's bounds and display safety: oversized model objects (enums, arrays,
 * property counts, descriptions and strings at and past the caps of `generator/stages/schema-check.ts`,
 * duplicate enum values), bidirectional-text controls in every kind of model text, and property
 * names that are equal after Unicode normalization or look alike. A case passes when it generates
 * (with no raw bidi control in any output: `fuzz/run.ts` checks) or is refused with a named error.
 */
import { objectSchema, oneModel, type Ctx, type Family } from '../build.ts';
import {
  MAX_ARRAY_ITEMS,
  MAX_ENUM_VALUES,
  MAX_OBJECT_KEYS,
  MAX_STRING_LENGTH,
  MAX_TEXT_LENGTH,
} from '../../generator/stages/schema-check.ts';

/** A size near a cap: well under, at, just over, or far over it. */
function nearCap(ctx: Ctx, cap: number): number {
  return ctx.rng.pick([Math.floor(cap / 10), cap, cap + 1, cap * ctx.rng.int(2, 20)]);
}

function oversized(ctx: Ctx) {
  const { rng } = ctx;
  const kind = rng.pick(['enum', 'duplicate-enum', 'array', 'properties', 'description', 'string', 'key'] as const);
  const prompt = { prompt: { type: 'string' } };
  switch (kind) {
    case 'enum': {
      const n = nearCap(ctx, MAX_ENUM_VALUES);
      return oneModel(
        ctx,
        `an enum of ${n} values`,
        objectSchema({ ...prompt, choice: { type: 'string', enum: Array.from({ length: n }, (_, i) => `v${i}`) } }),
      );
    }
    case 'duplicate-enum': {
      const n = rng.int(2, MAX_ENUM_VALUES);
      const values: unknown[] = Array.from({ length: n }, (_, i) => ({ i, tag: `t${i}` }));
      values.push({ tag: `t${rng.int(0, n - 1)}`, i: 0 }); // key order differs; equal or not to value 0
      return oneModel(
        ctx,
        `an enum of ${n + 1} objects, the last possibly repeating one`,
        objectSchema({ ...prompt, choice: { enum: values } }),
      );
    }
    case 'array': {
      const n = nearCap(ctx, MAX_ARRAY_ITEMS);
      return oneModel(
        ctx,
        `examples of ${n} items`,
        objectSchema({ prompt: { type: 'string', examples: Array.from({ length: n }, (_, i) => `e${i}`) } }),
      );
    }
    case 'properties': {
      const n = nearCap(ctx, MAX_OBJECT_KEYS);
      return oneModel(
        ctx,
        `${n} properties`,
        objectSchema(Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'integer' }]))),
      );
    }
    case 'description': {
      const n = nearCap(ctx, MAX_TEXT_LENGTH);
      const c = oneModel(
        ctx,
        `a description of ${n} characters`,
        objectSchema({ prompt: { type: 'string', description: 'd'.repeat(n) } }),
      );
      if (rng.chance(0.5)) (c.files[0]!.content as Record<string, unknown>)['description'] = 'm'.repeat(n);
      return c;
    }
    case 'string': {
      const n = nearCap(ctx, MAX_STRING_LENGTH);
      return oneModel(
        ctx,
        `a default of ${n} characters`,
        objectSchema({ prompt: { type: 'string', default: 's'.repeat(n) } }),
      );
    }
    case 'key': {
      const n = nearCap(ctx, MAX_STRING_LENGTH);
      return oneModel(
        ctx,
        `a property name of ${n} characters`,
        objectSchema({ ...prompt, ['k'.repeat(n)]: { type: 'string' } }),
      );
    }
  }
}

const BIDI = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
];

/** Text that hides code behind bidi controls ("Trojan Source"), with a sentinel. */
function trojan(ctx: Ctx): string {
  const c = () => ctx.rng.pick(BIDI);
  return ctx.rng.pick([
    `admin${c()} ${c()}// check later${c()} ${c()}`,
    `${c()}*/ ${ctx.plant.text()} /*${c()}`,
    `"${c()};${c()}"`,
    `${c()}${ctx.plant.text()}${c()}`,
  ]);
}

function bidi(ctx: Ctx) {
  const { rng } = ctx;
  const where = rng.pickMany(
    ['description', 'enum', 'default', 'key', 'pattern', 'title', 'display_name', 'model description'],
    rng.int(1, 4),
  );
  const prop: Record<string, unknown> = { type: 'string' };
  const props: Record<string, unknown> = { prompt: prop };
  if (where.includes('description')) prop['description'] = trojan(ctx);
  if (where.includes('title')) prop['title'] = trojan(ctx);
  if (where.includes('default')) prop['default'] = trojan(ctx);
  if (where.includes('pattern')) prop['pattern'] = `^[^${rng.pick(BIDI)}]*$`;
  if (where.includes('enum')) props['choice'] = { type: 'string', enum: [trojan(ctx), 'plain'] };
  if (where.includes('key')) props[`name${rng.pick(BIDI)}x`] = { type: 'string' };
  const c = oneModel(ctx, `bidi controls in ${[...new Set(where)].join(', ')}`, objectSchema(props, ['prompt']));
  const m = c.files[0]!.content as Record<string, unknown>;
  if (where.includes('display_name')) m['display_name'] = trojan(ctx);
  if (where.includes('model description')) m['description'] = trojan(ctx);
  return c;
}

/** Pairs of names that read the same: normalization forms, compatibility forms, look-alike letters, invisible characters. */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['caf\u00e9', 'cafe\u0301'],
  ['seed', '\uFF53eed'],
  ['prompt', 'pr\u043Empt'],
  ['scale', '\u0455cale'],
  ['width', 'wid\u200Bth'],
  ['image', 'im\u0430ge'],
  ['steps', 'step\u0455'],
  ['num_images', 'num_irnages'],
  ['guidance', 'guidance_scale'], // distinct: generates
];

function lookAlike(ctx: Ctx) {
  const [a, b] = ctx.rng.pick(PAIRS);
  const nested = ctx.rng.chance(0.3);
  const pair = { [a]: { type: 'string' }, [b]: { type: 'integer' } };
  const schema = nested
    ? objectSchema({ prompt: { type: 'string' }, options: objectSchema(pair) })
    : objectSchema({ prompt: { type: 'string' }, ...pair });
  return oneModel(
    ctx,
    `property names ${JSON.stringify(a)} and ${JSON.stringify(b)}${nested ? ' (nested)' : ''}`,
    schema,
  );
}

export const BOUNDS_FAMILIES: readonly Family[] = [
  {
    name: 'oversized',
    about:
      'enums, arrays, property counts, descriptions, strings and keys under, at and over the caps; duplicate enum objects',
    build: oversized,
  },
  {
    name: 'bidi',
    about:
      'bidirectional controls (U+202A-E, U+2066-9, U+200E/F, U+061C) in descriptions, titles, defaults, patterns, enum values, keys, display_name',
    build: bidi,
  },
  {
    name: 'look-alike',
    about:
      'property names equal after NFC/NFKC or look-alike (Cyrillic, fullwidth, zero-width, rn/m), top-level and nested',
    build: lookAlike,
  },
];
