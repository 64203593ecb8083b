/**
 * A V8 code cache for one large CommonJS file the generator loads: TypeScript's 9 MB `typescript.js`
 * (`libraries.ts` `loadTsMorph`), which V8 otherwise parses and compiles on every run (about 0.4 s of
 * CPU of a user's `add` on this project's 2-core machine, docs/measurements/regeneration.md). Node.js
 * 22.1's `module.enableCompileCache()` does this for every module; Node.js 20 has no such cache.
 *
 * `requireWithCodeCache(file)` runs the file as `require` would (the CommonJS wrapper, the module put in
 * `require.cache` under its path before it runs) but compiles it with `vm.Script` and the cached code
 * of an earlier run. The cache is written when the process exits (so that it holds the functions the
 * run compiled, not only the top level), only when there was none or V8 rejected it, into
 * `.cache/oxen-inference-codegen/` of the `node_modules` folder that holds the file (as babel, eslint
 * and ava keep theirs: a code cache is executable, so it lives where the code lives, never in the
 * system's temporary folder, which other users can write). Its name is keyed by what invalidates it
 * (the file's real path, size and modification time, the caller's key such as TypeScript's version,
 * Node's version and V8's cache version tag, which also covers V8's flags); the file holds a sha256 of
 * the cached data, since V8 checks only the data's header, and is written to a temporary file then
 * renamed. Used on every Node.js version, so that there is one path (tested here on Node.js 20). Any failure
 * to read or write it (a read-only `node_modules`, a full disk, a torn or foreign file) falls back to
 * compiling the source as `require` does: the run's output, messages and exit code are the same.
 *
 * A cache left by an earlier TypeScript or Node.js (another key) would stay forever: a run that writes a
 * cache removes the others of the same file name beside it that have not been used for
 * `CODE_CACHE_STALE_MS` (their modification time; a run whose cache V8 accepts renews it when it is more
 * than a day old), and a temporary file of a write that did not finish, after a day.
 *
 * `OXEN_CODEGEN_CODE_CACHE=0` turns it off (plain `require`). `NODE_DEBUG=oxen-codegen` prints what
 * happened to the cache on stderr (`typescript.js: code cache accepted`).
 */
import { isAscii } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { debuglog } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';

/** The environment variable that turns the code cache off when set to `0`. */
export const CODE_CACHE_ENV = 'OXEN_CODEGEN_CODE_CACHE';

/** The folder of the caches, under the `node_modules` folder that holds the cached file. */
export const CODE_CACHE_DIR = path.join('.cache', 'oxen-inference-codegen');

/** How old (milliseconds; a day) an accepted cache's modification time gets before a run renews it, and an abandoned temporary file before it is removed. */
const RENEW_MS = 24 * 60 * 60 * 1000;
/**
 * A cache not used for this long (milliseconds; 30 days) is removed by the next run that writes a cache
 * of the same file name beside it.
 */
export const CODE_CACHE_STALE_MS = 30 * RENEW_MS;
/** A cache file's name: `<the cached file's name without extension>-<16 hex digits>.v8cache`, and a temporary one of a write. */
const CACHE_NAME = /^(.*)-[0-9a-f]{16}\.v8cache(\.\d+-[0-9a-f]{8}\.tmp)?$/;

/** What happened to a file's code cache on load. */
export interface CodeCacheLoad {
  /** The cache file, or undefined when the file is not inside a `node_modules` folder or the cache is off. */
  cacheFile: string | undefined;
  /**
   * `off`: not used (turned off, or no folder for it); `absent`: no cache file (or unreadable);
   * `corrupt`: the file's checksum or header did not match (ignored); `rejected`: V8 rejected the
   * cached data (`script.cachedDataRejected`); `accepted`: V8 used it.
   */
  status: 'off' | 'absent' | 'corrupt' | 'rejected' | 'accepted';
}

