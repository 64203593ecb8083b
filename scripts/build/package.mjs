/**
 * The package build (`npm run build`, also run by `prepack`): `dist/` holds, for the package root,
 * `./runtime`, `./node` (Node.js only: the `node:http` adapter and `saveOutput`), `./chat`
 * (`ChatCompletionAccumulator`), `./validator-support` (what generated validators import), `./openapi` (the
 * description's types) and every `./models/<id>` (the files in `generated/models/` at build time, so a new model needs
 * no change here):
 * - ES module JavaScript (`.js`) and CommonJS (`.cjs`), bundled by rolldown,
 * - a browser variant of every entry but `./node` in `dist/browser/` (ES modules; the `browser` export
 *   condition): the same code with Node's `util.inspect` hook left out (`browser.mjs`), its entries'
 *   `export *` kept as written (`REEXPORTED`: what a bundler leaves out of a page then), and
 * - declarations for both (`.d.ts`, `.d.cts`), emitted by TypeScript (`declarations.mjs`).
 *
 * Code splitting is on for both formats, so that code shared by several entries (the runtime's
 * classes: `Client`, `APIError`, ...) exists once per format and `instanceof` holds across subpaths,
 * and so that the root client's dynamic `import()`s (per-model validators, the queue and stream
 * machinery) stay lazily loaded chunks in `dist/chunks/`. The runtime's dependencies stay external,
 * except that the CommonJS build bundles p-retry (and its dependency is-network-error): both are
 * ESM-only and `require(esm)` needs Node 20.19+, while `engines` says >=20. Node's built-ins (the
 * `./node` entry only) stay external with their `node:` prefix, which Deno needs.
 *
 * The build is skipped when `dist/` is what the current inputs build (`stamp.mjs`: the stamp
 * `.tmp/build-stamp.json` records the hash of every input and output file), so `npm pack` after
 * `npm run build` builds nothing again. Flags: `--force` builds anyway; `--quiet` prints nothing
 * unless it fails.
 */
import { readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from '../../generator/root.mjs';
import { BROWSER_DIR, BROWSER_FILES, browserFilesPlugin } from './browser.mjs';
import { BUILD_DIRS, BUILD_FILES } from './inputs.mjs';
import { hashFiles, hashValue, listFiles, readStamp, removeStamp, staleReason, writeStamp } from './stamp.mjs';

const ROOT = REPO_ROOT;
const DIST = 'dist';
const STAMP = path.join(ROOT, '.tmp', 'build-stamp.json');
const TSCONFIG = 'tsconfig.build.json';
/** Dependencies bundled into the CommonJS build (ESM-only packages); every other package is external. */
const BUNDLED_IN_CJS = ['p-retry', 'is-network-error'];

const args = new Set(process.argv.slice(2));
for (const a of args) {
  if (!['--force', '--quiet'].includes(a)) {
    console.error(`unknown option ${a} (known: --force, --quiet)`);
    process.exit(2);
  }
}
const log = args.has('--quiet') ? () => {} : (line) => console.log(line);

/** `{ output name: source file }`: the package's entry points (see `exports` in package.json). */
function entries() {
  const models = readdirSync(path.join(ROOT, 'generated', 'models'))
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => [`models/${file.slice(0, -'.ts'.length)}`, `generated/models/${file}`]);
  return {
    index: 'index.ts',
    'runtime/index': 'runtime/index.ts',
    'node/index': 'runtime/node/index.ts',
    'chat/index': 'runtime/chat/index.ts',
    'validator-support': 'runtime/validator-support.ts',
    openapi: 'generated/openapi.ts',
    ...Object.fromEntries(models),
  };
}

/**
 * The validators as JavaScript entries of their own (not exported, no declarations): each keeps its plain
 * name (`dist/validators/<id>.js`) instead of a hashed chunk name, so a user's bundler names its own chunk
 * after it, and the root client's table of lazy imports carries one hash per model, not two.
 */
function validatorEntries() {
  return Object.fromEntries(
    readdirSync(path.join(ROOT, 'generated', 'validators'))
      .filter((file) => file.endsWith('.ts'))
      .sort()
      .map((file) => [`validators/${file.slice(0, -'.ts'.length)}`, `generated/validators/${file}`]),
  );
}

/** What the build reads besides the package dependencies' files (which the stamp records as read). */
function inputFiles() {
  return listFiles(ROOT, {
    dirs: BUILD_DIRS,
    files: BUILD_FILES,
    // what generated/ holds for people, not for the build
    ignore: (rel) => rel.endsWith('.md'),
  });
}

/** The installed version of a package (read from its package.json: loading the tools takes longer than a check). */
const versionOf = (name) =>
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`${name}/package.json`), 'utf8')).version;

