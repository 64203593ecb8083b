/**
 * Builds the generator package (`generator/`, published as oxen-inference-codegen; run by its
 * `prepack`): `generator/dist/cli.js`, the bin, is `generator/bin.ts` with the generator's stages and
 * the runtime client it fetches with bundled by esbuild (packages stay external: they are the
 * generator package's dependencies), beside what it reads at run time, laid out as in this
 * repository so that the same code finds them (`generator/paths.ts`): `templates/*.hbs`,
 * `specs/openapi.yaml` (and `specs/openapi.json`, the same parsed once here: the CLI reads it without
 * js-yaml), `generator/format-worker.mjs` (prettier's worker) and `.prettierrc.json`.
 * The same esbuild settings as `scripts/run-generate.mjs`, which precompiles `npm run generate`.
 */
import { chmod, copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { load as parseYaml } from 'js-yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'generator', 'dist');
await rm(dist, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, 'generator', 'cli', 'bin.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile: path.join(dist, 'cli.js'),
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'error',
});
await chmod(path.join(dist, 'cli.js'), 0o755);
const copies = [
  ...(await readdir(path.join(root, 'templates'))).filter((n) => n.endsWith('.hbs')).map((n) => `templates/${n}`),
  'specs/openapi.yaml',
  'generator/stages/format-worker.mjs',
  '.prettierrc.json',
];
await mkdir(path.join(dist, 'specs'), { recursive: true });
await writeFile(
  path.join(dist, 'specs', 'openapi.json'),
  JSON.stringify(parseYaml(await readFile(path.join(root, 'specs', 'openapi.yaml'), 'utf8'))),
);
for (const rel of copies) {
  await mkdir(path.dirname(path.join(dist, rel)), { recursive: true });
  await copyFile(path.join(root, rel), path.join(dist, rel));
}
