/**
 * A user's `<out>/validator-table.ts` names its validators as `'./validators/<id>.js' as string`, so
 * that TypeScript leaves them out of a program that reaches the index (it adds the target of every
 * string literal `import()`, parsed and bound even from a `@ts-nocheck` file), while the bundlers a
 * user builds with and `tsc`'s own output still load each one, in its own chunk.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/index.ts';
import type { IndexModel } from '../../generator/stages/index-module.ts';
import { validatorTableModule } from '../../generator/stages/validator-table-module.ts';

const IDS = ['acme-one', 'acme-two'];
const tmp = tempDir('inference-sdk-validator-table-');
const src = path.join(tmp.dir, 'src');

beforeAll(async () => {
  const models = [...IDS, 'acme-chat'].map((id) => ({ id }) as IndexModel);
  const table = await validatorTableModule(models, new Set(IDS), { runtimeTypes: 'oxen-inference-sdk/runtime' });
  mkdirSync(path.join(src, 'validators'), { recursive: true });
  writeFileSync(path.join(tmp.dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(path.join(src, 'validator-table.ts'), table);
  // a validator module as the generator writes one, reduced to its export
  for (const id of IDS)
    writeFileSync(
      path.join(src, 'validators', `${id}.ts`),
      `export const validate = (data: unknown): boolean => data === ${JSON.stringify(id)};\n`,
    );
  writeFileSync(
    path.join(src, 'main.ts'),
    `import { validatorOf } from './validator-table.js';
export const results = await Promise.all(['acme-one', 'acme-two', 'acme-chat', 'other'].map(async (id) => {
  const v = await validatorOf(id);
  return v === null || v === undefined ? v : v(id);
}));
`,
  );
});
afterAll(() => tmp.remove());

const EXPECTED = [true, true, null, undefined];

describe("a user's validator table", () => {
  it('writes each specifier `as string`', async () => {
    const models = IDS.map((id) => ({ id }) as IndexModel);
    const text = await validatorTableModule(models, new Set(IDS), { runtimeTypes: 'oxen-inference-sdk/runtime' });
    for (const id of IDS) expect(text).toMatch(new RegExp(`import\\((['"])\\./validators/${id}\\.js\\1 as string\\)`));
  });

  it("keeps the validators out of the TypeScript program, and tsc's output imports each by its literal path", () => {
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      skipLibCheck: true,
      outDir: path.join(tmp.dir, 'build'),
      types: [],
    };
    const program = ts.createProgram([path.join(src, 'main.ts')], options);
    const ours = program
      .getSourceFiles()
      .map((f) => path.relative(src, f.fileName))
      .filter((f) => !f.startsWith('..'));
    expect(ours.sort()).toEqual(['main.ts', 'validator-table.ts']);
    const emitted = new Map<string, string>();
    program.emit(undefined, (file, text) => emitted.set(path.basename(file), text));
    for (const id of IDS)
      expect(emitted.get('validator-table.js')).toMatch(new RegExp(`import\\((['"])\\./validators/${id}\\.js\\1\\)`));
  });

  it('is split and loaded by esbuild, one chunk per validator', async () => {
    const { build } = await import('esbuild');
    const outdir = path.join(tmp.dir, 'esbuild');
    await build({
      entryPoints: [path.join(src, 'main.ts')],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outdir,
      logLevel: 'silent',
    });
    const chunks = readdirSync(outdir).filter((f) => f.endsWith('.js'));
    for (const id of IDS) expect(chunks.some((f) => f.startsWith(`${id}-`))).toBe(true);
    const { results } = (await import(pathToFileURL(path.join(outdir, 'main.js')).href)) as { results: unknown[] };
    expect(results).toEqual(EXPECTED);
  });

  it("is split and loaded by rolldown (Vite's bundler), one chunk per validator", async () => {
    const { rolldown } = await import('rolldown');
    const dir = path.join(tmp.dir, 'rolldown');
    const bundle = await rolldown({ input: path.join(src, 'main.ts'), platform: 'node', logLevel: 'silent' });
    await bundle.write({ dir, format: 'esm' });
    await bundle.close();
    const chunks = readdirSync(dir).filter((f) => f.endsWith('.js'));
    for (const id of IDS) expect(chunks.some((f) => f.startsWith(`${id}-`))).toBe(true);
    const { results } = (await import(pathToFileURL(path.join(dir, 'main.js')).href)) as { results: unknown[] };
    expect(results).toEqual(EXPECTED);
  });
});
