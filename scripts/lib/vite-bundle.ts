/**
 * Bundling a page with Vite (8: rolldown inside), as a user's `vite build` does: the defaults of a
 * production build (minified by Oxc, `browser` export condition, ES modules, the dynamic-import preload
 * helper), with the page's module as the build input. `splitting: false` is a build without code
 * splitting (`output.codeSplitting: false`: every `import()` inlined, as a single-file worker bundle).
 *
 * The result has the shape of `browser-bundle.ts`' esbuild bundles, so that the same measures apply.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BROWSER_FILES } from '../build/browser.mjs';
import { REPO_ROOT } from '../../generator/paths.ts';
import { gzipBytes, sourceSpecifier, type BrowserBundle, type OutputChunk } from './bundle-common.ts';

/** The options `bundleForBrowser` hands over. */
export interface ViteBundleInput {
  entryPoints: Record<string, string>;
  workDir: string;
  outdir: string;
  /** Resolve the package's specifiers to the repository's source (else node_modules, as installed). */
  fromSource: boolean;
  splitting: boolean;
  minify: boolean;
}

/** The rolldown plugin that resolves `oxen-inference-sdk...` to the repository's source, with the browser files swapped in. */
function sourcePlugin() {
  const swaps = new Map(
    Object.entries(BROWSER_FILES).map(([from, to]) => [path.join(REPO_ROOT, from), path.join(REPO_ROOT, to)]),
  );
  return {
    name: 'oxen-inference-sdk-source',
    enforce: 'pre' as const,
    resolveId(source: string, importer: string | undefined) {
      if (source.startsWith('.') && importer) return swaps.get(path.resolve(path.dirname(importer), source)) ?? null;
      if (!/^oxen-inference-sdk(\/.*)?$/.test(source)) return null;
      return sourceSpecifier(source.slice('oxen-inference-sdk'.length));
    },
  };
}

/** A path of Vite's output (absolute module ids) relative to the repository root, `/`-separated. */
const repoRelative = (p: string) => path.relative(REPO_ROOT, p.replace(/^\0/, '')).split(path.sep).join('/');

/**
 * Bundle the entries with Vite into `outdir`.
 * @throws Error with Vite's message when the build fails.
 */
export async function bundleWithVite(input: ViteBundleInput): Promise<BrowserBundle> {
  const { build } = await import('vite');
  const result = await build({
    configFile: false,
    root: input.workDir,
    logLevel: 'silent',
    plugins: input.fromSource ? [sourcePlugin()] : [],
    build: {
      outDir: input.outdir,
      emptyOutDir: true,
      minify: input.minify,
      rollupOptions: {
        input: input.entryPoints,
        output: {
          entryFileNames: '[name].js',
          ...(input.splitting ? {} : { codeSplitting: false }),
        },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
  const chunks = new Map<string, OutputChunk>();
  const inputs = new Set<string>();
  for (const out of outputs) {
    if (out.type !== 'chunk') continue;
    const bytes = readFileSync(path.join(input.outdir, out.fileName));
    for (const id of out.moduleIds) inputs.add(repoRelative(id));
    chunks.set(out.fileName, {
      file: out.fileName,
      bytes: bytes.length,
      gzipBytes: gzipBytes(bytes),
      staticImports: [...out.imports],
      dynamicImports: [...out.dynamicImports],
      entryPoint: out.facadeModuleId ? repoRelative(out.facadeModuleId) : undefined,
      inputs: Object.fromEntries(
        Object.entries(out.modules)
          .filter(([, m]) => m.renderedLength > 0)
          .map(([id, m]) => [repoRelative(id), m.renderedLength]),
      ),
    });
  }
  return { outdir: input.outdir, chunks, inputs: [...inputs].sort() };
}
