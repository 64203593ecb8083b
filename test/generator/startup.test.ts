/**
 * A run with nothing to rebuild loads none of the heavy libraries (ts-morph,
 * json-schema-to-typescript, openapi-typescript, prettier, ajv's code generator): `generate` in a
 * fresh clone (through the committed manifest), and `--check` once this machine has built the files
 * (it does not trust the manifest); and the committed generated/ is what prettier would print
 * (`prettier --check`), the formatter the design names.
 */
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.ts';
import { existingRootState } from '../../generator/output/run-state.ts';
import { REPO_ROOT, run, tempDir } from '../support/index.ts';
import { tempSpecs } from './helpers.ts';

describe('npm run generate with nothing to rebuild', () => {
  const HEAVY = [
    'ts-morph',
    'json-schema-to-typescript',
    'openapi-typescript',
    'prettier',
    'ajv/dist/standalone/index.js',
    'tsx',
    'typescript',
  ];
  let runs = 0;
  /** The bare packages `run-generate.mjs <args>` imports (it must exit 0 saying `expected`), recorded in `dir`. */
  async function imports(dir: string, args: string[], expected: string): Promise<Set<string>> {
    const record = path.join(dir, `imports-${++runs}.txt`);
    const hook = path.join(REPO_ROOT, 'test', 'generator', 'fixtures', 'record-imports.mjs');
    const r = await run(
      process.execPath,
      ['--import', hook, path.join(REPO_ROOT, 'scripts', 'run-generate.mjs'), ...args],
      {
        env: { ...process.env, RECORD_IMPORTS: record },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(expected);
    return new Set((await readFile(record, 'utf8').catch(() => '')).split('\n').filter(Boolean));
  }

  it(
    'loads no library of the rebuilding stages: a fresh clone through the manifest, --check through what this machine built',
    { timeout: 180_000 },
    async () => {
      const t = await tempSpecs(['flux-2-pro', 'gpt-4o-mini']);
      const records = tempDir('inference-sdk-imports-');
      try {
        await generate({ specsDir: t.specsDir, outRoot: t.root });
        const where = ['--specs', t.specsDir, '--out', t.root];
        // a fresh clone: the committed manifest, no record of this machine's builds
        rmSync(existingRootState(t.root)!.built);
        const fresh = await imports(records.dir, where, ' 0 changed, 0 removed');
        // what an up-to-date run needs: the snapshot checks (ajv), the description (js-yaml), the templates (handlebars)
        expect(fresh.has('js-yaml')).toBe(true);
        for (const heavy of HEAVY) expect(fresh.has(heavy), heavy).toBe(false);
        // --check trusts no manifest: it rebuilds what this machine did not build itself, then reuses it
        await imports(records.dir, ['--check', ...where], 'is up to date');
        const again = await imports(records.dir, ['--check', ...where], 'is up to date');
        for (const heavy of HEAVY) expect(again.has(heavy), heavy).toBe(false);
      } finally {
        await t.cleanup();
        records.remove();
      }
    },
  );

  it(
    'prettier --check passes on generated/ (validators excepted by .prettierignore: ajv machine code)',
    { timeout: 120_000 },
    async () => {
      const prettier = path.join(REPO_ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
      const r = await run(process.execPath, [prettier, '--check', 'generated/']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout + r.stderr).toContain('All matched files use Prettier code style!');
    },
  );
});
