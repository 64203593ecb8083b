/**
 * The installed generator package's fingerprint (`fingerprint` of generator/output/manifest.ts) covers the
 * whole bin: `dist/cli.js` and the chunks it loads (`dist/chunks/`, scripts/build-codegen.mjs), where the
 * stages are. A new release whose stages changed must not reuse a user's generated files through the manifest.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { fingerprint } from '../../generator/output/manifest.ts';
import { tempDir } from '../support/index.ts';

const tmp = tempDir('inference-sdk-fingerprint-');
afterAll(() => tmp.remove());

test("an installed package's fingerprint changes with any of its chunks, and with cli.js", async () => {
  const dist = path.join(tmp.dir, 'node_modules', 'oxen-inference-codegen', 'dist');
  mkdirSync(path.join(dist, 'chunks'), { recursive: true });
  // the tools whose versions the fingerprint reads, as an install hoists them
  for (const tool of ['ajv', 'ajv-formats', 'prettier', 'ts-morph', 'handlebars']) {
    mkdirSync(path.join(tmp.dir, 'node_modules', tool), { recursive: true });
    writeFileSync(path.join(tmp.dir, 'node_modules', tool, 'package.json'), '{"version":"1.0.0"}');
  }
  const write = (file: string, text: string) => writeFileSync(path.join(dist, file), text);
  write('cli.js', 'import("./chunks/generator-A.js");\n');
  write('chunks/generator-A.js', 'export const stage = 1;\n');
  write('chunks/chunk-B.js', 'export const shared = 1;\n');
  const prints = [await fingerprint(dist, ['openapi-typescript'])];
  write('chunks/chunk-B.js', 'export const shared = 2;\n');
  prints.push(await fingerprint(dist, ['openapi-typescript']));
  write('chunks/chunk-C.js', 'export const added = 1;\n');
  prints.push(await fingerprint(dist, ['openapi-typescript']));
  write('cli.js', 'import("./chunks/generator-A.js"); // changed\n');
  prints.push(await fingerprint(dist, ['openapi-typescript']));
  expect(new Set(prints).size).toBe(prints.length);
  // and nothing else changes it
  expect(await fingerprint(dist, ['openapi-typescript'])).toBe(prints.at(-1));
});
