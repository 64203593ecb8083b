/**
 * Every ```ts block of the documentation (README.md, docs/*.md, generator/README.md, the shipped
 * generated/MODELS.md) compiles as it stands under `@tsconfig/strictest`, in one TypeScript program
 * where `oxen-inference-sdk` resolves to this repository's sources (the `paths` of tsconfig.json).
 * No list of exceptions: a block that shows a type error marks the line with `// @ts-expect-error`
 * (then the error must happen), and the compiler output the documentation prints after such a block
 * is checked against the real one. Examples hold no cast (`as`, but `as const`; `<T>x`; `x!`).
 * The blocks sit in the consumer's `src/`, beside `src/oxen-models/` as `oxen-inference-codegen add
 * <id>... --out src/oxen-models` (the generator's CLI, from its sources) writes it for the ids the
 * documentation adds, each model a copy of flux-2-pro's details under that id.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existingRootState } from '../../generator/output/run-state.ts';
import { REPO_ROOT, run, tempDir } from '../support/index.ts';
import { tscProject } from '../support/tsc.ts';
import { addedModelIds, casts, documentationBlocks, withoutExpectError, type CodeBlock } from './code-blocks.ts';

const VARIANT = '.unexpected.ts';
const TSX_LOADER = pathToFileURL(path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

interface Diagnostic {
  file: string;
  line: number;
  code: string;
  /** The first line of the message. */
  message: string;
}

const blocks = documentationBlocks(REPO_ROOT);
const added = addedModelIds(REPO_ROOT);
const root = tempDir('inference-sdk-code-blocks-');
let diagnostics: Diagnostic[] = [];
let output = '';
/** Why `oxen-inference-codegen add` of the documented ids failed, if it did. */
let addFailure = '';

/** The repository's `paths` (tsconfig.json), made absolute: the package's names resolve to its sources. */
function sourcePaths(): Record<string, string[]> {
  const read = ts.readConfigFile(path.join(REPO_ROOT, 'tsconfig.json'), (f) => ts.sys.readFile(f));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const config = read.config as { compilerOptions: { paths: Record<string, string[]> } };
  return Object.fromEntries(
    Object.entries(config.compilerOptions.paths).map(([name, targets]) => [
      name,
      targets.map((t) => path.join(REPO_ROOT, t)),
    ]),
  );
}

beforeAll(async () => {
  const dir = path.join(root.dir, 'consumer');
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  const files: string[] = [];
  for (const block of blocks) {
    writeFileSync(path.join(dir, 'src', block.file), block.code);
    files.push(`src/${block.file}`);
    const variant = withoutExpectError(block.code);
    if (variant !== undefined) {
      writeFileSync(path.join(dir, 'src', block.file.replace(/\.ts$/, VARIANT)), variant);
      files.push(`src/${block.file.replace(/\.ts$/, VARIANT)}`);
    }
  }
  const flux = JSON.parse(readFileSync(path.join(REPO_ROOT, 'specs', 'models', 'flux-2-pro.json'), 'utf8')) as object;
  const from = added.flatMap((id, i) => {
    const file = path.join(root.dir, `model-${i}.json`);
    writeFileSync(file, JSON.stringify({ ...flux, id }));
    return ['--from', file];
  });
  // the CLI from its sources, run in the consumer project (tsx named by its file: the project has no node_modules)
  const bin = path.join(REPO_ROOT, 'generator', 'cli', 'bin.ts');
  const add = await run(process.execPath, ['--import', TSX_LOADER, bin, 'add', ...from, '--out', 'src/oxen-models'], {
    cwd: dir,
  });
  // a refused id fails the compile test below (its blocks then cannot compile), not the others
  if (add.code !== 0) addFailure = `oxen-inference-codegen add failed: ${add.stdout}${add.stderr}`;
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'code-blocks', private: true, type: 'module' }));
  // the libraries a block uses beside the SDK (the AI SDK, openai, ...) resolve to the repository's
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify(
      {
        extends: path.join(REPO_ROOT, 'node_modules', '@tsconfig', 'strictest', 'tsconfig.json'),
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          moduleDetection: 'force',
          noEmit: true,
          // the sources import each other with `.ts` specifiers
          allowImportingTsExtensions: true,
          paths: sourcePaths(),
        },
        files,
      },
      null,
      2,
    ),
  );
  const result = tscProject(dir, {}, dir);
  output = (result.stdout + result.stderr).trim();
  for (const line of output.split('\n')) {
    const m = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (m) diagnostics.push({ file: path.basename(m[1]!), line: Number(m[2]), code: m[3]!, message: m[4]! });
    else if (/^error TS\d+/.test(line)) diagnostics.push({ file: '', line: 0, code: 'config', message: line });
  }
  if (result.code !== 0 && diagnostics.length === 0)
    diagnostics = [{ file: '', line: 0, code: 'exit', message: output }];
}, 300_000);

