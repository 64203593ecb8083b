/**
 * Both tarballs of a release, packed once per state of the working tree and shared by every test file
 * that installs them (test/cli/, test/package/): packing runs both packages' `prepack` builds, about
 * 20 s of CPU, which each file used to pay again. The first file that needs them packs into
 * `<system temporary folder>/inference-sdk-packed-<checkout>/<hash>/` (the hash covers every file the
 * pack copies) while holding a lock folder; the
 * others wait for its `result.json`. A later run with the same tree reuses them. A lock whose owner
 * process is gone is taken over; a failed pack leaves no result, so the next file packs again and
 * reports its own error. The pack's build of the SDK (`dist/` and its stamp, `.tmp/build-stamp.json`) is
 * kept beside the tarballs (`packedBuild`): test/package/build.test.ts starts from it instead of
 * building again.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copiedForPack, installTarball, packPackages, type PackedPair } from '../../scripts/lib/pack.ts';
import { REPO_ROOT } from '../../generator/paths.ts';
import { alive } from '../../generator/output/lock.ts';

// outside the working tree (a copy cannot go into the tree it copies), one folder per checkout
const PACKED = path.join(
  tmpdir(),
  `inference-sdk-packed-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}`,
);
/** How long a file waits for another's pack, in milliseconds (a pack takes about 30 s; far longer under load). */
const WAIT_MS = 15 * 60_000;
/** The folder of a pack that holds its build (`packedBuild`). */
const BUILD = 'build';
/** How long the pack of an earlier tree is kept, in milliseconds. */
const KEEP_MS = 60 * 60_000;

/** sha256 of the path and bytes of every file the pack copies from the working tree. */
export function packedTreeHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(REPO_ROOT, full).split(path.sep).join('/');
      if (!copiedForPack(rel)) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) h.update(`${rel}\0`).update(readFileSync(full)).update('\0');
    }
  };
  walk(REPO_ROOT);
  return h.digest('hex').slice(0, 16);
}

/** Takes the lock folder `lock` (atomic `mkdir`); a lock of a dead process is removed first. */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'pid'), String(process.pid));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    let pid: number;
    try {
      pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
    } catch {
      return false; // being written: its owner lives
    }
    if (Number.isInteger(pid) && !alive(pid)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

/**
 * Waits until `done()` holds or this process takes the lock folder `lock`, polling every 250 ms.
 * @returns true when this process holds the lock (it must remove it), false when `done()` held.
 * @throws Error after 15 minutes.
 */
async function lockUnlessDone(lock: string, done: () => boolean): Promise<boolean> {
  const end = Date.now() + WAIT_MS;
  for (;;) {
    if (done()) return false;
    if (tryLock(lock)) return true;
    if (Date.now() > end) throw new Error(`waited ${WAIT_MS} ms for ${lock}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

let mine: Promise<PackedPair> | undefined;

/**
 * Both packed tarballs of the current working tree (see the file's comment).
 * @throws Error with npm's output when packing fails, or after 15 minutes of waiting for another
 * file's pack.
 */
export function packedTarballs(): Promise<PackedPair> {
  mine ??= (async () => {
    const dir = path.join(PACKED, packedTreeHash());
    const result = path.join(dir, 'result.json');
    const lock = `${dir}.lock`;
    mkdirSync(PACKED, { recursive: true });
    if (!(await lockUnlessDone(lock, () => existsSync(result))))
      return JSON.parse(readFileSync(result, 'utf8')) as PackedPair;
    try {
      if (existsSync(result)) return JSON.parse(readFileSync(result, 'utf8')) as PackedPair;
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      const pair = await packPackages(dir);
      const build = path.join(dir, BUILD);
      mkdirSync(path.join(build, '.tmp'), { recursive: true });
      for (const kept of ['dist', '.tmp/build-stamp.json'])
        renameSync(path.join(dir, 'source', kept), path.join(build, kept));
      rmSync(path.join(dir, 'source'), { recursive: true, force: true });
      writeFileSync(result, JSON.stringify(pair));
      // packs of earlier trees go after an hour (a run whose files saw the tree before an edit may
      // still install one), never one being made (it holds a lock)
      for (const old of readdirSync(PACKED)) {
        const other = path.join(PACKED, old);
        if (old === path.basename(dir) || old.endsWith('.lock') || existsSync(`${other}.lock`)) continue;
        if (Date.now() - statSync(other).mtimeMs > KEEP_MS) rmSync(other, { recursive: true, force: true });
      }
      return pair;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  })();
  return mine;
}

/**
 * The SDK build that the current working tree's pack ran (`prepack` → `npm run build`, from no stamp):
 * a folder holding `dist/` and `.tmp/build-stamp.json` as that build left them. Packs first when needed.
 * @throws Error as `packedTarballs` does.
 */
export async function packedBuild(): Promise<string> {
  return path.join(packDir(await packedTarballs()), BUILD);
}

/** The folder of one pack: the tarballs are in its `tarball/` (`<pack>/tarball/<name>.tgz`). */
const packDir = (pair: PackedPair) => path.dirname(path.dirname(pair.sdk.tarball));

/** Which packages a shared install holds: the SDK alone, or the SDK and the generator. */
export type Installed = 'sdk' | 'both';

const installs = new Map<Installed, Promise<string>>();

/**
 * The `node_modules` folder of the packed `which` installed as a user installs them (`npm install` of the
 * tarballs, from the npm cache where it can), made once per pack beside it and shared by every file and
 * run: an install of each file's own took about 6 s of CPU. Read it, never write into it (`linkInstalled`
 * gives a project a `node_modules/` of its own); the installed CLI's runs share their code cache of
 * TypeScript in its `.cache/` (generator/code-cache.ts).
 * @throws Error with npm's output when the install fails, or as `packedTarballs` does.
 */
export function installedModules(which: Installed): Promise<string> {
  let made = installs.get(which);
  if (!made) {
    made = (async () => {
      const pair = await packedTarballs();
      const dir = path.join(packDir(pair), `installed-${which}`);
      if (await lockUnlessDone(`${dir}.lock`, () => existsSync(dir))) {
        try {
          // installed beside its place and renamed into it whole: a failed install leaves nothing there
          const staging = `${dir}.staging`;
          rmSync(staging, { recursive: true, force: true });
          await installTarball(
            staging,
            which === 'both' ? [pair.sdk.tarball, pair.codegen.tarball] : [pair.sdk.tarball],
          );
          renameSync(staging, dir);
        } finally {
          rmSync(`${dir}.lock`, { recursive: true, force: true });
        }
      }
      return path.join(dir, 'node_modules');
    })();
    installs.set(which, made);
  }
  return made;
}

/**
 * Makes `dir` a project with `manifest` as its package.json and the shared install of `which`
 * (`installedModules`): what a user's project looks like after `npm install`. Its `node_modules/` is a
 * folder of its own holding a link to each installed package (a scope's folder of its own too), so that a
 * test may add a package to it without writing into the shared install.
 */
export async function linkInstalled(dir: string, which: Installed, manifest: Record<string, unknown>): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const shared = await installedModules(which);
  const link = (from: string, to: string) => {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (entry.name.startsWith('@') && entry.isDirectory())
        link(path.join(from, entry.name), path.join(to, entry.name));
      else symlinkSync(path.join(from, entry.name), path.join(to, entry.name));
    }
  };
  link(shared, path.join(dir, 'node_modules'));
}