const debug = debuglog('oxen-codegen');
const HEADER = 'oxen-inference-codegen v8 code cache 1\n';
const DIGEST_BYTES = 32;
const require = createRequire(import.meta.url);

/** Scripts loaded this process whose cache is to be written on exit. */
const pending = new Map<string, { script: vm.Script; cacheFile: string }>();
/** What happened on each file's load (for tests and `NODE_DEBUG`). */
const loads = new Map<string, CodeCacheLoad>();
/** Whether `writeCodeCaches` runs on the process's exit already. */
let exitHooked = false;

/**
 * `require(file)` with a V8 code cache (see the module's comment). A file already in `require.cache`
 * is returned from there, as `require` does.
 * @param file the file's absolute real path (what `require.resolve` gives).
 * @param options.key what else invalidates the cache besides the file's path, size and modification
 *   time and Node's version, from the file's source (for TypeScript: its version).
 * @returns the file's `module.exports`.
 * @throws whatever running the file throws (as `require` would); never for the cache.
 */
export function requireWithCodeCache(file: string, options: { key?: (source: string) => string } = {}): unknown {
  const cached = require.cache[file];
  if (cached) return cached.exports;
  let source: string | undefined;
  try {
    // no folder for a cache (none, or turned off: `codeCacheDir`): a plain require, the source not read here
    if (codeCacheDir(file) !== undefined) source = readSource(file);
  } catch {
    source = undefined; // require reports it
  }
  const cacheFile = source === undefined ? undefined : codeCacheFile(file, options.key?.(source) ?? '');
  if (source === undefined || cacheFile === undefined) {
    loads.set(file, { cacheFile: undefined, status: 'off' });
    debug('%s: code cache off', path.basename(file));
    return require(file);
  }
  const { data, status } = readCache(cacheFile);
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    ...(data ? { cachedData: data } : {}),
  });
  const outcome: CodeCacheLoad['status'] = data ? (script.cachedDataRejected ? 'rejected' : 'accepted') : status;
  loads.set(file, { cacheFile, status: outcome });
  debug('%s: code cache %s (%s)', path.basename(file), outcome, cacheFile);
  if (outcome === 'accepted') renewIfOld(cacheFile);
  else {
    if (!exitHooked) process.once('exit', writeCodeCaches);
    exitHooked = true;
    pending.set(file, { script, cacheFile });
  }
  return runAsRequire(script, file);
}

/**
 * What happened to `file`'s code cache when `requireWithCodeCache` loaded it in this process
 * (undefined when it did not). For tests.
 */
export function codeCacheLoad(file: string): CodeCacheLoad | undefined {
  return loads.get(file);
}

/**
 * Writes the code cache of each file loaded without an accepted one (run on the process's exit; tests
 * call it directly). Failures are ignored: the next run compiles from source again.
 */