afterAll(() => {
  // the generator's record of what it built in src/oxen-models lives in the user's state folder: drop it with the folder
  const state = existingRootState(path.join(root.dir, 'consumer', 'src', 'oxen-models'));
  if (state) rmSync(state.built, { force: true });
  root.remove();
});

/** `doc:line: TSxxxx message` for a diagnostic of a block's file. */
function located(d: Diagnostic): string {
  const block = blocks.find((b) => d.file === b.file || d.file === b.file.replace(/\.ts$/, VARIANT));
  return block
    ? `${block.doc}:${block.line + d.line - 1}: ${d.code} ${d.message}`
    : `${d.file}:${d.line}: ${d.code} ${d.message}`;
}

describe('the documentation code blocks', { timeout: 300_000 }, () => {
  test('are found in README.md and docs/, the README holding the quick start and its compile error', () => {
    const docs = new Set(blocks.map((b) => b.doc));
    expect(docs).toContain('README.md');
    expect([...docs].some((d) => d.startsWith('docs/'))).toBe(true);
    expect(blocks.filter((b) => b.doc === 'README.md').length).toBeGreaterThan(5);
    expect(blocks.some((b) => b.doc === 'README.md' && withoutExpectError(b.code) !== undefined)).toBe(true);
    expect(added).toContain('brand-new-model');
  });

  test('compile under @tsconfig/strictest as they stand, every @ts-expect-error line an error', () => {
    expect(addFailure).toBe('');
    const own = diagnostics.filter((d) => !d.file.endsWith(VARIANT));
    expect(own.map(located).join('\n')).toBe('');
  });

  test('a block that expects an error shows the compiler output it gets without the @ts-expect-error lines', () => {
    for (const block of blocks) {
      const variant = withoutExpectError(block.code);
      if (variant === undefined) continue;
      const file = block.file.replace(/\.ts$/, VARIANT);
      const got = diagnostics.filter((d) => d.file === file);
      const where = `${block.doc}:${block.line}`;
      // each @ts-expect-error line marks exactly one error, on the line after it
      const marked = block.code.split('\n').flatMap((l, i) => (/^\s*\/\/ @ts-expect-error\b/.test(l) ? [i + 2] : []));
      expect(
        got.map((d) => d.line),
        where,
      ).toEqual(marked);
      if (block.shownOutput) {
        const shown = block.shownOutput.text
          .split('\n')
          .filter((l) => /error TS\d+/.test(l))
          .map((l) => l.slice(l.indexOf('error TS')));
        expect(shown, `${block.doc}:${block.shownOutput.line}`).toEqual(
          got.map((d) => `error ${d.code}: ${d.message}`),
        );
      }
    }
  });

  test('hold no cast: no `as` (but `as const`), no `<T>x`, no non-null `x!`', () => {
    const found = blocks.flatMap((b: CodeBlock) =>
      casts(b.code).map((c) => `${b.doc}:${b.line + Number(c.split(':')[0]) - 1}: ${c.slice(c.indexOf(':') + 2)}`),
    );
    expect(found.join('\n')).toBe('');
  });
});
