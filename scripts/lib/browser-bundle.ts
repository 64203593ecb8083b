/**
 * Bundling the SDK for a browser page with esbuild, as a user's bundler would
 * (`--bundle --splitting --format=esm --platform=browser --minify`), and measuring what a page
 * loads before a call runs: the entry chunk and every chunk it imports statically (chunks reached
 * only through a dynamic `import()` are excluded), gzipped at level 9.
 *
 * Used by `npm run bench:bundle` (`scripts/bench/bundle.ts`) and by the browser tests
 * (`test/browser/`), which may import scripts/lib/ (scripts/ never imports test/).
 *
 * The SDK is imported by its package name (`oxen-inference-sdk`, `oxen-inference-sdk/runtime`,
 * `oxen-inference-sdk/models/<id>`), resolved either to the repository's TypeScript source
 * (`sdk: 'source'`, with the browser versions of `scripts/build/browser.mjs`' files, as the browser
 * build has them) or to the built package (`sdk: 'dist'`: through a `node_modules/oxen-inference-sdk`
 * link to the repository, so that esbuild reads the package's own `exports` and `sideEffects`,
 * exactly as for an installed package).
 */
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { REPO_ROOT } from '../../generator/paths.ts';
import { BROWSER_FILES } from '../build/browser.mjs';
import { gzipBytes, sourceSpecifier, type BrowserBundle, type OutputChunk } from './bundle-common.ts';

export { gzipBytes, sourceSpecifier, type BrowserBundle, type OutputChunk };

export { REPO_ROOT };

/** Where the SDK comes from: the repository's TypeScript source, or the built package in `dist/`. */
export type SdkSource = 'source' | 'dist';

/**
 * Resolves the package's own specifiers to the repository's source files (the same layout the
 * package's `exports` map gives the built files), and the files of `BROWSER_FILES` to their browser
 * versions, as the package's `browser` condition gives a browser bundler the browser build.
 */
function sourceAliasPlugin(): Plugin {
  const swaps = new Map(
    Object.entries(BROWSER_FILES).map(([from, to]) => [path.join(REPO_ROOT, from), path.join(REPO_ROOT, to)]),
  );
  return {
    name: 'oxen-inference-sdk-source',
    setup(b) {
      b.onResolve({ filter: /^\./ }, (args) => {
        const swap = swaps.get(path.resolve(args.resolveDir, args.path));
        return swap === undefined ? undefined : { path: swap, sideEffects: false };
      });
      b.onResolve({ filter: /^oxen-inference-sdk(\/.*)?$/ }, (args) => {
        const sub = args.path.slice('oxen-inference-sdk'.length);
        const resolved = sourceSpecifier(sub);
        return resolved
          ? { path: resolved, sideEffects: false }
          : { errors: [{ text: `oxen-inference-sdk has no export ${JSON.stringify(sub)}` }] };
      });
    },
  };
}

/** Options of `bundleForBrowser`. */
export interface BrowserBundleOptions {
  /** Output name (without `.js`) -> entry file (absolute, or relative to `workDir`). */
  entryPoints: Record<string, string>;
  /** A scratch directory: the output goes to `<workDir>/out` (for `dist`, the package link goes in `<workDir>/node_modules`). */
  workDir: string;
  /** Where `oxen-inference-sdk` resolves to (default `source`). */
  sdk?: SdkSource;
  /** For `sdk: 'dist'`: the package directory (its `package.json` and `dist/`); default the repository root. */
  packageDir?: string;
  /** Minify (default true, as measured). */
  minify?: boolean;
  /** The bundler: esbuild (default) or Vite (`vite-bundle.ts`), each as a user's build runs it. */
  bundler?: Bundler;
  /**
   * Code splitting (default true): a chunk per dynamically imported module. False: one file, every
   * `import()` inlined (a Cloudflare Worker's or a plain esbuild build).
   */
  splitting?: boolean;
}

/** The bundlers measured. */
export type Bundler = 'esbuild' | 'vite';

/** A path of esbuild's metafile (relative to its working directory) as a path relative to the repository root. */
function repoRelative(workDir: string, p: string): string {
  return path.relative(REPO_ROOT, path.resolve(workDir, p)).split(path.sep).join('/');
}

/**
 * Bundle `entryPoints` for a browser page into `<workDir>/out`.
 * @throws Error with esbuild's messages when the build fails (e.g. an export the SDK no longer has),
 * or, for `sdk: 'dist'`, when `dist/` does not exist.
 */
