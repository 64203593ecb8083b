/**
 * The generator's CommonJS libraries, loaded with `require` on first use. An ES module `import()` of a
 * CommonJS package makes Node scan its source for export names first (cjs-module-lexer): for
 * TypeScript's 9 MB `typescript.js` that is about 1.7 s on this project's 2-core machine, against about
 * 0.65 s for `require`; for ts-morph about 1.1 s against 0.6 s. A run that reuses every file loads none.
 */
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { requireWithCodeCache } from './code-cache.ts';

const require = createRequire(import.meta.url);

/** TypeScript's version as its `typescript.js` declares it near its start (`var version = "6.0.2";`), or ''. */
const typescriptVersion = (source: string): string =>
  /\bvar version = "([^"]+)";/.exec(source.slice(0, 1 << 18))?.[1] ?? '';

/**
 * ts-morph's TypeScript (`ts`, the compiler API whose factory and printer make the modules), without
 * the rest of ts-morph: the generator uses only `ts`, and ts-morph's own modules (its 1 MB entry and
 * `@ts-morph/common`'s 3 MB with its glob and file-system helpers) took about 0.13 s more to load on
 * this project's machine. The file is the one `@ts-morph/common` loads as `./typescript`, so a
 * `require('ts-morph')` elsewhere in the process gets the same module. Loaded with a V8 code cache
 * (`code-cache.ts`; `OXEN_CODEGEN_CODE_CACHE=0` turns it off), keyed also by TypeScript's version.
 */
export const loadTsMorph = (): { ts: typeof import('ts-morph').ts } => {
  if (typescript === undefined) {
    const common = createRequire(require.resolve('ts-morph')).resolve('@ts-morph/common');
    const file = path.join(path.dirname(common), 'typescript.js');
    typescript = { ts: requireWithCodeCache(file, { key: typescriptVersion }) as typeof import('ts-morph').ts };
  }
  return typescript;
};
let typescript: { ts: typeof import('ts-morph').ts } | undefined;

/** handlebars with its compiler (`stages/templates.ts` compiles `models.md.hbs` with it). */
export const loadHandlebars = (): typeof import('handlebars') => require('handlebars') as typeof import('handlebars');

/** handlebars' runtime alone (about half of its load), which renders precompiled templates. */
export const loadHandlebarsRuntime = (): typeof import('handlebars') =>
  require('handlebars/runtime') as typeof import('handlebars');

/** ajv-formats' format tables. */
export const loadAjvFormats = (): Record<'fullFormats' | 'fastFormats', Record<string, unknown>> =>
  require('ajv-formats/dist/formats') as Record<'fullFormats' | 'fastFormats', Record<string, unknown>>;

/** redos-detector, the check that a schema's pattern cannot backtrack catastrophically (`stages/pattern-check.ts`). */
export const loadRedosDetector = (): typeof import('redos-detector') =>
  require('redos-detector') as typeof import('redos-detector');

/**
 * openapi-typescript's CommonJS build, given ts-morph's copy of TypeScript (the printer's) for its
 * `require('typescript')`, so that a run loads one compiler instead of two (about 60 MiB of peak RSS
 * and 0.4 s less; its output is the same, pinned by `npm run generate -- --check`). The entry is put
 * in `require`'s cache only while openapi-typescript loads, and only when no TypeScript is loaded
 * there yet: any other `require('typescript')` in the process gets the real package.
 */
export function loadOpenapiTypescript(): typeof import('openapi-typescript') {
  return withLentTypescript('openapi-typescript');
}

/** What `stages/openapi.ts` uses of openapi-typescript's modules besides its entry (which loads Redocly). */
export interface OpenapiTransform {
  /** openapi-typescript's version (its `package.json`). */
  version: string;
  /** `dist/transform/index.cjs`: the description (bundled) to its syntax nodes. */
  transformSchema: (schema: unknown, ctx: Record<string, unknown>) => unknown;
  /** `dist/lib/utils.cjs`. */
  /** `dist/lib/ts.cjs`'s printer of the nodes. */
  astToString: (nodes: unknown) => string;
  utils: {
    scanDiscriminators: (schema: unknown, options: Record<string, unknown>) => unknown;
    resolveRef: (schema: unknown, ref: string, options: { silent: boolean }) => unknown;
  };
}

/**
 * openapi-typescript's transform without its entry module, which loads Redocly (about 1.3 s of
 * module loading on this project's machine) for the lint and the bundling of `$ref`s that
 * `stages/openapi.ts` does without: TypeScript lent as for `loadOpenapiTypescript`.
 */
export function loadOpenapiTransform(): OpenapiTransform {
  const dir = path.dirname(require.resolve('openapi-typescript'));
  const transformSchema = withLentTypescript<OpenapiTransform['transformSchema']>(
    path.join(dir, 'transform/index.cjs'),
  );
  const utils = require(path.join(dir, 'lib/utils.cjs')) as OpenapiTransform['utils'];
  const { astToString } = require(path.join(dir, 'lib/ts.cjs')) as Pick<OpenapiTransform, 'astToString'>;
  const version = (require('openapi-typescript/package.json') as { version: string }).version;
  return { version, transformSchema, astToString, utils };
}

/** `require(id)` (a package or a file of openapi-typescript) with ts-morph's TypeScript lent for its `require('typescript')`. */
function withLentTypescript<T>(id: string): T {
  const entry = require.resolve(id);
  const fresh = require.cache[entry] === undefined;
  const dir = path.dirname(require.resolve('openapi-typescript'));
  let tsPath: string | undefined;
  try {
    tsPath = require.resolve('typescript', { paths: [dir] });
  } catch {
    tsPath = undefined; // openapi-typescript's own require reports it
  }
  const lent = tsPath !== undefined && require.cache[tsPath] === undefined ? new Module(tsPath) : undefined;
  if (lent && tsPath) {
    lent.filename = tsPath;
    lent.exports = loadTsMorph().ts;
    lent.loaded = true;
    require.cache[tsPath] = lent;
  }
  try {
    const loaded = require(entry) as T;
    if (fresh && openapiTs === undefined)
      openapiTs = lent ? loadTsMorph().ts : tsPath ? (require(tsPath) as typeof openapiTs) : undefined;
    return loaded;
  } finally {
    if (lent && tsPath && require.cache[tsPath] === lent) delete require.cache[tsPath];
  }
}

let openapiTs: ReturnType<typeof loadTsMorph>['ts'] | undefined;

/**
 * The TypeScript whose factory made openapi-typescript's nodes (ts-morph's when `loadOpenapiTypescript`
 * lent it, else the package it found), or undefined when openapi-typescript was loaded elsewhere first.
 */
export function openapiTypescriptTs(): ReturnType<typeof loadTsMorph>['ts'] | undefined {
  return openapiTs;
}
