/**
 * The browser build variant (`dist/browser/`, the package's `browser` export condition): the same
 * entries as the default build except the Node-only `./node`, ES modules only, with the files of
 * `BROWSER_FILES` swapped for their browser versions. Browser bundlers (esbuild, Vite, webpack, Rollup
 * with `browser: true`) match the `browser` condition; Node, Deno and Bun do not, and keep `dist/`.
 *
 * Also used by the browser bundles built from the repository's source (`scripts/lib/browser-bundle.ts`),
 * so that those measure and test what the browser variant ships.
 */
import path from 'node:path';

/** `{ source file: its browser version }`, relative to the repository root, `/`-separated. */
export const BROWSER_FILES = Object.freeze({
  // util.inspect's hook on SDKError: browsers have no util.inspect
  'runtime/internal/inspect.ts': 'runtime/internal/inspect.browser.ts',
  // the errors' brand for instanceof across the ES module and CommonJS copies: a browser bundle has one build
  'runtime/internal/brand.ts': 'runtime/internal/brand.browser.ts',
});

/** The output directory of the browser variant, relative to `dist/`. */
export const BROWSER_DIR = 'browser';

/**
 * Whether an output entry has a browser variant: all but the Node-only ones (`node/index`). The browser
 * build still bundles those, so that its chunks split as the default build's do (a module that `./node`
 * shares with another entry stays a chunk of its own), and drops their entry files (`browserFilesPlugin`).
 */
export const hasBrowserVariant = (name) => !name.startsWith('node/');

/**
 * A rolldown plugin that resolves each file of `BROWSER_FILES` (under `root`) to its browser version,
 * whatever the specifier that reached it, and leaves out the entry files without a browser variant
 * (`hasBrowserVariant`).
 */
export function browserFilesPlugin(root) {
  const swaps = new Map(
    Object.entries(BROWSER_FILES).map(([from, to]) => [path.resolve(root, from), path.resolve(root, to)]),
  );
  return {
    name: 'oxen-inference-sdk-browser-files',
    async resolveId(source, importer, extra) {
      if (!importer || !source.startsWith('.')) return null;
      const resolved = await this.resolve(source, importer, { ...extra, skipSelf: true });
      const swap = resolved && swaps.get(resolved.id);
      return swap ? { id: swap } : null;
    },
    generateBundle(_options, bundle) {
      for (const [file, output] of Object.entries(bundle))
        if (output.type === 'chunk' && output.isEntry && !hasBrowserVariant(output.name)) delete bundle[file];
    },
  };
}
