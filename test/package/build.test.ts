/**
 * The package build's up-to-date detection (`scripts/build/`): a build whose inputs are unchanged writes
 * nothing, and a changed input rebuilds. The stamp's rules on a small synthetic tree (no build), then the
 * real `npm run build` script in a scratch copy of what it reads, holding the build that the shared pack
 * ran from no stamp (test/support/packed.ts): build again (skipped: stamp and outputs untouched), change
 * one input file, build again (rebuilt, the change is in dist/); and what that build's browser variant
 * gives a page bundled by esbuild.
 */
import { cpSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync, appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BUILD_INPUTS } from '../../scripts/build/inputs.mjs';
import { chunkText } from '../../scripts/lib/browser-bundle.ts';
import { measureCase } from '../../scripts/lib/bundle-measure.ts';
import { SIZE_CASES } from '../../scripts/lib/bundle-size-cases.ts';
import { hashFile, hashFiles, listFiles, staleReason, type Stamp } from '../../scripts/build/stamp.mjs';
import { REPO_ROOT as REPO, run, tempDir } from '../support/index.ts';
import { packedBuild } from '../support/packed.ts';

const root = tempDir('inference-sdk-build-');
afterAll(() => root.remove());

describe('the stamp', () => {
  const dir = path.join(root.dir, 'synthetic');
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  const current = (key = 'k') => ({ key, inputs: hashFiles(dir, listFiles(dir, { dirs: ['src'] })) });
  const stampNow = (): Stamp => ({ ...current(), outputs: hashFiles(dir, ['out/a.js']) });

  test('matches an unchanged tree, and names what changed otherwise', () => {
    write('src/a.ts', 'export const a = 1;\n');
    write('src/sub/b.ts', 'export const b = 2;\n');
    write('out/a.js', 'a');
    const stamp = stampNow();
    expect(staleReason(dir, stamp, current())).toBeUndefined();
    expect(staleReason(dir, undefined, current())).toMatch(/no stamp/);
    expect(staleReason(dir, stamp, current('other tools'))).toBe('tools or settings changed');

    write('src/sub/b.ts', 'export const b = 3;\n');
    expect(staleReason(dir, stamp, current())).toBe('input src/sub/b.ts changed');
    write('src/sub/b.ts', 'export const b = 2;\n'); // the same bytes again: current, whatever the mtime
    expect(staleReason(dir, stamp, current())).toBeUndefined();

    write('src/c.ts', '');
    expect(staleReason(dir, stamp, current())).toBe('new input src/c.ts');
    rmSync(path.join(dir, 'src/c.ts'));
    rmSync(path.join(dir, 'src/a.ts'));
    expect(staleReason(dir, stamp, current())).toBe('input src/a.ts removed');
    write('src/a.ts', 'export const a = 1;\n');

    write('out/a.js', 'edited');
    expect(staleReason(dir, stamp, current())).toBe('output out/a.js changed or missing');
    rmSync(path.join(dir, 'out/a.js'));
    expect(staleReason(dir, stamp, current())).toBe('output out/a.js changed or missing');
  });

  test('re-hashes the extra inputs a stamp records (dependency files the bundler read)', () => {
    write('src/a.ts', 'export const a = 1;\n');
    write('out/a.js', 'a');
    write('deps/p-retry/index.js', 'v1');
    const stamp = { ...stampNow(), inputs: { ...current().inputs, ...hashFiles(dir, ['deps/p-retry/index.js']) } };
    expect(staleReason(dir, stamp, current())).toBeUndefined();
    write('deps/p-retry/index.js', 'v2');
    expect(staleReason(dir, stamp, current())).toBe('input deps/p-retry/index.js changed');
  });
});