/**
 * Bundles `input` in `format` (`esm`, `cjs`) into `dist/`, or, with `browser`, into `dist/browser/` with the
 * browser versions of `BROWSER_FILES` (`browser.mjs`).
 */
async function buildJs(input, format, { browser = false } = {}) {
  const { rolldown } = await import('rolldown');
  const ext = format === 'esm' ? 'js' : 'cjs';
  const bundled = format === 'cjs' ? BUNDLED_IN_CJS : [];
  const bundle = await rolldown({
    input,
    cwd: ROOT,
    platform: 'neutral',
    tsconfig: TSCONFIG,
    transform: { target: 'es2022' },
    external: (id, _importer, isResolved) =>
      id.startsWith('node:') ||
      (!isResolved &&
        !id.startsWith('.') &&
        !path.isAbsolute(id) &&
        !bundled.some((d) => id === d || id.startsWith(`${d}/`))),
    plugins: browser ? [browserFilesPlugin(ROOT), reexportsPlugin()] : [],
    // what `BROWSER_CHUNKS` needs (rolldown's implicit choice, said): an entry's chunk may export more than its module
    ...(browser ? { preserveEntrySignatures: 'allow-extension' } : {}),
    logLevel: 'warn',
  });
  try {
    const { output } = await bundle.write({
      dir: browser ? path.join(ROOT, DIST, BROWSER_DIR) : path.join(ROOT, DIST),
      format,
      entryFileNames: `[name].${ext}`,
      chunkFileNames: `chunks/[name]-[hash].${ext}`,
      ...(browser ? { codeSplitting: BROWSER_CHUNKS } : {}),
      // the declarations carry the docs; the JavaScript keeps what tools read (licences, pure annotations)
      comments: { jsdoc: false, legal: true, annotation: true },
    });
    const modules = output.flatMap((o) => (o.type === 'chunk' ? o.moduleIds : []));
    const outDir = browser ? `${DIST}/${BROWSER_DIR}` : DIST;
    return { outputs: output.map((o) => `${outDir}/${o.fileName}`), modules };
  } finally {
    await bundle.close();
  }
}

/**
 * The browser build's `export *` statements of the package's entries, kept as they are written, each naming
 * the built file of the module it re-exports (`index.js`: `export * from './runtime/index.js'` and
 * `'./generated/index.js'`; `runtime/index.js`: `export * from './exports.js'`), instead of being flattened
 * into named imports of chunks. esbuild resolves a page's names through them without using the entry module
 * itself, and so leaves out what the entry names beside them: `Redactor`, whose chunk the runtime also loads
 * with `import()`, and which esbuild would otherwise put in every page's first load (it keeps a chunk that a
 * used module imports and an `import()` loads, used or not: 1.7 kB gz). `REEXPORTED`: re-exported module ->
 * the entry that re-exports it; each is built as an entry too (`BROWSER_REEXPORT_ENTRIES`), so its file exists.
 */
const REEXPORTED = {
  'runtime/index.ts': 'index.ts',
  'generated/index.ts': 'index.ts',
  'runtime/exports.ts': 'runtime/index.ts',
  'runtime/error-classes.ts': 'runtime/index.ts',
};
/** The modules of `REEXPORTED` that are not entries of the package, as entries of the browser build. */
const BROWSER_REEXPORT_ENTRIES = {
  'runtime/exports': 'runtime/exports.ts',
  'runtime/error-classes': 'runtime/error-classes.ts',
  'generated/index': 'generated/index.ts',
};
/**
 * The browser build's chunk groups: the proxy handler (server code) in a chunk of its own, without the
 * modules it imports, so that the `./runtime` entry's module (`exports.js`) does not import `redact.ts`' chunk
 * for it (see `REEXPORTED`); the modules of a first call (`CORE_MODULES`) in one chunk, and the queue's
 * endpoints in another. A user's bundler splits a page by which of its chunks (and of the modules loaded on
 * demand) use each file: with the modules a call needs spread over several files, each used by another set of
 * lazy modules, a page loaded four chunks (each gzipped on its own: about 0.6 kB gz more than one file holding
 * the same code).
 */
const BROWSER_CHUNKS = {
  includeDependenciesRecursively: false,
  groups: [
    { name: 'proxy', test: /[\\/]runtime[\\/]proxy[\\/]/ },
    { name: 'core', test: (id) => CORE_MODULES.test(id.split(path.sep).join('/')) },
    // The queue's endpoint functions with `operationRequest`, which they and the models' and fine-tunes' share:
    // one chunk, which a root `Client` loads on its first queue call and `queue.run` with its machinery.
    { name: 'queue-endpoints', test: (id) => QUEUE_ENDPOINTS.test(id.split(path.sep).join('/')) },
  ],
};
/**
 * The modules a first successful call through `createTransport` uses (the root `Client`'s resources are
 * not among them); none only a module loaded on demand uses (that module's code would come along with them).
 */
