/**
 * The package build (`npm run build`, also run by `prepack`): ESM (`.js`, `.d.ts`) and CommonJS
 * (`.cjs`, `.d.cts`) in `dist/` for the package root, `./runtime`, `./node` (Node.js only: the `node:http`
 * adapter and `saveOutput`; its `node:` imports stay external), `./openapi` (the description's types) and every `./models/<id>`. The
 * model entries are the files in `generated/models/` at build time, so a new model needs no change here.
 *
 * Code splitting is on for both formats, so that code shared by several entries (the runtime's
 * classes: `Client`, `APIError`, ...) exists once per format and `instanceof` holds across subpaths,
 * and so that the root client's dynamic `import()`s stay lazily loaded (the per-model validators, which are
 * entries of their own, and the queue, event-stream and retry parts).
 * The runtime's dependencies stay external, except that the CommonJS build bundles p-retry (and its
 * dependency is-network-error): both are ESM-only and `require(esm)` needs Node 20.19+, while
 * `engines` says >=20.
 */
import { readdirSync, rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

/** `<dir>/<name>` -> `generated/<dir>/<name>.ts` for each file of `generated/<dir>`. */
const entriesOf = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(`generated/${dir}`)
      .filter((file) => file.endsWith('.ts'))
      .sort()
      .map((file) => [`${dir}/${file.slice(0, -'.ts'.length)}`, `generated/${dir}/${file}`]),
  );
const models = entriesOf('models');
const validators = entriesOf('validators');

// Cleaned once here: the two builds below run concurrently, so neither may clean the shared outDir.
rmSync('dist', { recursive: true, force: true });

/** The package's entries (those of its `exports`), with their declarations. */
const entries = {
  index: 'index.ts',
  'runtime/index': 'runtime/index.ts',
  'node/index': 'runtime/node/index.ts',
  openapi: 'generated/openapi.ts',
  ...models,
};

const common: Options = {
  // The validators are entries too (not exported, no declarations), so that each keeps its plain
  // name (`dist/validators/<id>.js`) instead of a hashed chunk name: a user's bundler names its own
  // chunk after it, and the root client's table of lazy imports then carries one hash per model, not two.
  entry: { ...entries, ...validators },
  outDir: 'dist',
  tsconfig: 'tsconfig.build.json',
  dts: { entry: entries },
  splitting: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  clean: false,
  silent: true,
  // Node's built-ins (imported by the `./node` entry only) stay external and keep their `node:`
  // prefix, which Deno needs outside npm packages and every runtime understands
  removeNodeProtocol: false,
  external: [/^node:/],
  // shared code and lazily loaded parts (validators, the event-stream and queue-run code) go to dist/chunks/
  esbuildOptions(options) {
    options.chunkNames = 'chunks/[name]-[hash]';
  },
};

export default defineConfig([
  { ...common, format: 'esm' },
  { ...common, format: 'cjs', noExternal: ['p-retry', 'is-network-error'] },
]);
