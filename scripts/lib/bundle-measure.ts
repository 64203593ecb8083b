/**
 * Measuring the size cases (`bundle-size-cases.ts`): each page is bundled on its own (so that no chunk is
 * shared with another case's code), and reported as the bytes loaded before its call runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  bundleForBrowser,
  chunkText,
  inputBreakdown,
  staticClosure,
  totalGzip,
  type BrowserBundle,
  type Bundler,
  type OutputChunk,
  type SdkSource,
} from './browser-bundle.ts';
import type { SizeCase } from './bundle-size-cases.ts';

/** The entry of a model's validator chunk (source `generated/validators/<id>.ts`, built `dist/browser/validators/<id>.js`). */
const VALIDATOR_CHUNK = /(^|\/)validators\/[^/]+\.(ts|js)$/;

/** The measure of one case. */
export interface CaseMeasure {
  case: SizeCase;
  /** The bundler that built it. */
  bundler: Bundler;
  bundle: BrowserBundle;
  /** The entry chunk and the chunks it imports statically, in load order. */
  loaded: OutputChunk[];
  /** Their gzipped total, in bytes. */
  gzipBytes: number;
  /** Chunks the call loads lazily before it sends anything (`case.lazyInputs`), beyond `loaded`. */
  lazy: OutputChunk[];
  /** `gzipBytes` plus the lazy chunks, in bytes. */
  gzipBytesWithLazy: number;
  /**
   * Every chunk of the build but the models' validators, gzipped (each chunk on its own), in bytes: all the
   * code the page may ever load, which a build without code splitting carries in one file.
   */
  gzipBytesWithAllLazy: number;
  /** All the text of `loaded` (to look for strings). */
  loadedText: string;
  /** The source modules of `loaded`, largest first, with their minified bytes. */
  modules: Array<{ input: string; bytes: number }>;
}

/**
 * The chunks reached by dynamic `import()` from `from` whose module matches one of `patterns`,
 * with their static imports, excluding chunks already in `from`.
 */
function lazyChunks(bundle: BrowserBundle, from: OutputChunk[], patterns: RegExp[]): OutputChunk[] {
  if (patterns.length === 0) return [];
  const have = new Set(from.map((c) => c.file));
  const out: OutputChunk[] = [];
  const queue = [...from];
  while (queue.length > 0) {
    const chunk = queue.shift()!;
    for (const dyn of chunk.dynamicImports) {
      const target = bundle.chunks.get(dyn);
      if (!target?.entryPoint || !patterns.some((p) => p.test(target.entryPoint!))) continue;
      for (const c of staticClosure(bundle, dyn)) {
        if (have.has(c.file)) continue;
        have.add(c.file);
        out.push(c);
        queue.push(c);
      }
    }
  }
  return out;
}

/**
 * Bundle and measure one case with `bundler` in `<workRoot>/<bundler>/<case id>` (for `dist`, the package in
 * `packageDir`, default the repository), with code splitting unless the case says otherwise.
 */
export async function measureCase(
  sizeCase: SizeCase,
  workRoot: string,
  sdk: SdkSource,
  packageDir?: string,
  bundler: Bundler = 'esbuild',
): Promise<CaseMeasure> {
  const workDir = path.join(workRoot, bundler, sizeCase.id);
  mkdirSync(workDir, { recursive: true });
  const entry = path.join(workDir, `${sizeCase.id}.js`);
  writeFileSync(entry, sizeCase.code);
  const bundle = await bundleForBrowser({
    entryPoints: { [sizeCase.id]: entry },
    workDir,
    sdk,
    bundler,
    splitting: sizeCase.splitting ?? true,
    ...(packageDir ? { packageDir } : {}),
  });
  const loaded = staticClosure(bundle, `${sizeCase.id}.js`);
  const lazy = lazyChunks(bundle, loaded, sizeCase.lazyInputs);
  const gzipBytes = totalGzip(loaded);
  return {
    case: sizeCase,
    bundler,
    bundle,
    loaded,
    gzipBytes,
    lazy,
    gzipBytesWithLazy: gzipBytes + totalGzip(lazy),
    gzipBytesWithAllLazy: totalGzip(
      [...bundle.chunks.values()].filter((c) => !VALIDATOR_CHUNK.test(c.entryPoint ?? '')),
    ),
    loadedText: chunkText(bundle, loaded),
    modules: inputBreakdown(loaded),
  };
}

/**
 * Strings only the named machinery carries into a bundle (checked against the minified output:
 * string literals survive minification). A per-model image call must carry none of them among
 * the chunks it loads before its call runs.
 */
export const MACHINERY_MARKERS: Readonly<Record<string, readonly string[]>> = {
  'queue coordinator (queue.run)': ['left the queue'],
  'event-stream (SSE) parser': ['invalid-retry', 'max-buffer-size-exceeded'],
  'fine-tunes': ['/fine_tunes'],
  'compiled validators': ['must NOT have additional properties', 'schemaPath'],
  'queue validation (ValidationError issues)': ['is not a parameter of this model'],
  // loaded (runtime/retry-loop.ts) only after a first attempt failed in a way the policy retries
  'retries (p-retry)': ['Expected `retries` to be a non-negative number'],
};

/** The markers of `MACHINERY_MARKERS` found in `text`, as `what ("marker")`. */
export function markersIn(text: string, groups: readonly string[] = Object.keys(MACHINERY_MARKERS)): string[] {
  return groups.flatMap((what) =>
    (MACHINERY_MARKERS[what] ?? []).filter((s) => text.includes(s)).map((s) => `${what} (${JSON.stringify(s)})`),
  );
}

/** Code evaluated from strings (refused under a CSP without `'unsafe-eval'`). */
export const EVAL_PATTERN = /\bnew Function\b|\beval\s*\(|\bFunction\s*\(\s*["'`]/;
