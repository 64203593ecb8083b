/**
 * Regular expressions of a schema (`pattern`, `patternProperties` keys, `propertyNames`) run in the
 * generated validators on an app's users' input: one that can backtrack catastrophically is refused
 * at generation with a SpecError naming file, model and JSON pointer (stages/pattern-check.ts),
 * and ordinary ones still generate.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SpecError } from '../../generator/errors.ts';
import { generate } from '../../generator/index.ts';
import { checkModel } from '../../generator/stages/load.ts';
import { checkPatterns, patternProblem } from '../../generator/stages/pattern-check.ts';
import { MAX_PATTERN_LENGTH, MAX_PATTERNS } from '../../generator/stages/schema-check.ts';
import { fixtureModel, tempSpecs, type TempSpecs } from './helpers.ts';

let temps: TempSpecs[] = [];
afterEach(async () => {
  await Promise.all(temps.map((t) => t.cleanup()));
  temps = [];
});

const FILE = 'specs/models/m.json';
/** The two reasons of a refused pattern (which one depends on which of redos-detector's limits it reaches first). */
const REFUSED =
  /^pattern (?:can backtrack catastrophically|is too complex to prove that matching it takes time linear)/;
const REFUSED_KEY = /^a patternProperties key (?:can backtrack catastrophically|is too complex to prove)/;
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

/** The SpecError that load's checks (`checkModel`, then `checkPatterns`) throw for model `m` with this request schema, or undefined when it passes. */
async function refusal(schema: Record<string, unknown>): Promise<SpecError | undefined> {
  try {
    await checkPatterns(checkModel(fixtureModel('m', schema), 'm', FILE));
    return undefined;
  } catch (err) {
    if (err instanceof SpecError) return err;
    throw err;
  }
}

