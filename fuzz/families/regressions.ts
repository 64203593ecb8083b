/**
 * The `issue-8` family: each case is one of the exact inputs known to have broken the generator
 * (code injection through a patternProperties key, `[k: string]` property names, other
 * dialects, deep nesting, a carriage return in an id, `["C:\\", "image/*"]`, 246-250 character ids,
 * properties with patternProperties and additionalProperties, a chat model with a schema, ids with
 * `#`, `?`, `%` or a line feed, `__proto__` as an id and as a nested property, `required:
 * ["toString"]`), kept as regression cases next to the random families.
 */
import { obj, setKey } from '../case.ts';
import { objectSchema, oneModel, withSchema, type Ctx, type Family } from '../build.ts';

/** A schema nested `depth` levels through `properties`. */
function deepProperties(depth: number): Record<string, unknown> {
  let s: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) s = objectSchema({ [`k${i}`]: s });
  return s;
}

/** One model whose id is `id`, listed and written under that name. */
function withId(ctx: Ctx, note: string, id: string) {
  return {
    note,
    list: [id],
    files: [{ name: id, content: withSchema(ctx, objectSchema({ prompt: { type: 'string' } }), { id }) }],
  };
}

const PAYLOADS: Array<(ctx: Ctx) => { note: string; list: unknown; files: Array<{ name: string; content: unknown }> }> =
  [
    (ctx) => {
      const key = ctx.plant.numbered(
        'x*/y*/ } export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); export interface Z { /*',
      );
      return oneModel(
        ctx,
        'issue 8: the patternProperties key that injected code',
        obj([
          ['type', 'object'],
          ['patternProperties', obj([[key, { type: 'string' }]])],
        ]),
      );
    },
    (ctx) =>
      oneModel(
        ctx,
        'issue 8: a required property named [k: string]',
        objectSchema(
          obj([
            ['prompt', { type: 'string' }],
            ['[k: string]', { type: 'string' }],
          ]),
          ['[k: string]'],
        ),
      ),
    (ctx) =>
      oneModel(
        ctx,
        'issue 8: an optional property named [k: string]',
        objectSchema(
          obj([
            ['prompt', { type: 'string' }],
            ['[k: string]', { type: 'number' }],
          ]),
        ),
      ),
    (ctx) => {
      const s = objectSchema({ prompt: { type: 'string' } });
      s['$schema'] = ctx.rng.pick([
        'https://json-schema.org/draft/2020-12/schema',
        'https://json-schema.org/draft/2019-09/schema',
        'http://json-schema.org/draft-04/schema#',
      ]);
      return oneModel(ctx, `issue 8: $schema ${String(s['$schema'])}`, s);
    },
    (ctx) =>
      oneModel(
        ctx,
        'issue 8: nesting depth 1000',
        objectSchema({ prompt: { type: 'string' }, deep: deepProperties(1000) }),
      ),
    (ctx) =>
      oneModel(
        ctx,
        'issue 8: nesting depth 50',
        objectSchema({ prompt: { type: 'string' }, deep: deepProperties(50) }),
      ),
    (ctx) => withId(ctx, 'issue 8: a carriage return in the id', 'flux\r2'),
    (ctx) =>
      oneModel(
        ctx,
        'issue 8: enum ["C:\\\\", "image/*"]',
        objectSchema({ prompt: { type: 'string' }, path: { type: 'string', enum: ['C:\\', 'image/*'] } }),
      ),
    (ctx) => withId(ctx, 'issue 8: an id of 246-250 characters', 'm'.repeat(ctx.rng.int(246, 250))),
    (ctx) =>
      oneModel(ctx, 'issue 8: properties, patternProperties and additionalProperties together', {
        type: 'object',
        properties: { prompt: { type: 'string' }, n: { type: 'integer' } },
        patternProperties: { '^x-': { type: 'number' } },
        additionalProperties: { type: 'boolean' },
      }),
    (ctx) =>
      oneModel(
        ctx,
        'issue 8: a chat model whose schema is not null',
        objectSchema({ temperature: { type: 'number' }, prompt: { type: 'string' } }),
        'chat',
      ),
    (ctx) => withId(ctx, 'issue 8: # ? % or a line feed in the id', ctx.rng.pick(['a#b', 'a?b', 'a%2Fb', 'a\nb'])),
    (ctx) => withId(ctx, 'issue 8: the id __proto__', '__proto__'),
    (ctx) => {
      const inner: Record<string, unknown> = {};
      setKey(inner, '__proto__', { type: 'string' });
      return oneModel(
        ctx,
        'issue 8: a nested property named __proto__',
        objectSchema({ prompt: { type: 'string' }, options: objectSchema(inner, ['__proto__']) }),
      );
    },
    (ctx) =>
      oneModel(ctx, 'issue 8: required ["toString"]', objectSchema({ prompt: { type: 'string' } }, ['toString'])),
    (ctx) =>
      oneModel(
        ctx,
        'issue 8: a patternProperties key hasOwnProperty',
        obj([
          ['type', 'object'],
          ['patternProperties', obj([['hasOwnProperty', { type: 'string' }]])],
        ]),
      ),
    (ctx) =>
      oneModel(
        ctx,
        'issue 8: $ref "#/%zz" (URI malformed)',
        objectSchema({ prompt: { type: 'string' }, v: { $ref: '#/%zz' } }),
      ),
  ];

/** The payloads in turn (the n-th case of the family runs payload n mod their count). */
function regression(ctx: Ctx) {
  return PAYLOADS[ctx.ordinal % PAYLOADS.length]!(ctx);
}

export const REGRESSION_FAMILIES: readonly Family[] = [
  {
    name: 'issue-8',
    about:
      'the exact inputs issue 8 reports (injection key, [k: string], dialects, depth 50 and 1000, CR/#/?/%/LF/__proto__ ids, 246-250 character ids, C:\\\\ enum, chat model with a schema, ...)',
    build: regression,
  },
];
