/**
 * Builds the generator package (`generator/`, published as oxen-inference-codegen; run by its
 * `prepack`): `generator/dist/cli.js`, the bin, is `generator/cli/bin.ts` with the generator's stages and
 * the runtime client it fetches with bundled by esbuild (packages stay external: they are the
 * generator package's dependencies), split at each `import()` into `generator/dist/chunks/` so that a
 * command loads only what it runs (`--help`, a usage error, `models` and `serve` load none of the
 * generator's stages and their libraries; this is about 0.2 s of CPU less for each on Node.js 20, which
 * has no module compile cache), beside what it reads at run time, laid out as in this
 * repository so that the same code finds them (`generator/paths.ts`): `templates/*.hbs`,
 * `specs/models/*.json` (the models `serve` serves; the local server is bundled into the bin),
 * `specs/openapi.yaml` (and `generator/dist/specs/openapi.json`, the same parsed once here: the CLI reads it
 * without js-yaml), and `.prettierrc.json`.
 * Otherwise the same esbuild settings as `scripts/lib/precompiled.mjs`, which precompiles `npm run generate`
 * (`bin.ts` starts with the bin's `#!` line, which esbuild keeps in `cli.js` alone).
 * Skipped when `generator/dist/` is what the current inputs build (a stamp, `scripts/build/stamp.mjs`:
 * the files esbuild read, the copied files, this script and esbuild's version), so `npm pack` after a
 * build builds nothing again; `--force` builds anyway.
 */
import { chmod, copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../generator/root.mjs';
import { build, version as esbuildVersion } from 'esbuild';
import { load as parseYaml } from 'js-yaml';
import { hashFiles, hashValue, listFiles, readStamp, removeStamp, staleReason, writeStamp } from './build/stamp.mjs';

const root = REPO_ROOT;
const dist = path.join(root, 'generator', 'dist');
const stampFile = path.join(root, '.tmp', 'build-codegen-stamp.json');
const copies = [
  ...(await readdir(path.join(root, 'templates'))).filter((n) => n.endsWith('.hbs')).map((n) => `templates/${n}`),
  'specs/openapi.yaml',
  // the models `oxen-inference-codegen serve` serves beside the user's (the SDK of this release has the same)
  ...(await readdir(path.join(root, 'specs', 'models')))
    .filter((n) => n.endsWith('.json'))
    .map((n) => `specs/models/${n}`),
  '.prettierrc.json',
];
// the modules esbuild bundled are in the stamp (from its metafile) and are re-hashed by staleReason
const current = {
  key: hashValue({ esbuild: esbuildVersion }),
  inputs: hashFiles(root, [
    ...copies,
    'scripts/build-codegen.mjs',
    'scripts/build/stamp.mjs',
    'generator/package.json',
  ]),
};
const reason = process.argv.includes('--force') ? '--force' : staleReason(root, readStamp(stampFile), current);
if (!reason) {
  console.log('build-codegen: generator/dist/ is up to date (--force rebuilds)');
  process.exit(0);
}
removeStamp(stampFile);
await rm(dist, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: { cli: path.join(root, 'generator', 'cli', 'bin.ts') },
  absWorkingDir: root, // the metafile's paths are relative to it
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  splitting: true,
  outdir: dist,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'error',
  metafile: true,
});
await chmod(path.join(dist, 'cli.js'), 0o755);
await mkdir(path.join(dist, 'specs'), { recursive: true });
await writeFile(
  path.join(dist, 'specs', 'openapi.json'),
  JSON.stringify(parseYaml(await readFile(path.join(root, 'specs', 'openapi.yaml'), 'utf8'))),
);
for (const rel of copies) {
  await mkdir(path.dirname(path.join(dist, rel)), { recursive: true });
  await copyFile(path.join(root, rel), path.join(dist, rel));
}
const bundled = Object.keys(metafile.inputs).map((p) =>
  path.relative(root, path.resolve(root, p)).split(path.sep).join('/'),
);
writeStamp(stampFile, {
  ...current,
  inputs: { ...current.inputs, ...hashFiles(root, bundled) },
  outputs: hashFiles(root, listFiles(root, { dirs: ['generator/dist'] })),
});