const CORE_MODULES =
  /\/runtime\/(errors|operations|options|transport|transport-state|scope|api-promise|log|hooks|endpoints|internal\/(http|retry|env|lazy|timer|read-limited|checks|brand\.browser|inspect\.browser))\.ts$/;
/** The modules of the `queue-endpoints` chunk. */
const QUEUE_ENDPOINTS = /\/runtime\/(queue\/endpoints|internal\/operation)\.ts$/;
/** The rolldown plugin that keeps the `export *` statements of `REEXPORTED`, as external `.js` specifiers. */
function reexportsPlugin() {
  return {
    name: 'oxen-inference-sdk-reexports',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.')) return null;
      const target = path
        .relative(ROOT, path.resolve(path.dirname(importer), source))
        .split(path.sep)
        .join('/');
      if (REEXPORTED[target] !== path.relative(ROOT, importer).split(path.sep).join('/')) return null;
      // the entries sit where their sources do (`index.js`, `runtime/index.js`): the specifier stays, as `.js`
      return { id: source.replace(/\.ts$/, '.js'), external: true };
    },
  };
}

/**
 * Where the root's `node_modules/` really is: a copy of the repository made to build or pack in links it,
 * and the bundler names the files it read by their real path.
 */
const NODE_MODULES = realpathSync(path.join(ROOT, 'node_modules'));

/**
 * Files (relative to the repository) among module ids: the dependencies' files the bundler read, those of
 * the root's `node_modules/` named through it even when it is a link, so that a stamp holds for every copy
 * linking the same folder.
 */
const dependencyFiles = (ids) =>
  ids
    .filter((id) => path.isAbsolute(id) && id.includes(`${path.sep}node_modules${path.sep}`))
    .map((id) => {
      const linked = path.relative(NODE_MODULES, id);
      const inRoot =
        linked.startsWith('..') || path.isAbsolute(linked)
          ? path.relative(ROOT, id)
          : path.join('node_modules', linked);
      return inRoot.split(path.sep).join('/');
    });

async function main() {
  const input = entries();
  const jsInput = { ...input, ...validatorEntries() };
  // what decides the output besides the input files (package.json, with the dependencies, is one of them)
  const key = hashValue({
    typescript: versionOf('typescript'),
    rolldown: versionOf('rolldown'),
    entries: jsInput,
    bundledInCjs: BUNDLED_IN_CJS,
    browserFiles: BROWSER_FILES,
  });
  const current = { key, inputs: hashFiles(ROOT, inputFiles()) };
  const reason = args.has('--force') ? '--force' : staleReason(ROOT, readStamp(STAMP), current);
  if (!reason) {
    log('build: dist/ is up to date (nothing changed since the last build; --force rebuilds)');
    return;
  }
  log(`build: building dist/ (${reason})`);
  removeStamp(STAMP);
  rmSync(path.join(ROOT, DIST), { recursive: true, force: true });

  // TypeScript (here) and rolldown (in buildJs) are loaded only now: a check that finds dist/ current needs neither
  const { emitDeclarations } = await import('./declarations.mjs');
  // rolldown bundles on its own threads while TypeScript emits the declarations on this one
  const js = Promise.all([
    buildJs(jsInput, 'esm'),
    buildJs(jsInput, 'cjs'),
    buildJs({ ...jsInput, ...BROWSER_REEXPORT_ENTRIES }, 'esm', { browser: true }),
  ]);
  js.catch(() => {}); // awaited below, after the declarations
  const declarations = emitDeclarations({
    root: ROOT,
    entries: input,
    outDir: path.join(ROOT, DIST),
    tsconfig: TSCONFIG,
  });
  const [esm, cjs, browser] = await js;

  const extra = [
    ...dependencyFiles([...esm.modules, ...cjs.modules, ...browser.modules]),
    ...dependencyFiles(declarations.sources.map((s) => path.join(ROOT, s))),
  ];
  const outputs = [...esm.outputs, ...cjs.outputs, ...browser.outputs, ...declarations.outputs].sort();
  writeStamp(STAMP, {
    key,
    inputs: { ...current.inputs, ...hashFiles(ROOT, [...new Set(extra)].sort()) },
    outputs: hashFiles(ROOT, outputs),
  });
  log(`build: wrote ${outputs.length} files to dist/`);
}

main().catch((error) => {
  removeStamp(STAMP);
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
