/**
 * Bad input stops the run with an error naming the file, the model and the JSON pointer, and
 * leaves generated/ untouched.
 */
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.ts';
import { SpecError } from '../../generator/errors.ts';
import { EXIT } from '../../generator/cli/exit-codes.ts';
import { fixtureModel, tempSpecs, type TempSpecs } from './helpers.ts';
import { hashTree, runGenerate } from '../support/index.ts';

const GOOD = ['flux-2-pro', 'gpt-4o-mini'];
let temps: TempSpecs[] = [];
afterEach(async () => {
  await Promise.all(temps.map((t) => t.cleanup()));
  temps = [];
});

/** A temp specs dir whose output root already holds a good generated/ tree. */
async function prepared(extra: Record<string, unknown>): Promise<{ t: TempSpecs; before: Record<string, string> }> {
  const t = await tempSpecs(GOOD);
  temps.push(t);
  await generate({ specsDir: t.specsDir, outRoot: t.root });
  const bad = await tempSpecs(GOOD, extra);
  temps.push(bad);
  return { t: { ...bad, root: t.root }, before: hashTree(path.join(t.root, 'generated')) };
}

async function expectSpecError(
  extra: Record<string, unknown>,
  expected: { file: RegExp; model: string; pointer: string; problem: RegExp },
): Promise<void> {
  const { t, before } = await prepared(extra);
  expect(Object.keys(before).length).toBeGreaterThan(0);
  const err = await generate({ specsDir: t.specsDir, outRoot: t.root }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SpecError);
  const e = err as SpecError;
  expect(e.file).toMatch(expected.file);
  expect(e.model).toBe(expected.model);
  expect(e.pointer).toBe(expected.pointer);
  expect(e.problem).toMatch(expected.problem);
  expect(e.message).toContain(expected.model);
  expect(e.message).toContain(expected.pointer);
  expect(hashTree(path.join(t.root, 'generated'))).toEqual(before);
}

beforeAll(async () => {
  // warm the pipeline once so the per-test runs are fast (a check rebuilds what this machine has not built itself)
  await generate({ check: true });
}, 180_000);

describe('bad input', () => {
  it('malformed JSON in a snapshot file', { timeout: 60_000 }, async () => {
    await expectSpecError(
      { 'broken-model': '{"id": "broken-model", "request_schema": {' },
      { file: /specs\/models\/broken-model\.json$/, model: 'broken-model', pointer: '', problem: /malformed JSON/ },
    );
  });

  it('a schema that is not an object', { timeout: 60_000 }, async () => {
    await expectSpecError(
      { 'string-schema': fixtureModel('string-schema', 'just a string') },
      { file: /string-schema\.json$/, model: 'string-schema', pointer: '/request_schema', problem: /object/ },
    );
  });

  it('a property schema that is not a schema', { timeout: 60_000 }, async () => {
    await expectSpecError(
      {
        'bad-prop': fixtureModel('bad-prop', { type: 'object', properties: { prompt: { type: 'string' }, steps: 42 } }),
      },
      {
        file: /bad-prop\.json$/,
        model: 'bad-prop',
        pointer: '/request_schema/properties/steps',
        problem: /schema|object|boolean/,
      },
    );
  });

  it('a required property that is not defined', { timeout: 60_000 }, async () => {
    await expectSpecError(
      {
        'bad-required': fixtureModel('bad-required', {
          type: 'object',
          required: ['prompt', 'ghost'],
          properties: { prompt: { type: 'string' } },
        }),
      },
      { file: /bad-required\.json$/, model: 'bad-required', pointer: '/request_schema/required/1', problem: /ghost/ },
    );
  });

  it('two model ids that convert to the same identifier', { timeout: 60_000 }, async () => {
    await expectSpecError(
      { flux_2_pro: fixtureModel('flux_2_pro', { type: 'object', properties: { prompt: { type: 'string' } } }) },
      {
        file: /specs\/models\.json$/,
        model: 'flux_2_pro',
        pointer: '/2',
        problem: /"flux-2-pro" and "flux_2_pro" both convert to the identifier Flux2Pro/,
      },
    );
  });

  it('a file whose id differs from its name', { timeout: 60_000 }, async () => {
    await expectSpecError(
      { renamed: fixtureModel('other-id', null) },
      { file: /renamed\.json$/, model: 'renamed', pointer: '/id', problem: /other-id/ },
    );
  });

  it('the command exits 3 (EXIT.failed) with the message and writes nothing', { timeout: 60_000 }, async () => {
    const { t, before } = await prepared({ 'broken-model': '{ nope' });
    const r = await runGenerate(['--specs', t.specsDir, '--out', t.root]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toMatch(/nothing was written: .*broken-model\.json \(model broken-model\) at \/: malformed JSON/);
    expect(hashTree(path.join(t.root, 'generated'))).toEqual(before);
  });
});
