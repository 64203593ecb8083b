/**
 * A run with nothing to rebuild loads none of the heavy libraries (ts-morph,
 * json-schema-to-typescript, openapi-typescript, prettier, ajv's code generator): `generate` in a
 * fresh clone (through the committed manifest), and `--check` once this machine has built the files
 * (it does not trust the manifest), runtime/operations.ts included in a repository's own run; and
 * the committed generated/ is what prettier would print (`prettier --check`), the formatter the
 * design names.
 */
import { rmSync } from 'node:fs';
import { cp, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.ts';
import { existingRootState } from '../../generator/output/run-state.ts';
import { specFile } from '../../generator/stages/name.ts';
import { REPO_ROOT, run, tempDir } from '../support/index.ts';
import { tempSpecs } from './helpers.ts';

/** An operation added under `paths:` of the description. */
const EXTRA_PATH = `  /api/extra:
    get:
      operationId: extraGet
      summary: An operation of this test only.
      responses:
        '200':
          description: ok
`;

/**
 * A copy of what `npm run generate` reads of this repository (the generator, scripts, runtime,
 * templates, formatter settings; node_modules linked), its snapshot cut to `ids` and no generated/:
 * a repository of its own, whose run produces runtime/operations.ts as this one's does.
 */
async function repositoryCopy(ids: string[]): Promise<{ dir: string; remove(): void }> {
  const copy = tempDir('inference-sdk-repo-');
  for (const entry of [
    'generator',
    'scripts',
    'runtime',
    'templates',
    'package.json',
    '.prettierrc.json',
    '.prettierignore',
  ])
    await cp(path.join(REPO_ROOT, entry), path.join(copy.dir, entry), { recursive: true });
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(copy.dir, 'node_modules'), 'dir');
  const specs = path.join(copy.dir, 'specs');
  await cp(path.join(REPO_ROOT, 'specs', 'openapi.yaml'), path.join(specs, 'openapi.yaml'));
  for (const id of ids) await cp(path.join(REPO_ROOT, 'specs', specFile(id)), path.join(specs, specFile(id)));
  await writeFile(path.join(specs, 'models.json'), `${JSON.stringify(ids, null, 2)}\n`);
  return copy;
}

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
  /**
   * The bare packages `run-generate.mjs <args>` imports (it must exit 0 saying `expected`), recorded
   * in `dir`; `repo`: the repository whose script runs (default this one).
   */
  async function imports(dir: string, args: string[], expected: string, repo = REPO_ROOT): Promise<Set<string>> {
    const record = path.join(dir, `imports-${++runs}.txt`);
    const hook = path.join(REPO_ROOT, 'test', 'generator', 'fixtures', 'record-imports.mjs');
    const r = await run(process.execPath, ['--import', hook, path.join(repo, 'scripts', 'run-generate.mjs'), ...args], {
      cwd: repo,
      env: { ...process.env, RECORD_IMPORTS: record },
    });
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
        // what an up-to-date run needs: the description (js-yaml), the header (handlebars' runtime)
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
    "this repository's own run: runtime/operations.ts is rebuilt when the description's operations change, and an up-to-date run loads none of them",
    { timeout: 240_000 },
    async () => {
      const repo = await repositoryCopy(['flux-2-pro']);
      const records = tempDir('inference-sdk-imports-');
      try {
        const generateIn = (args: string[] = []) =>
          run(process.execPath, [path.join(repo.dir, 'scripts', 'run-generate.mjs'), ...args], { cwd: repo.dir });
        const built = await generateIn();
        expect(built.code, built.stderr).toBe(0);
        expect(built.stdout).not.toContain('runtime/operations.ts'); // the same description: the same bytes
        // a fresh clone: the committed manifest (runtime/operations.ts in it), no record of this machine's builds
        rmSync(existingRootState(repo.dir)!.built);
        const fresh = await imports(records.dir, [], ' 0 changed, 0 removed', repo.dir);
        for (const heavy of HEAVY) expect(fresh.has(heavy), heavy).toBe(false);

        const yaml = path.join(repo.dir, 'specs', 'openapi.yaml');
        const text = await readFile(yaml, 'utf8');
        await writeFile(yaml, text.replace('\npaths:\n', `\npaths:\n${EXTRA_PATH}`));
        const changed = await generateIn();
        expect(changed.code, changed.stderr).toBe(0);
        expect(changed.stdout).toContain('  changed  runtime/operations.ts');
        expect(await readFile(path.join(repo.dir, 'runtime', 'operations.ts'), 'utf8')).toContain(
          'export const extraGet = {',
        );
        // --check trusts no manifest: it rebuilds what this machine did not build itself, then reuses it
        await imports(records.dir, ['--check'], 'is up to date', repo.dir);
        const again = await imports(records.dir, ['--check'], 'is up to date', repo.dir);
        for (const heavy of HEAVY) expect(again.has(heavy), heavy).toBe(false);
      } finally {
        repo.remove();
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
