/**
 * The V8 code cache of a CommonJS file (generator/code-cache.ts, TypeScript's load in
 * generator/libraries.ts), in this process on small files under a temporary `node_modules`: the file
 * runs as `require` runs it, its cache is written where it belongs and used when whole, and a torn,
 * foreign or unwritable cache, or the cache turned off, gives the same module. Each test loads a source
 * of its own (V8 keeps compiled scripts per source and name in a process). Across processes, through the
 * installed CLI: test/cli/code-cache.test.ts.
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import {
  CODE_CACHE_DIR,
  CODE_CACHE_ENV,
  CODE_CACHE_STALE_MS,
  codeCacheDir,
  codeCacheFile,
  codeCacheLoad,
  requireWithCodeCache,
  writeCodeCaches,
} from '../../generator/code-cache.ts';
import { tempDir } from '../support/index.ts';

const require = createRequire(import.meta.url);
const tmp = tempDir('inference-sdk-code-cache-');
const modules = path.join(tmp.dir, 'node_modules');
afterAll(() => tmp.remove());
afterEach(() => {
  vi.unstubAllEnvs();
  writeCodeCaches(); // nothing left for the next test
});

let n = 0;
/**
 * A package `pkg-<n>` with an `index.js` (a source of its own) that requires a sibling file and uses
 * the wrapper's arguments, under `dir` (default the temporary `node_modules`). @returns its real path.
 */
function fixture(dir = modules): string {
  const pkg = path.join(dir, `pkg-${n++}`);
  mkdirSync(pkg, { recursive: true });
  writeFileSync(path.join(pkg, 'sibling.js'), 'module.exports = 40;\n');
  writeFileSync(
    path.join(pkg, 'index.js'),
    `'use strict';\nconst sibling = require('./sibling');\nfunction answer(x) { return sibling + x; }\n` +
      `module.exports = { answer, file: __filename, dir: __dirname, self: module.id, id: ${n} };\n`,
  );
  return path.join(pkg, 'index.js');
}
/** The cache files in `<node_modules>/.cache/oxen-inference-codegen/`. */
const cacheFiles = (dir = modules) => {
  const d = path.join(dir, CODE_CACHE_DIR);
  return existsSync(d) ? readdirSync(d).sort() : [];
};
const forget = (file: string) => delete require.cache[file];
/**
 * What V8 makes of `file`'s cache file: the status of loading a copy of `file` at another path (V8 has
 * not compiled it under that name) with that cache.
 */
function statusOfCopyWithCache(file: string): string | undefined {
  const twin = fixture();
  writeFileSync(twin, readFileSync(file));
  copyFileSync(codeCacheFile(file)!, codeCacheFile(twin)!);
  requireWithCodeCache(twin);
  forget(twin);
  return codeCacheLoad(twin)?.status;
}
type Fixture = { answer(x: number): number; file: string; dir: string; id: number };