describe('patterns that backtrack catastrophically are refused at generation', () => {
  it('a prompt with pattern ^(a+)+$: generate throws a SpecError naming file, model and pointer, and writes nothing', async () => {
    const t = await tempSpecs(['flux-2-pro'], {
      'evil-pattern': fixtureModel('evil-pattern', object({ prompt: { type: 'string', pattern: '^(a+)+$' } })),
    });
    temps.push(t);
    const err = await generate({ specsDir: t.specsDir, outRoot: t.root }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SpecError);
    const e = err as SpecError;
    expect(e.file).toMatch(/specs\/models\/evil-pattern\.json$/);
    expect(e.model).toBe('evil-pattern');
    expect(e.pointer).toBe('/request_schema/properties/prompt/pattern');
    expect(e.problem).toMatch(REFUSED);
    expect(existsSync(path.join(t.root, 'generated'))).toBe(false);
  }, 120_000);

  it('the same as a patternProperties key, as a propertyNames pattern, nested and behind a $ref', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [
        object({ prompt: { type: 'string' } }, { patternProperties: { '^(a+)+$': { type: 'string' } } }),
        '/request_schema/patternProperties/^(a+)+$',
        REFUSED_KEY,
      ],
      [
        object({ tags: { type: 'object', patternProperties: { '^x-(\\w+\\s?)*$': {} } } }),
        '/request_schema/properties/tags/patternProperties/^x-(\\w+\\s?)*$',
        REFUSED_KEY,
      ],
      [
        object({ tags: { type: 'object', propertyNames: { pattern: '^(a|aa)+$' } } }),
        '/request_schema/properties/tags/propertyNames/pattern',
        REFUSED,
      ],
      [
        object({ v: { $ref: '#/definitions/V' } }, { definitions: { V: { type: 'string', pattern: '(x+x+)+y' } } }),
        '/request_schema/definitions/V/pattern',
        REFUSED,
      ],
      [
        object({ list: { type: 'array', items: { type: 'string', pattern: '\\s*$' } } }),
        '/request_schema/properties/list/items/pattern',
        REFUSED,
      ],
    ];
    for (const [schema, pointer, problem] of cases) {
      const e = await refusal(schema);
      expect(e, pointer).toBeInstanceOf(SpecError);
      expect(e!.file).toBe(FILE);
      expect(e!.model).toBe('m');
      expect(e!.pointer).toBe(pointer);
      expect(e!.problem).toMatch(problem);
    }
  });

  it('refuses exponential, polynomial and unanchored-quadratic patterns, the same way every time', () => {
    for (const p of [
      '^(a+)+$',
      '(a|a)*$',
      '^(a|aa)+$',
      '^(\\w+\\s?)*$',
      '^(([a-z])+.)+[A-Z]([a-z])+$',
      '^a*a*$',
      '\\d+\\.\\d+', // unanchored: each start scans to the end
      '[a-z]+@',
      '.*foo',
    ]) {
      const problem = patternProblem(p, 'pattern');
      expect(problem, p).toMatch(REFUSED);
      expect(patternProblem(p, 'pattern')).toBe(problem);
    }
  });

  it('ordinary patterns pass and generate', async () => {
    const ordinary = [
      '^[a-z0-9-]+$',
      '^\\d{4}-\\d{2}-\\d{2}$',
      '^(\\d{1,3}\\.){3}\\d{1,3}$',
      '^#[0-9a-fA-F]{6}$',
      '^\\d+:\\d+$',
      '^(?:1:1|16:9|9:16|4:3|3:4|21:9)$',
      '^https?://',
      '^(https?|s3|gs)://[^\\s]+$',
      '^data:([a-z]+/[a-z0-9.+-]+)?;base64,[A-Za-z0-9+/=]+$',
      '^v?\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$',
      '^[A-Za-z0-9_.-]{1,64}$',
      '^[\\p{L}\\p{N} ]+$',
      '^.{1,500}$',
      '^\\S+$',
      '^x-',
      '.*',
    ];
    for (const p of ordinary) expect(patternProblem(p, 'pattern'), p).toBeUndefined();
    const t = await tempSpecs([], {
      'plain-patterns': fixtureModel(
        'plain-patterns',
        object(Object.fromEntries(ordinary.map((pattern, i) => [`p${i}`, { type: 'string', pattern }])), {
          patternProperties: { '^x-[a-z]+$': { type: 'string' } },
        }),
      ),
    });
    temps.push(t);
    const r = await generate({ specsDir: t.specsDir, outRoot: t.root, check: true });
    expect(r.files.has('generated/validators/plain-patterns.ts')).toBe(true);
  }, 120_000);

  it('refuses what it cannot analyse, a pattern over the length limit, and too many patterns', async () => {
    expect((await refusal(object({ a: { type: 'string', pattern: '^(?<w>\\d+)x(?<h>\\d+)$' } })))!.problem).toMatch(
      /^pattern uses syntax that the backtracking check cannot analyse/,
    );
    // the length and the number are checked by checkModel itself, before any pattern is analysed
    expect(
      (await refusal(object({ a: { type: 'string', pattern: 'x'.repeat(MAX_PATTERN_LENGTH + 1) } })))!.problem,
    ).toMatch(/^pattern of 1001 characters: longer than the 1000 supported/);
    const many = Object.fromEntries(
      Array.from({ length: MAX_PATTERNS + 1 }, (_, i) => [`p${i}`, { type: 'string', pattern: `^p${i}$` }]),
    );
    const e = (await refusal(object(many)))!;
    expect(e.problem).toBe(`more than ${MAX_PATTERNS} distinct patterns in one schema: not supported`);
    expect(e.pointer).toMatch(/^\/request_schema\/properties\/p\d+\/pattern$/);
    // the same pattern many times counts once
    const same = Object.fromEntries(
      Array.from({ length: MAX_PATTERNS + 5 }, (_, i) => [`p${i}`, { type: 'string', pattern: '^[a-z]+$' }]),
    );
    expect(await refusal(object(same))).toBeUndefined();
  });

  it('lets the event loop turn before each check, so that redos-detector frees the memory of the last one', async () => {
    // distinct patterns, seen by no other test of this process (verdicts are kept per pattern)
    const patterns = Array.from({ length: 4 }, (_, i) => `^turn${i}-[a-z]+(?:\\.[a-z]+)*$`);
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const before = turns;
    try {
      expect(
        await refusal(object(Object.fromEntries(patterns.map((pattern, i) => [`p${i}`, { type: 'string', pattern }])))),
      ).toBeUndefined();
    } finally {
      running = false;
    }
    expect(turns - before).toBeGreaterThanOrEqual(patterns.length);
  });
});
