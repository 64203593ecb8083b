/**
 * Part of stage 7 (write) and of refresh: replacing whole directory trees (`generated/`, and with a
 * refresh `specs/` too) so that a reader finds the old tree or the new one, never a mix, and two
 * runs at once cannot undo each other.
 *
 * The lock: `<root>/.generate.lock`, a file holding the owner's pid and host, created atomically
 * (a `link` that fails when the lock exists). A run waits for a held lock; a lock whose process is
 * gone (same host, pid not alive) is stale and is broken. Only one run at a time stages, swaps or
 * recovers under `<root>`.
 *
 * The journal: `<root>/.generate-journal.json` lists, for each tree, its target, the sibling the new
 * tree is built in (`.<name>.new-<tag>`) and the name the old tree is moved to (`.<name>.old-<tag>`),
 * and the phase. Phase `staging`: the new trees are being built; recovery deletes them (the old
 * trees are untouched). Phase `swapping`: every new tree is complete; each target is renamed to its
 * old name and the new tree renamed into place; recovery rolls forward (finishes the renames), so a
 * `kill -9` at any instant ends, after the next run, with every tree new. Then the old trees and
 * the journal are deleted. Between the two renames of one tree (microseconds) the target is absent;
 * it is never a mix of two runs' files.
 *
 * Every run that writes completes or cleans an interrupted journal first (`recover`), under the lock.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The lock file, in the root (the parent of `generated/`). */
export const LOCK_FILE = '.generate.lock';
/** The journal, in the root. */
export const JOURNAL_FILE = '.generate-journal.json';

/** How long a run waits for another run's lock by default (milliseconds). */
export const LOCK_WAIT_MS = 10 * 60_000;

/**
 * One tree to replace: `target` (absolute) gets the tree that `build` writes into an empty directory,
 * or, with `file`, the file that `build` writes at the path it is given.
 */
export interface TreeSwap {
  target: string;
  file?: boolean;
  build: (dir: string) => Promise<void>;
}

interface JournalEntry {
  target: string;
  staged: string;
  old: string;
}
interface Journal {
  phase: 'staging' | 'swapping';
  swaps: JournalEntry[];
}

/** File-system steps that tests replace to fail midway. */
export interface TreeFs {
  rename(from: string, to: string): Promise<void>;
}
const nodeFs: TreeFs = { rename: (a, b) => rename(a, b) };

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

/** Whether a run was interrupted under `root` (a journal is left): cheap enough for the up-to-date path. */
export function interrupted(root: string): Promise<boolean> {
  return exists(path.join(root, JOURNAL_FILE));
}

/**
 * Test hook: with `OXEN_GENERATE_TEST_PAUSE=<point>` in the environment the run stops at that point
 * (`staging`: half of a new tree written; `swapping`: the first target moved aside, its new tree not
 * yet in place; `between`: the first tree swapped, the second not yet) and says so on stderr, so a
 * test can `kill -9` it there.
 */
export async function pausePoint(point: 'staging' | 'swapping' | 'between'): Promise<void> {
  if (process.env['OXEN_GENERATE_TEST_PAUSE'] !== point) return;
  process.stderr.write(`generate: paused at ${point}\n`);
  await new Promise(() => setInterval(() => undefined, 60_000));
}

interface Owner {
  pid: number;
  host: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
}

async function readOwner(file: string): Promise<{ text: string; owner: Owner | undefined } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined; // released meanwhile
  }
  try {
    const o = JSON.parse(text) as Owner;
    return { text, owner: Number.isInteger(o.pid) && typeof o.host === 'string' ? o : undefined };
  } catch {
    return { text, owner: undefined };
  }
}

/**
 * Run `fn` holding `<root>/.generate.lock`. Waits (polling) while another live run holds it; breaks
 * a stale lock (its pid is not alive on this host, or its content is unreadable and older than 10 s).
 * @throws Error naming the lock and its owner when it is still held after `waitMs` (default 10 minutes).
 */