describe('requireWithCodeCache', () => {
  test('runs the file as require does: its module in require.cache under its path, exports, __filename, relative require', () => {
    const file = fixture();
    const m = requireWithCodeCache(file) as Fixture;
    expect(m.answer(2)).toBe(42);
    expect([m.file, m.dir]).toEqual([file, path.dirname(file)]);
    expect(require.cache[file]?.exports).toBe(m);
    expect(require.cache[file]?.loaded).toBe(true);
    expect(require(file)).toBe(m); // a later require gets the same module
    expect(requireWithCodeCache(file)).toBe(m);
    forget(file);
  });

  test('a file of UTF-8 text with a byte order mark reads as require reads it', () => {
    mkdirSync(path.join(modules, 'utf8'), { recursive: true });
    const file = path.join(modules, 'utf8', 'index.js');
    writeFileSync(file, "\uFEFFmodule.exports = 'café ✓ 𝒳';\n");
    expect(requireWithCodeCache(file)).toBe('café ✓ 𝒳');
    forget(file);
  });

  test('a file that throws is not left in require.cache, as with require', () => {
    const file = path.join(modules, 'throws.js');
    mkdirSync(modules, { recursive: true });
    writeFileSync(file, "throw new Error('boom');\n");
    expect(() => requireWithCodeCache(file)).toThrow('boom');
    expect(require.cache[file]).toBeUndefined();
  });

  test('no cache at first; written on writeCodeCaches (the exit) where the key says; used when whole (V8 accepts it)', () => {
    const file = fixture();
    const before = cacheFiles().length;
    requireWithCodeCache(file);
    const load = codeCacheLoad(file)!;
    expect(load.status).toBe('absent');
    expect(load.cacheFile).toBe(codeCacheFile(file));
    expect(path.dirname(load.cacheFile!)).toBe(path.join(modules, CODE_CACHE_DIR));
    expect(existsSync(load.cacheFile!)).toBe(false); // not before the run ends
    writeCodeCaches();
    expect(cacheFiles()).toHaveLength(before + 1);
    expect(readFileSync(load.cacheFile!, 'latin1')).toMatch(/^oxen-inference-codegen v8 code cache 1\n/);
    // the same source at another path (V8 has not compiled it under that name): the cache is accepted
    const twin = fixture();
    writeFileSync(twin, readFileSync(file));
    copyFileSync(load.cacheFile!, codeCacheFile(twin)!);
    expect((requireWithCodeCache(twin) as Fixture).answer(1)).toBe(41);
    expect(codeCacheLoad(twin)).toEqual({ cacheFile: codeCacheFile(twin), status: 'accepted' });
    const written = readFileSync(codeCacheFile(twin)!);
    writeCodeCaches();
    expect(readFileSync(codeCacheFile(twin)!).equals(written)).toBe(true); // an accepted cache is kept
    forget(file);
    forget(twin);
  });

  test('the key: the file, its size and the caller key each name another cache file', () => {
    const file = fixture();
    const name = codeCacheFile(file, 'a');
    expect(codeCacheFile(file, 'b')).not.toBe(name);
    expect(codeCacheFile(fixture(), 'a')).not.toBe(name);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n`);
    expect(codeCacheFile(file, 'a')).not.toBe(name);
    expect(codeCacheFile(path.join(tmp.dir, 'outside.js'))).toBeUndefined(); // no node_modules: no cache
  });

  test.each([
    ['truncated', (bytes: Buffer) => bytes.subarray(0, bytes.length >> 1)],
    ['a byte flipped', (bytes: Buffer) => Buffer.from(bytes.map((b, i) => (i === bytes.length - 9 ? b ^ 0xff : b)))],
    ['empty', () => Buffer.alloc(0)],
    ['not a cache', () => Buffer.from('#!/bin/sh\necho hello\n')],
  ])('a cache file %s is ignored (corrupt) and replaced by a whole one', (_, damage) => {
    const donor = fixture();
    requireWithCodeCache(donor);
    writeCodeCaches();
    const whole = readFileSync(codeCacheFile(donor)!);
    const file = fixture();
    writeFileSync(codeCacheFile(file)!, damage(whole));
    expect((requireWithCodeCache(file) as Fixture).answer(0)).toBe(40);
    expect(codeCacheLoad(file)?.status).toBe('corrupt');
    writeCodeCaches();
    expect(statusOfCopyWithCache(file)).toBe('accepted');
    forget(donor);
    forget(file);
  });

  test("a whole cache of another source (V8 rejects it) is ignored and replaced by the file's own", () => {
    const donor = fixture();
    requireWithCodeCache(donor);
    writeCodeCaches();
    const file = fixture();
    writeFileSync(file, `${readFileSync(file, 'utf8')}// a longer source\n`);
    copyFileSync(codeCacheFile(donor)!, codeCacheFile(file)!);
    expect((requireWithCodeCache(file) as Fixture).answer(2)).toBe(42);
    expect(codeCacheLoad(file)?.status).toBe('rejected');
    writeCodeCaches();
    expect(statusOfCopyWithCache(file)).toBe('accepted');
    forget(donor);
    forget(file);
  });

  test('an unwritable cache folder gives the module and no error (the folder is a file; read-only when not root)', () => {
    for (const blocked of ['file in the way', 'read-only'] as const) {
      if (blocked === 'read-only' && process.getuid?.() === 0) continue; // root writes anyway
      const dir = path.join(tmp.dir, blocked.replaceAll(' ', '-'), 'node_modules');
      const file = fixture(dir);
      if (blocked === 'file in the way') writeFileSync(path.join(dir, '.cache'), 'not a folder');
      else chmodSync(dir, 0o555);
      try {
        expect((requireWithCodeCache(file) as Fixture).answer(2)).toBe(42);
        expect(codeCacheLoad(file)?.status).toBe('absent');
        expect(() => writeCodeCaches()).not.toThrow();
        expect(existsSync(codeCacheFile(file)!)).toBe(false);
      } finally {
        chmodSync(dir, 0o755);
        forget(file);
      }
    }
  });

  test(`${CODE_CACHE_ENV}=0 turns it off: a plain require, no cache file read or written`, () => {
    vi.stubEnv(CODE_CACHE_ENV, '0');
    const file = fixture();
    const before = cacheFiles();
    const m = requireWithCodeCache(file) as Fixture;
    expect(m.answer(2)).toBe(42);
    expect(require.cache[file]?.exports).toBe(m);
    expect(codeCacheLoad(file)).toEqual({ cacheFile: undefined, status: 'off' });
    writeCodeCaches();
    expect(cacheFiles()).toEqual(before);
    forget(file);
  });

  test('a write removes the caches of the same file name unused for 30 days and abandoned temporary files; nothing else', () => {
    const dir = path.join(tmp.dir, 'stale', 'node_modules');
    const file = fixture(dir);
    const folder = path.join(dir, CODE_CACHE_DIR);
    mkdirSync(folder, { recursive: true });
    const day = 24 * 60 * 60 * 1000;
    const aged = (name: string, ms: number) => {
      writeFileSync(path.join(folder, name), 'x');
      const t = (Date.now() - ms) / 1000;
      utimesSync(path.join(folder, name), t, t);
    };
    aged('index-0123456789abcdef.v8cache', CODE_CACHE_STALE_MS + day); // another key, unused: removed
    aged('index-fedcba9876543210.v8cache', CODE_CACHE_STALE_MS - day); // used within 30 days: kept
    aged('index-0123456789abcdef.v8cache.4242-0a1b2c3d.tmp', 2 * day); // a write that did not finish: removed
    aged('index-fedcba9876543210.v8cache.4343-0a1b2c3d.tmp', 60_000); // one that may be under way: kept
    aged('typescript-0123456789abcdef.v8cache', CODE_CACHE_STALE_MS + day); // another file's: kept
    aged('notes.txt', CODE_CACHE_STALE_MS + day); // not a cache: kept
    requireWithCodeCache(file);
    writeCodeCaches();
    expect(cacheFiles(dir)).toEqual(
      [
        path.basename(codeCacheFile(file)!),
        'index-fedcba9876543210.v8cache',
        'index-fedcba9876543210.v8cache.4343-0a1b2c3d.tmp',
        'notes.txt',
        'typescript-0123456789abcdef.v8cache',
      ].sort(),
    );
    forget(file);
  });

  test('a cache V8 accepts is marked as in use: its modification time renewed when over a day old', () => {
    const file = fixture();
    requireWithCodeCache(file);
    writeCodeCaches();
    const twin = fixture();
    writeFileSync(twin, readFileSync(file));
    copyFileSync(codeCacheFile(file)!, codeCacheFile(twin)!);
    const old = (Date.now() - 10 * 24 * 60 * 60 * 1000) / 1000;
    utimesSync(codeCacheFile(twin)!, old, old);
    requireWithCodeCache(twin);
    expect(codeCacheLoad(twin)?.status).toBe('accepted');
    expect(Date.now() - statSync(codeCacheFile(twin)!).mtimeMs).toBeLessThan(60_000);
    forget(file);
    forget(twin);
  });

  test('V8 rejects cached data of another source: the fact the "rejected" status stands on', () => {
    const data = new vm.Script('1 + 1').createCachedData();
    expect(new vm.Script('2 + 22', { cachedData: data }).cachedDataRejected).toBe(true);
  });
});

