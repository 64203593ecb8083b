/**
 * `npm run bench:bundle`: what a browser page loads before one SDK call runs.
 *
 * Each case (`scripts/lib/bundle-size-cases.ts`) is a page making one call; it is bundled on its
 * own by each of the two bundlers users build with: Vite 8 (rolldown; a production `vite build` with
 * its defaults, `scripts/lib/vite-bundle.ts`) and esbuild (`--bundle --splitting --minify --format=esm
 * --platform=browser`), and measured as the entry chunk plus every chunk it imports statically (chunks
 * reached only through a dynamic `import()` are excluded), each chunk gzipped at level 9 (`gzip -9`).
 * For `queue.run` through the root client the chunks it loads lazily before sending (the queue
 * machinery, the model's validator) are shown as a second figure. The cases without code splitting
 * (a worker's single file) are the whole file, and their ratio to the split case they name.
 *
 * The SDK is the built package (`dist/`, through a `node_modules/oxen-inference-sdk` link, so the
 * package's `exports` and `sideEffects` apply, as for an installed package) when `dist/` exists,
 * else the repository's source; the output says which, and warns when `dist/` is older than the
 * source. Flags: `--build` runs `npm run build` in a scratch copy of the package's sources (the
 * working tree's `dist/` is left alone) and measures that; `--source` / `--dist` force one;
 * `--chunks` lists each case's chunks; `--modules` also the modules in them by size; `--json` prints JSON.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUILD_INPUTS } from '../build/inputs.mjs';
import { REPO_ROOT, type SdkSource } from '../lib/browser-bundle.ts';
import type { Bundler } from '../lib/browser-bundle.ts';
import { measureCase, type CaseMeasure } from '../lib/bundle-measure.ts';
import { REFERENCE_FIGURES, SIZE_CASES } from '../lib/bundle-size-cases.ts';

const args = new Set(process.argv.slice(2));
for (const a of args) {
  if (!['--build', '--source', '--dist', '--modules', '--chunks', '--json'].includes(a)) {
    console.error(`unknown option ${a} (known: --build, --source, --dist, --modules, --chunks, --json)`);
    process.exit(2);
  }
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
/** The bundlers, in the order shown: Vite first (what most users build with), then esbuild. */
const BUNDLERS: readonly Bundler[] = ['vite', 'esbuild'];
/** How each bundler is run, for the report. */
const HOW: Record<Bundler, string> = {
  vite: 'Vite 8 (rolldown), `vite build` defaults (Oxc minify, browser condition)',
  esbuild: 'esbuild --bundle --splitting --minify --format=esm --platform=browser',
};

/** The newest modification time (ms) of the files under `dirs` (recursively) with one of `exts`. */
function newestMtime(dirs: string[], exts: string[]): { file: string; ms: number } {
  let newest = { file: '', ms: 0 };
  const walk = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) for (const f of readdirSync(p)) walk(path.join(p, f));
    else if (exts.some((e) => p.endsWith(e)) && st.mtimeMs > newest.ms) newest = { file: p, ms: st.mtimeMs };
  };
  for (const d of dirs) if (existsSync(d)) walk(d);
  return newest;
}