export function writeCodeCaches(): void {
  for (const [file, { script, cacheFile }] of pending) {
    pending.delete(file);
    const tmp = `${cacheFile}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      const data = script.createCachedData();
      mkdirSync(path.dirname(cacheFile), { recursive: true });
      writeFileSync(tmp, Buffer.concat([Buffer.from(HEADER), digest(data), data]), { mode: 0o644 });
      renameSync(tmp, cacheFile);
      debug('%s: code cache written (%d bytes)', path.basename(file), data.length);
      removeStale(cacheFile);
    } catch (err) {
      debug('%s: code cache not written: %s', path.basename(file), (err as Error).message);
      try {
        rmSync(tmp, { force: true });
      } catch {
        // nothing to clean up
      }
    }
  }
}

/** Renews the modification time of `cacheFile` (in use) when it is more than a day old; a failure is ignored. */
function renewIfOld(cacheFile: string): void {
  try {
    const now = Date.now();
    if (now - statSync(cacheFile).mtimeMs > RENEW_MS) utimesSync(cacheFile, now / 1000, now / 1000);
  } catch {
    // a read-only folder: the cache may be removed as stale one day and is written again then
  }
}

/**
 * Removes, beside `cacheFile` (just written), the caches of the same file name with another key not used
 * for `CODE_CACHE_STALE_MS`, and the temporary files of writes of such caches older than a day. Nothing
 * else in the folder is touched; a failure is ignored.
 */
function removeStale(cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  const own = CACHE_NAME.exec(path.basename(cacheFile))?.[1];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const m = CACHE_NAME.exec(name);
    if (!m || m[1] !== own || name === path.basename(cacheFile)) continue;
    try {
      const age = now - statSync(path.join(dir, name)).mtimeMs;
      if (age > (m[2] ? RENEW_MS : CODE_CACHE_STALE_MS)) rmSync(path.join(dir, name), { force: true });
    } catch (err) {
      debug('%s: not removed: %s', name, (err as Error).message); // gone meanwhile, or not ours to remove
    }
  }
}

/**
 * The cache file of `file` (an absolute real path) with `key` (`requireWithCodeCache`'s, from the
 * source), in the innermost `node_modules` folder that holds it; undefined when none does or the file
 * cannot be read.
 */
export function codeCacheFile(file: string, key = ''): string | undefined {
  const dir = codeCacheDir(file);
  if (dir === undefined) return undefined;
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return undefined;
  }
  const hash = createHash('sha256')
    .update(
      JSON.stringify([file, stat.size, stat.mtimeMs, key, process.version, process.arch, v8.cachedDataVersionTag()]),
    )
    .digest('hex')
    .slice(0, 16);
  const name = `${path.basename(file, path.extname(file))}-${hash}.v8cache`;
  return path.join(dir, name);
}

/**
 * The folder of the code caches for `file` (an absolute path): `CODE_CACHE_DIR` in the innermost
 * `node_modules` folder that holds it; undefined when none does, or when the cache is turned off
 * (`OXEN_CODEGEN_CODE_CACHE=0`). The real path of an installed file is in the installing project's
 * `node_modules` (a linked one, in the folder the link points to).
 */
export function codeCacheDir(file: string): string | undefined {
  if (process.env[CODE_CACHE_ENV] === '0') return undefined;
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return undefined;
  }
  const parts = real.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  return at < 0 ? undefined : path.join(parts.slice(0, at + 1).join(path.sep), CODE_CACHE_DIR);
}

/**
 * The text of `file` as `require` reads it (UTF-8, without a byte order mark). An ASCII file (as
 * TypeScript's is) is decoded as Latin-1, the same text in about a seventh of the time (5 against 35 ms
 * for TypeScript's 9 MB on this project's machine).
 */
function readSource(file: string): string {
  const bytes = readFileSync(file);
  if (isAscii(bytes)) return bytes.toString('latin1');
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The cached data of `cacheFile` when present and whole. */
function readCache(cacheFile: string): { data?: Buffer; status: 'absent' | 'corrupt' } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(cacheFile);
  } catch {
    return { status: 'absent' };
  }
  const start = HEADER.length + DIGEST_BYTES;
  if (bytes.length <= start || bytes.toString('latin1', 0, HEADER.length) !== HEADER) return { status: 'corrupt' };
  const data = bytes.subarray(start);
  if (!digest(data).equals(bytes.subarray(HEADER.length, start))) return { status: 'corrupt' };
  return { data, status: 'absent' };
}

function digest(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** Runs the wrapped script as Node's `require` runs a CommonJS file, with its module in `require.cache`. */
function runAsRequire(script: vm.Script, file: string): unknown {
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  require.cache[file] = mod;
  try {
    const wrapper = script.runInThisContext({ displayErrors: true }) as (
      exports: unknown,
      require: NodeJS.Require,
      module: Module,
      filename: string,
      dirname: string,
    ) => void;
    wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  } catch (err) {
    delete require.cache[file];
    throw err;
  }
  mod.loaded = true;
  return mod.exports;
}