describe("codeCacheDir (also where the CLI points Node.js 22's own compile cache: generator/cli/bin.ts)", () => {
  test("the innermost node_modules of the file's real path; none outside node_modules or with the cache off", () => {
    const file = fixture();
    expect(codeCacheDir(file)).toBe(path.join(modules, CODE_CACHE_DIR));
    const nested = fixture(path.join(modules, 'outer', 'node_modules'));
    expect(codeCacheDir(nested)).toBe(path.join(modules, 'outer', 'node_modules', CODE_CACHE_DIR));
    // a project whose node_modules links an installed package: the folder the link points to
    const project = path.join(tmp.dir, 'project', 'node_modules');
    mkdirSync(project, { recursive: true });
    symlinkSync(path.dirname(file), path.join(project, 'linked'));
    expect(codeCacheDir(path.join(project, 'linked', 'index.js'))).toBe(path.join(modules, CODE_CACHE_DIR));
    const outside = path.join(tmp.dir, 'outside.js');
    writeFileSync(outside, '');
    expect(codeCacheDir(outside)).toBeUndefined();
    expect(codeCacheDir(path.join(tmp.dir, 'missing.js'))).toBeUndefined();
    vi.stubEnv(CODE_CACHE_ENV, '0');
    expect(codeCacheDir(file)).toBeUndefined();
  });
});