/** `npm run build` in a scratch copy of the package's sources (node_modules linked); returns the copy's directory. */
function buildScratchPackage(scratch: string): string {
  const dir = path.join(scratch, 'package');
  for (const p of BUILD_INPUTS) cpSync(path.join(REPO_ROOT, p), path.join(dir, p), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  console.error(`npm run build (in a scratch copy: ${dir}) ...`);
  execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

function chooseSdk(scratch: string): { sdk: SdkSource; packageDir?: string; note: string } {
  if (args.has('--build')) {
    return {
      sdk: 'dist',
      packageDir: buildScratchPackage(scratch),
      note: 'the built package (npm run build of the current sources in a scratch copy; its exports and sideEffects apply)',
    };
  }
  const distIndex = path.join(REPO_ROOT, 'dist/index.js');
  const hasDist = existsSync(distIndex);
  if (args.has('--source') || (!hasDist && !args.has('--dist'))) {
    return {
      sdk: 'source',
      note: hasDist
        ? 'the repository source (--source)'
        : 'the repository source (no dist/: run `npm run build` to measure the built package)',
    };
  }
  if (!hasDist) throw new Error('--dist given but dist/index.js is missing: run `npm run build` (or pass --build)');
  const built = statSync(distIndex).mtimeMs;
  const newest = newestMtime(
    ['runtime', 'generated', 'index.ts'].map((p) => path.join(REPO_ROOT, p)),
    ['.ts'],
  );
  const stale =
    newest.ms > built
      ? ` WARNING: dist/ is older than ${path.relative(REPO_ROOT, newest.file)}: rebuild with --build`
      : '';
  return { sdk: 'dist', note: `the built package (dist/, as installed: its exports and sideEffects apply)${stale}` };
}

async function main(): Promise<void> {
  const workRoot = mkdtempSync(path.join(tmpdir(), 'inference-sdk-bench-bundle-'));
  const measures: CaseMeasure[] = [];
  let sdk: SdkSource;
  let note: string;
  try {
    const chosen = chooseSdk(workRoot);
    ({ sdk, note } = chosen);
    for (const c of SIZE_CASES)
      for (const bundler of BUNDLERS)
        measures.push(await measureCase(c, path.join(workRoot, 'cases'), sdk, chosen.packageDir, bundler));
  } finally {
    rmSync(workRoot, { recursive: true, force: true });
  }

  if (args.has('--json')) {
    const out = {
      sdk,
      compression: 'gzip -9',
      cases: measures.map((m) => ({
        id: m.case.id,
        bundler: m.bundler,
        splitting: m.case.splitting ?? true,
        title: m.case.title,
        gzipBytes: m.gzipBytes,
        gzipBytesWithLazy: m.gzipBytesWithLazy,
        aimBytes: m.case.aimBytes ?? null,
        chunks: m.loaded.map((c) => ({ file: c.file, bytes: c.bytes, gzipBytes: c.gzipBytes })),
        lazyChunks: m.lazy.map((c) => ({ file: c.file, bytes: c.bytes, gzipBytes: c.gzipBytes, module: c.entryPoint })),
        modules: m.modules,
      })),
      references: REFERENCE_FIGURES,
    };
    console.log(JSON.stringify(out, null, 2));
    return;
  }

  console.log('bench:bundle: bytes a page loads before one call runs (entry chunk + its static imports, each gzip -9)');
  for (const b of BUNDLERS) console.log(`  ${b}: ${HOW[b]}`);
  console.log(`SDK from ${note}\n`);
  const find = (id: string, bundler: Bundler) => measures.find((x) => x.case.id === id && x.bundler === bundler);
  for (const m of measures) {
    const aim =
      m.case.aimBytes === undefined
        ? ''
        : `   aim <= ${kB(m.case.aimBytes)}: ${m.gzipBytes <= m.case.aimBytes ? 'met' : `OVER by ${kB(m.gzipBytes - m.case.aimBytes)}`}`;
    const split = m.case.splitOf && find(m.case.splitOf.id, m.bundler);
    const ratio =
      split && m.case.splitOf
        ? `   ${(m.gzipBytes / split.gzipBytes).toFixed(2)}x ${m.case.splitOf.id} (aim <= ${m.case.splitOf.aimRatio}x; ${(m.gzipBytes / split.gzipBytesWithAllLazy).toFixed(2)}x its split build's every chunk but validators, ${kB(split.gzipBytesWithAllLazy)})`
        : '';
    if (m.bundler === BUNDLERS[0]) console.log(`${m.case.title}`);
    console.log(`  ${m.bundler.padEnd(8)} ${kB(m.gzipBytes)} gz${aim}${ratio}`);
    if (args.has('--modules') || args.has('--chunks'))
      for (const c of m.loaded)
        console.log(
          `    ${c.file.padEnd(40)} ${String(c.bytes).padStart(7)} B  ${String(c.gzipBytes).padStart(6)} B gz`,
        );
    if (m.lazy.length > 0) {
      console.log(
        `    + loaded lazily before the request is sent: ${kB(m.gzipBytesWithLazy - m.gzipBytes)} gz -> ${kB(m.gzipBytesWithLazy)} gz in all`,
      );
      if (args.has('--modules') || args.has('--chunks'))
        for (const c of m.lazy)
          console.log(
            `    ${c.file.padEnd(40)} ${String(c.bytes).padStart(7)} B  ${String(c.gzipBytes).padStart(6)} B gz  (${c.entryPoint?.replace(/^.*\/package\//, '') ?? 'shared'})`,
          );
    }
    if (args.has('--modules')) {
      console.log(
        `    modules (${m.bundler === 'vite' ? 'rendered bytes before minification' : 'minified bytes'} in the loaded chunks):`,
      );
      for (const mod of m.modules.filter((x) => x.bytes > 0).slice(0, 25))
        console.log(`      ${String(mod.bytes).padStart(7)}  ${mod.input.replace(/^.*\/package\//, '')}`);
    }
    if (m.bundler === BUNDLERS[BUNDLERS.length - 1]) console.log('');
  }
  console.log('reference figures (measured on this machine the same way):');
  for (const r of REFERENCE_FIGURES) console.log(`  ${r.name.padEnd(28)} ${kB(r.gzipBytes)} gz`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
