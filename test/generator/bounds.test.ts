/**
 * The generator bounds its work and always exits: oversized model objects are refused by caps with
 * a SpecError (file, model, JSON pointer) before any library sees them, enum uniqueness is checked
 * in linear time, and a build-stage SpecError ends `npm run generate` (no job queue is left
 * running once the formatter is closed).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../generator/cli/exit-codes.ts';
import { SpecError } from '../../generator/errors.ts';
import { checkModel } from '../../generator/stages/load.ts';
import {
  MAX_ARRAY_ITEMS,
  MAX_ENUM_VALUES,
  MAX_JSON_VALUES,
  MAX_MODEL_BYTES,
  MAX_OBJECT_KEYS,
  MAX_STRING_LENGTH,
  MAX_TEXT_LENGTH,
} from '../../generator/stages/schema-check.ts';
import { JobQueue } from '../../generator/stages/job-queue.ts';
import { compileHere } from '../../generator/stages/validators.ts';
import { fixtureModel, tempSpecs, type TempSpecs } from './helpers.ts';
import { hashTree, REPO_ROOT, run } from '../support/index.ts';

let temps: TempSpecs[] = [];
afterEach(async () => {
  await Promise.all(temps.map((t) => t.cleanup()));
  temps = [];
});

const FILE = 'specs/models/m.json';
const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

function refused(model: unknown): SpecError {
  let err: unknown;
  try {
    checkModel(model, 'm', FILE);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(SpecError);
  const e = err as SpecError;
  expect([e.file, e.model]).toEqual([FILE, 'm']);
  return e;
}

describe('caps refuse oversized model objects with a SpecError naming file, model and pointer', () => {
  it('an enum of 100,000 values (and one just over the cap); the cap itself is accepted', () => {
    const big = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    const e = refused(fixtureModel('m', schema({ a: { type: 'string', enum: big } })));
    expect(e.pointer).toBe('/request_schema/properties/a/enum');
    expect(e.problem).toBe(`an enum of 100000 values: more than the ${MAX_ENUM_VALUES} supported`);
    expect(refused(fixtureModel('m', schema({ a: { enum: big.slice(0, MAX_ENUM_VALUES + 1) } }))).pointer).toBe(
      '/request_schema/properties/a/enum',
    );
    expect(() =>
      checkModel(fixtureModel('m', schema({ a: { enum: big.slice(0, MAX_ENUM_VALUES) } })), 'm', FILE),
    ).not.toThrow();
  });
  it('duplicate enum values, compared as canonical JSON (object key order does not matter)', () => {
    const e = refused(fixtureModel('m', schema({ a: { enum: [{ x: 1, y: [2] }, 'b', { y: [2], x: 1 }] } })));
    expect([e.pointer, e.problem]).toEqual([
      '/request_schema/properties/a/enum/2',
      'enum value 2 repeats value 0: enum values must be unique',
    ]);
    // 1,000 distinct objects: accepted (the check is linear, not pairwise)
    expect(() =>
      checkModel(
        fixtureModel('m', schema({ a: { enum: Array.from({ length: MAX_ENUM_VALUES }, (_, i) => ({ i })) } })),
        'm',
        FILE,
      ),
    ).not.toThrow();
  });
  it('an array over the cap (anywhere in the object)', () => {
    const e = refused(
      fixtureModel(
        'm',
        schema({ a: { type: 'string', examples: Array.from({ length: MAX_ARRAY_ITEMS + 1 }, () => 'x') } }),
      ),
    );
    expect([e.pointer, e.problem]).toEqual([
      '/request_schema/properties/a/examples',
      `an array of ${MAX_ARRAY_ITEMS + 1} values: more than the ${MAX_ARRAY_ITEMS} supported`,
    ]);
  });
  it('21,000 properties', () => {
    const props = Object.fromEntries(Array.from({ length: 21_000 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const e = refused(fixtureModel('m', schema(props)));
    expect([e.pointer, e.problem]).toEqual([
      '/request_schema/properties',
      `an object of 21000 keys (properties): more than the ${MAX_OBJECT_KEYS} supported`,
    ]);
  });
  it('too many values in all (many objects, each under the per-object cap)', () => {
    const props = Object.fromEntries(
      Array.from({ length: 900 }, (_, i) => [
        `p${i}`,
        { type: 'string', enum: Array.from({ length: 60 }, (_, j) => `v${j}`) },
      ]),
    );
    expect(refused(fixtureModel('m', schema(props))).problem).toBe(
      `the model object holds more than ${MAX_JSON_VALUES} values: not supported`,
    );
  });
  it('a 50 MB description, a long property description, a long string and a long key', () => {
    const e = refused(fixtureModel('m', null, { description: 'd'.repeat(50 * 1024 * 1024) }));
    expect([e.pointer, e.problem]).toEqual([
      '/description',
      `a string of ${50 * 1024 * 1024} characters: longer than the ${MAX_TEXT_LENGTH} supported for description`,
    ]);
    expect(
      refused(fixtureModel('m', schema({ a: { type: 'string', description: 'd'.repeat(MAX_TEXT_LENGTH + 1) } })))
        .pointer,
    ).toBe('/request_schema/properties/a/description');
    expect(
      refused(fixtureModel('m', schema({ a: { type: 'string', default: 'x'.repeat(MAX_STRING_LENGTH + 1) } }))).pointer,
    ).toBe('/request_schema/properties/a/default');
    const key = 'k'.repeat(MAX_STRING_LENGTH + 1);
    const e2 = refused(fixtureModel('m', schema({ [key]: { type: 'string' } })));
    expect(e2.problem).toBe(
      `a key of ${MAX_STRING_LENGTH + 1} characters: longer than the ${MAX_STRING_LENGTH} supported`,
    );
    // the largest accepted description is accepted
    expect(() =>
      checkModel(fixtureModel('m', null, { description: 'd'.repeat(MAX_TEXT_LENGTH) }), 'm', FILE),
    ).not.toThrow();
  });
  it('a snapshot file over the byte cap is refused before it is parsed', { timeout: 60_000 }, async () => {
    const t = await tempSpecs([], { m: `${JSON.stringify(fixtureModel('m', null))}${' '.repeat(MAX_MODEL_BYTES)}` });
    temps.push(t);
    const { generate } = await import('../../generator/index.ts');
    const err = await generate({ specsDir: t.specsDir, outRoot: t.root }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    expect((err as SpecError).problem).toMatch(new RegExp(`larger than the ${MAX_MODEL_BYTES} bytes supported`));
    expect(hashTree(path.join(t.root, 'generated'))).toEqual({});
  });
});

describe('the job queue: close means closed', () => {
  it('a job after close rejects, also when close came before the job started', async () => {
    const w = new JobQueue(REPO_ROOT);
    const during = expect(w.format('const a   = 1', 'x.ts')).rejects.toThrow('the job queue is closed');
    await w.close();
    await during;
    await expect(w.format('const b = 2', 'y.ts')).rejects.toThrow('the job queue is closed');
    await expect(w.compileValidator({ type: 'string' }, {})).rejects.toThrow('the job queue is closed');
    w.start(); // no effect once closed
    expect((w as unknown as { prettier: unknown }).prettier).toBeUndefined();
  });

  it('formats and compiles as compileHere does, and names a job that fails', async () => {
    const w = new JobQueue(REPO_ROOT);
    try {
      await expect(w.format('const a   = 1', 'x.ts')).resolves.toBe('const a = 1;\n');
      const options = { code: { source: true, esm: true }, allErrors: true };
      const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } };
      expect(await w.compileValidator(schema, options)).toBe(await compileHere(schema, options));
      await expect(w.format('const = ;', 'x.ts')).rejects.toThrow(/^prettier could not format the output: SyntaxError/);
      await expect(w.compileValidator({ type: 'no-such-type' }, options)).rejects.toThrow(/type must be/);
    } finally {
      await w.close();
    }
  });
});

/** A model whose schema is small but expands past the type stage's 20,000 nodes through non-recursive $refs (a build-stage SpecError). */
function fanOut(id: string): Record<string, unknown> {
  const definitions: Record<string, unknown> = { d16: { type: 'string' } };
  for (let i = 15; i >= 0; i--)
    definitions[`d${i}`] = {
      type: 'object',
      properties: { l: { $ref: `#/definitions/d${i + 1}` }, r: { $ref: `#/definitions/d${i + 1}` } },
    };
  return fixtureModel(id, schema({ a: { $ref: '#/definitions/d0' } }, { definitions }));
}

describe('npm run generate exits after a build-stage SpecError', () => {
  it(
    'a $ref fan-out past 20,000 type nodes: exit 2 with the message, nothing written',
    { timeout: 120_000 },
    async () => {
      const t = await tempSpecs(['black-forest-labs-flux-2-klein-4b'], { 'fan-out': fanOut('fan-out') });
      temps.push(t);
      await writeFile(
        path.join(t.specsDir, 'models.json'),
        JSON.stringify(['black-forest-labs-flux-2-klein-4b', 'fan-out']),
      );
      // a hang ends as signal SIGKILL, failing the test
      const r = await run(process.execPath, ['scripts/run-generate.mjs', '--specs', t.specsDir, '--out', t.root], {
        timeoutMs: 90_000,
      });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.code, r.stderr).toBe(EXIT.failed);
      expect(r.stderr).toMatch(
        /generate failed, nothing was written: .*fan-out\.json \(model fan-out\) at \/request_schema.*more than 20000 nodes/,
      );
      expect(hashTree(path.join(t.root, 'generated'))).toEqual({});
    },
  );
});
