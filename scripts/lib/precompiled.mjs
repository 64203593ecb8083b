/**
 * Runs a script of `scripts/` (`generate.ts`, `drift.ts`) precompiled, with plain `node` (no TypeScript
 * loader at start-up): `npm run generate` (`scripts/run-generate.mjs`) and `npm run drift`
 * (`scripts/run-drift.mjs`). The first run after a change to the script, `generator/` or `runtime/` (all
 * that either imports) bundles them with esbuild (packages stay external) into `.tmp/<name>-<hash>.mjs`
 * (inside this repository, so that its package imports resolve to this repository's node_modules and the
 * generator finds this repository as its root, even where node_modules is a link to another copy); later
 * runs import that file directly. The hash covers every source file the bundle is made from (`.ts`, and
 * `.mjs` such as `generator/stages/ajv-compile.mjs`), so a stale bundle is never run. Arguments are
 * passed through (`npm run generate -- --check`).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../generator/root.mjs';

/** The folders a script's bundle is made from besides the script itself. */
const SOURCE_DIRS = ['generator', 'runtime'];

/**
 * Imports `scripts/<name>.ts` from its bundle, bundling it first when its sources changed.
 * `OXEN_GENERATE_OFF=precompile` (generator/output/layers.ts) runs the sources through tsx instead, to
 * measure what the bundle saves.
 * @param {'generate' | 'drift'} name
 */
export async function runPrecompiled(name) {
  const root = REPO_ROOT;
  const entry = path.join(root, 'scripts', `${name}.ts`);
  if ((process.env.OXEN_GENERATE_OFF ?? '').split(',').includes('precompile')) {
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(entry).href);
    process.exit();
  }
  const h = createHash('sha256');
  for (const file of [
    entry,
    ...(
      await Promise.all(
        SOURCE_DIRS.map(async (d) =>
          (await readdir(path.join(root, d), { recursive: true }))
            .filter(
              (n) =>
                /\.(ts|mjs)$/.test(n) &&
                !n.split(path.sep).includes('node_modules') &&
                !n.startsWith(`dist${path.sep}`),
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
  const bundle = path.join(cacheDir, `${name}-${h.digest('hex').slice(0, 16)}.mjs`);

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
    // keep one bundle of each script: remove older ones, then move the new one into place
    const older = new RegExp(`^${name}-[0-9a-f]{16}\\.mjs$`);
    for (const old of await readdir(cacheDir)) if (older.test(old)) await rm(path.join(cacheDir, old), { force: true });
    await rename(tmp, bundle);
  }
  await import(pathToFileURL(bundle).href);
}