export async function withLock<T>(root: string, fn: () => Promise<T>, options: { waitMs?: number } = {}): Promise<T> {
  const lock = path.join(root, LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), tag: randomBytes(6).toString('hex') });
  const tmp = path.join(root, `${LOCK_FILE}.${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(root, { recursive: true });
  const deadline = Date.now() + (options.waitMs ?? LOCK_WAIT_MS);
  let delay = 20;
  for (;;) {
    // the owner's record is written beside the lock and linked into place: the lock never exists without it
    await writeFile(tmp, mine);
    try {
      await link(tmp, lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      await rm(tmp, { force: true });
    }
    const held = await readOwner(lock);
    if (held === undefined) continue;
    const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
    const stale = held.owner ? held.owner.host === hostname() && !alive(held.owner.pid) : age > 10_000;
    if (stale) {
      await breakStale(lock, held.text);
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `another generate run holds ${lock}${held.owner ? ` (pid ${held.owner.pid} on ${held.owner.host})` : ''}; waited ${options.waitMs ?? LOCK_WAIT_MS} ms`,
      );
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 250);
  }
  try {
    return await fn();
  } finally {
    const now = await readOwner(lock);
    if (now?.text === mine) await rm(lock, { force: true });
  }
}

/** Remove a stale lock whose content was `text`: moved aside first, so two runs cannot both break it; put back when it changed meanwhile. */
async function breakStale(lock: string, text: string): Promise<void> {
  const aside = `${lock}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(lock, aside);
  } catch {
    return; // another run broke it first
  }
  if ((await readFile(aside, 'utf8').catch(() => '')) !== text) await link(aside, lock).catch(() => undefined); // a live lock taken meanwhile: give it back
  await rm(aside, { force: true });
}

async function writeJournal(root: string, journal: Journal): Promise<void> {
  const file = path.join(root, JOURNAL_FILE);
  await writeFile(`${file}.tmp`, `${JSON.stringify(journal, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
}

/**
 * Complete or clean what an interrupted run left under `root` (call it holding the lock): a journal
 * in phase `staging` loses its new trees; one in phase `swapping` is rolled forward. Idempotent.
 * @returns whether there was anything to do.
 */
export async function recover(root: string, fs: TreeFs = nodeFs): Promise<boolean> {
  const file = path.join(root, JOURNAL_FILE);
  let journal: Journal;
  try {
    journal = JSON.parse(await readFile(file, 'utf8')) as Journal;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      await rm(`${file}.tmp`, { force: true });
      return false;
    }
    throw new Error(
      `${file} is unreadable (${(err as Error).message}); check the trees it names by hand, then delete it`,
      { cause: err },
    );
  }
  if (journal.phase === 'swapping') {
    for (const s of journal.swaps) {
      if (!(await exists(s.staged))) continue; // already in place
      if (await exists(s.target)) await fs.rename(s.target, s.old);
      await fs.rename(s.staged, s.target);
    }
  }
  await Promise.all(
    journal.swaps.flatMap((s) => [
      rm(s.staged, { recursive: true, force: true }),
      rm(s.old, { recursive: true, force: true }),
    ]),
  );
  await rm(file, { force: true });
  await rm(`${file}.tmp`, { force: true });
  return true;
}

/**
 * Complete or clean what an interrupted run left under `root`, taking the lock only when a journal
 * is there (one `stat` otherwise). Runs call it before reading their inputs: a run killed between the
 * swaps of a refresh may have moved `specs/` aside.
 * @returns whether there was anything to do.
 */
export async function completeInterrupted(root: string): Promise<boolean> {
  if (!(await interrupted(root))) return false;
  return withLock(root, () => recover(root));
}

/**
 * Replace each target with the tree its `build` writes, all or nothing and journaled (see the
 * module comment). Call it holding the lock of `root`, after `recover`. A failure while building
 * deletes the new trees and leaves every target as it was; a failure while swapping rolls forward.
 * @throws the build's or the file system's error (the targets are then all old, or all new).
 */
export async function commitTrees(root: string, swaps: TreeSwap[], options: { fs?: TreeFs } = {}): Promise<void> {
  const fs = options.fs ?? nodeFs;
  const tag = `${process.pid.toString(36)}${randomBytes(3).toString('hex')}`;
  const entries: JournalEntry[] = swaps.map(({ target }) => {
    const dir = path.dirname(target);
    const base = path.basename(target);
    return { target, staged: path.join(dir, `.${base}.new-${tag}`), old: path.join(dir, `.${base}.old-${tag}`) };
  });
  await writeJournal(root, { phase: 'staging', swaps: entries });
  try {
    for (const [i, s] of swaps.entries()) {
      await mkdir(s.file ? path.dirname(entries[i]!.staged) : entries[i]!.staged, { recursive: true });
      await s.build(entries[i]!.staged);
    }
  } catch (err) {
    await recover(root, fs); // phase staging: deletes the new trees
    throw err;
  }
  await writeJournal(root, { phase: 'swapping', swaps: entries });
  try {
    for (const [i, e] of entries.entries()) {
      if (i > 0) await pausePoint('between');
      if (await exists(e.target)) {
        await fs.rename(e.target, e.old);
        await pausePoint('swapping');
      }
      await fs.rename(e.staged, e.target);
    }
  } catch (err) {
    // Roll forward with the plain file system; if that fails too the journal stays for the next run.
    await recover(root).catch(() => undefined);
    throw err;
  }
  await Promise.all(entries.map((e) => rm(e.old, { recursive: true, force: true })));
  await rm(path.join(root, JOURNAL_FILE), { force: true });
}