export async function bundleForBrowser(options: BrowserBundleOptions): Promise<BrowserBundle> {
  const sdk = options.sdk ?? 'source';
  const workDir = path.resolve(options.workDir);
  const outdir = path.join(workDir, 'out');
  mkdirSync(workDir, { recursive: true });
  if (sdk === 'dist') {
    const packageDir = path.resolve(options.packageDir ?? REPO_ROOT);
    try {
      readFileSync(path.join(packageDir, 'dist/index.js'));
    } catch {
      throw new Error(
        `${path.join(packageDir, 'dist/index.js')} is missing: run \`npm run build\` first (or bundle from source)`,
      );
    }
    mkdirSync(path.join(workDir, 'node_modules'), { recursive: true });
    try {
      symlinkSync(packageDir, path.join(workDir, 'node_modules/oxen-inference-sdk'), 'dir');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  const entryPoints = Object.fromEntries(
    Object.entries(options.entryPoints).map(([name, file]) => [name, path.resolve(workDir, file)]),
  );
  const splitting = options.splitting ?? true;
  if (options.bundler === 'vite') {
    const { bundleWithVite } = await import('./vite-bundle.ts');
    return bundleWithVite({
      entryPoints,
      workDir,
      outdir,
      fromSource: sdk === 'source',
      splitting,
      minify: options.minify ?? true,
    });
  }
  const result = await build({
    entryPoints,
    absWorkingDir: workDir,
    outdir,
    bundle: true,
    splitting,
    format: 'esm',
    platform: 'browser',
    minify: options.minify ?? true,
    metafile: true,
    write: true,
    logLevel: 'silent',
    legalComments: 'none',
    plugins: sdk === 'source' ? [sourceAliasPlugin()] : [],
  });
  return {
    outdir,
    chunks: chunksOf(result.metafile, workDir, outdir),
    inputs: Object.keys(result.metafile.inputs)
      .map((p) => repoRelative(workDir, p))
      .sort(),
  };
}

function chunksOf(meta: Metafile, workDir: string, outdir: string): Map<string, OutputChunk> {
  const rel = (p: string) => path.relative(outdir, path.resolve(workDir, p)).split(path.sep).join('/');
  const chunks = new Map<string, OutputChunk>();
  for (const [p, out] of Object.entries(meta.outputs)) {
    if (!p.endsWith('.js')) continue;
    const file = rel(p);
    const bytes = readFileSync(path.join(outdir, file));
    chunks.set(file, {
      file,
      bytes: bytes.length,
      gzipBytes: gzipBytes(bytes),
      staticImports: out.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => rel(i.path)),
      dynamicImports: out.imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => rel(i.path)),
      entryPoint: out.entryPoint === undefined ? undefined : repoRelative(workDir, out.entryPoint),
      inputs: Object.fromEntries(
        Object.entries(out.inputs).map(([i, v]) => [repoRelative(workDir, i), v.bytesInOutput]),
      ),
    });
  }
  return chunks;
}

/**
 * The chunks a page loads before `entry`'s code runs: `entry` and, transitively, every chunk
 * imported by a static `import` statement (in load order: depth first, each once). Chunks reached
 * only through a dynamic `import()` are not included.
 */
export function staticClosure(bundle: BrowserBundle, entry: string): OutputChunk[] {
  const seen = new Set<string>();
  const order: OutputChunk[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const chunk = bundle.chunks.get(file);
    if (!chunk) throw new Error(`the bundle has no chunk ${file}`);
    order.push(chunk);
    for (const dep of chunk.staticImports) visit(dep);
  };
  visit(entry);
  return order;
}

/** The bytes of chunks, concatenated (e.g. to look for strings in everything a page loads). */
export function chunkText(bundle: BrowserBundle, chunks: readonly OutputChunk[]): string {
  return chunks.map((c) => readFileSync(path.join(bundle.outdir, c.file), 'utf8')).join('\n');
}

/** The sum of the chunks' gzipped sizes (each chunk is a separate gzipped response), in bytes. */
export function totalGzip(chunks: readonly OutputChunk[]): number {
  return chunks.reduce((n, c) => n + c.gzipBytes, 0);
}

/**
 * The source files behind `chunks`, with the minified bytes each contributes, largest first
 * (to see which module makes a bundle big).
 */
export function inputBreakdown(chunks: readonly OutputChunk[]): Array<{ input: string; bytes: number }> {
  const by = new Map<string, number>();
  for (const c of chunks)
    for (const [input, bytes] of Object.entries(c.inputs)) by.set(input, (by.get(input) ?? 0) + bytes);
  return [...by]
    .map(([input, bytes]) => ({ input, bytes }))
    .sort((a, b) => b.bytes - a.bytes || a.input.localeCompare(b.input));
}
