/**
 * `npm run generate`'s entry: runs `scripts/generate.ts` precompiled, with plain `node` (no
 * TypeScript loader at start-up). The first run after a change to `scripts/generate.ts`,
 * `generator/` or `runtime/` bundles them with esbuild (packages stay external) into
 * `.tmp/generate-<hash>.mjs` (inside this repository, so that its package imports resolve to this
 * repository's node_modules and the generator finds this repository as its root, even where
 * node_modules is a link to another copy); later runs import that file directly.
 * The hash covers every source file the bundle is made from (`.ts`, and `.mjs` such as
 * `generator/stages/ajv-compile.mjs`), so a stale bundle is never run.
 * Arguments are passed through (`npm run generate -- --check`).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../generator/root.mjs';

const root = REPO_ROOT;
const entry = path.join(root, 'scripts', 'generate.ts');

// `OXEN_GENERATE_OFF=precompile` (generator/output/layers.ts): run the sources through tsx instead,
// to measure what the bundle saves
if ((process.env.OXEN_GENERATE_OFF ?? '').split(',').includes('precompile')) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(entry).href);
  process.exit();
}
const sourceDirs = ['generator', 'runtime'];

const h = createHash('sha256');
for (const file of [
  entry,
  ...(
    await Promise.all(
      sourceDirs.map(async (d) =>
        (await readdir(path.join(root, d), { recursive: true }))
          .filter(
            (n) =>
              /\.(ts|mjs)$/.test(n) && !n.split(path.sep).includes('node_modules') && !n.startsWith(`dist${path.sep}`),
          )
          .sort()
          .map((n) => path.join(root, d, n)),
      ),
    )
  ).flat(),
]) {
  h.update(file)
    .update('\0')
    .update(await readFile(file))
    .update('\0');
}
const cacheDir = path.join(root, '.tmp');
const bundle = path.join(cacheDir, `generate-${h.digest('hex').slice(0, 16)}.mjs`);

if (!existsSync(bundle)) {
  const { build } = await import('esbuild');
  await mkdir(cacheDir, { recursive: true });
  const tmp = `${bundle}.tmp-${process.pid}`;
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: tmp,
    logLevel: 'error',
  });
  // keep one bundle: remove older ones, then move the new one into place
  for (const old of await readdir(cacheDir))
    if (/^generate-[0-9a-f]{16}\.mjs$/.test(old)) await rm(path.join(cacheDir, old), { force: true });
  await rename(tmp, bundle);
}
await import(pathToFileURL(bundle).href);