describe('npm run build in a scratch copy', () => {
  const dir = path.join(root.dir, 'package');
  const stampFile = path.join(dir, '.tmp', 'build-stamp.json');
  const build = async () => {
    const result = await run(process.execPath, [path.join(dir, 'scripts', 'build', 'package.mjs')], {
      cwd: dir,
      timeoutMs: 240_000,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return result.stdout;
  };
  /**
   * The scratch copy: what the build reads, with `dist/` and the stamp of the build that the shared pack
   * ran from no stamp on the same tree (test/support/packed.ts), so this file builds once, not twice.
   */
  let prepared: Promise<void> | undefined;
  const prepare = () =>
    (prepared ??= (async () => {
      for (const p of BUILD_INPUTS) cpSync(path.join(REPO, p), path.join(dir, p), { recursive: true });
      symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      const packed = await packedBuild();
      cpSync(path.join(packed, 'dist'), path.join(dir, 'dist'), { recursive: true, preserveTimestamps: true });
      cpSync(path.join(packed, '.tmp'), path.join(dir, '.tmp'), { recursive: true });
    })());

  test('skips an unchanged tree and rebuilds after one input file changed', { timeout: 600_000 }, async () => {
    await prepare();
    const stamp = readFileSync(stampFile, 'utf8');
    const outputs = Object.keys((JSON.parse(stamp) as Stamp).outputs);
    expect(outputs).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts']),
    );
    // the dependencies' files read through node_modules (a link in both copies) are named through it,
    // so the stamp holds in another folder
    const inputs = Object.keys((JSON.parse(stamp) as Stamp).inputs);
    expect(inputs).toContain('node_modules/@standard-schema/spec/dist/index.d.ts');
    expect(inputs.filter((f) => f.startsWith('..'))).toEqual([]);
    const mtimes = outputs.map((f) => statSync(path.join(dir, f)).mtimeMs);

    // unchanged (the same inputs in another folder): nothing is written, not even the stamp
    expect(await build()).toMatch(/up to date/);
    expect(readFileSync(stampFile, 'utf8')).toBe(stamp);
    expect(outputs.map((f) => statSync(path.join(dir, f)).mtimeMs)).toEqual(mtimes);

    // one input changed: rebuilt, and dist/ has the change in both formats
    appendFileSync(path.join(dir, 'index.ts'), "\nexport const buildStampProbe = 'probe';\n");
    expect(await build()).toMatch(/building dist\/ \(input index\.ts changed\)/);
    const after = JSON.parse(readFileSync(stampFile, 'utf8')) as Stamp;
    expect(after.inputs['index.ts']).toBe(hashFile(path.join(dir, 'index.ts')));
    expect(after.inputs['index.ts']).not.toBe((JSON.parse(stamp) as Stamp).inputs['index.ts']);
    for (const f of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts'])
      expect(readFileSync(path.join(dir, f), 'utf8'), f).toContain('buildStampProbe');
  });

  test(
    "the browser build keeps its entries' export * (a page bundled by esbuild leaves the redaction out until a call has a secret)",
    { timeout: 120_000 },
    async () => {
      await prepare(); // the build of the pack, or the rebuild of the test above
      const browser = (f: string) => readFileSync(path.join(dir, 'dist/browser', f), 'utf8');
      expect(browser('index.js')).toContain('export * from "./runtime/index.js";');
      expect(browser('index.js')).toContain('export * from "./generated/index.js";');
      expect(browser('runtime/index.js')).toContain('export * from "./exports.js";');
      for (const id of ['per-model-image', 'root-client-image']) {
        const sizeCase = SIZE_CASES.find((c) => c.id === id)!;
        const m = await measureCase(sizeCase, path.join(root.dir, 'pages'), 'dist', dir, 'esbuild');
        // redact.ts' one string: its chunk stays lazy (loaded by a call with a secret)
        expect(m.loadedText, id).not.toContain('[REDACTED]');
        expect(chunkText(m.bundle, [...m.bundle.chunks.values()]), id).toContain('[REDACTED]'); // the marker is real
      }
    },
  );
});
