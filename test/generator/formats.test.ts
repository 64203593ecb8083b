/**
 * The formats the generated validators check run on an app's users' input in linear time: `url`
 * through the runtime's `isUrl` (ajv-formats' regular expression for it took 8.8 s on 128 KB), the
 * others as ajv-formats' regular expressions, measured here on the fuzzer's hostile strings.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowInputs } from '../../fuzz/adversarial.ts';
import { generate } from '../../generator/index.ts';
import { compileHere, HELPER_FORMATS, regexFormats } from '../../generator/stages/validators.ts';
import { JobQueue } from '../../generator/stages/job-queue.ts';
import type { CompiledValidator } from '../../runtime/index.ts';
import * as support from '../../runtime/validator-support.ts';
import { REPO_ROOT } from '../support/index.ts';
import { fixtureModel, linkRuntime, tempSpecs, type TempSpecs } from './helpers.ts';

/** The fastest of `n` calls, in milliseconds. */
function fastest(f: () => unknown, n = 3): number {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    f();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

let t: TempSpecs;
let validate: CompiledValidator;
let code: string;
beforeAll(async () => {
  t = await tempSpecs([], {
    linked: fixtureModel('linked', {
      type: 'object',
      properties: { prompt: { type: 'string' }, site: { type: 'string', format: 'url' } },
    }),
  });
  await linkRuntime(t.root);
  const r = await generate({ specsDir: t.specsDir, outRoot: t.root });
  code = r.files.get('generated/validators/linked.ts')!;
  const file = path.join(t.root, 'generated', 'validators', 'linked.ts');
  ({ validate } = (await import(pathToFileURL(file).href)) as { validate: CompiledValidator });
}, 120_000);
afterAll(() => t.cleanup());

describe('the url format', () => {
  it('is checked by the runtime isUrl, imported from validator-support (no regular expression of its own)', () => {
    expect(code).toMatch(/^import \{ isUrl, ucs2length \} from '\.\.\/\.\.\/runtime\/validator-support\.ts';$/m);
    expect(code).toMatch(/const formats\d+ = isUrl;/);
    expect(code).not.toContain('require(');
    expect(validate({ model: 'linked', site: 'https://example.com/a?b#c' })).toBe(true);
    expect(validate({ model: 'linked', site: 'https://10.0.0.1/' })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/site', keyword: 'format', params: { format: 'url' } });
  });

  it('answers 128 KB of hostile input fast (the regular expression took 8.8 s to 80 s on these)', () => {
    const n = 128 * 1024;
    for (const s of [
      `http://${'::'.repeat(n / 2)} `,
      `http://${'@a.aa/'.repeat(n / 6)} `,
      `ftp://172.30.3.56${'4.1.6.7:155'.repeat(n / 11)}\u0000`,
      `http://a.${'a-'.repeat(n / 2)}!`,
      `http://${'a'.repeat(n)}@`,
    ]) {
      const ms = fastest(() => validate({ model: 'linked', site: s }));
      expect(validate({ model: 'linked', site: s }), s.slice(0, 20)).toBe(false);
      expect(ms, `${s.slice(0, 20)}...: ${ms.toFixed(1)} ms`).toBeLessThan(1_000);
    }
    expect(validate({ model: 'linked', site: `https://example.com/${'a'.repeat(n)}` })).toBe(true);
  });
});

describe('the other formats', () => {
  it('every regular expression the generator inlines is under 100 ms on every hostile string of up to 10 KB', () => {
    const formats = regexFormats();
    expect(Object.keys(formats)).toEqual(expect.arrayContaining(['uri', 'email', 'hostname', 'date-time']));
    expect(Object.keys(formats)).not.toContain('url');
    for (const [name, re] of Object.entries(formats))
      expect(
        slowInputs((s) => re.test(s as string), { format: name }),
        name,
      ).toEqual([]);
  });

  it('each helper format is a function of validator-support', () => {
    for (const [format, helper] of Object.entries(HELPER_FORMATS))
      expect(typeof (support as Record<string, unknown>)[helper], format).toBe('function');
  });

  it('JobQueue compiles a helper format as compileHere does', async () => {
    const w = new JobQueue(REPO_ROOT);
    try {
      const options = {
        code: { source: true, esm: true },
        formats: regexFormats(),
        helperFormats: Object.keys(HELPER_FORMATS),
      };
      const schema = { type: 'object', properties: { a: { format: 'url' }, b: { format: 'email' } } };
      const inWorker = await w.compileValidator(schema, options);
      expect(inWorker).toBe(await compileHere(schema, options));
      expect(inWorker).toContain('require("validator-support/formats").url');
    } finally {
      await w.close();
    }
  });
});
