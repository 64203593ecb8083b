/**
 * A run with nothing to rebuild loads none of the heavy libraries (ts-morph,
 * json-schema-to-typescript, openapi-typescript, prettier, ajv's code generator), and the committed
 * generated/ is what prettier would print (`prettier --check`), the formatter the design names.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, run, tempDir } from '../support/index.ts';

describe('npm run generate with nothing to rebuild', () => {
  it(
    'loads no library of the rebuilding stages (it runs the precompiled generator with plain node)',
    { timeout: 120_000 },
    async () => {
      const { dir, remove } = tempDir('inference-sdk-imports-');
      try {
        const record = path.join(dir, 'imports.txt');
        const hook = path.join(REPO_ROOT, 'test', 'generator', 'fixtures', 'record-imports.mjs');
        const r = await run(
          process.execPath,
          ['--import', hook, path.join(REPO_ROOT, 'scripts', 'run-generate.mjs'), '--check'],
          { env: { ...process.env, RECORD_IMPORTS: record } },
        );
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain('generated/ is up to date');
        const imported = new Set((await readFile(record, 'utf8')).split('\n').filter(Boolean));
        // what an up-to-date run needs: the snapshot checks (ajv), the description (js-yaml), the templates (handlebars)
        expect(imported.has('js-yaml')).toBe(true);
        for (const heavy of [
          'ts-morph',
          'json-schema-to-typescript',
          'openapi-typescript',
          'prettier',
          'ajv/dist/standalone/index.js',
          'tsx',
          'typescript',
        ]) {
          expect(imported.has(heavy), heavy).toBe(false);
        }
      } finally {
        remove();
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
