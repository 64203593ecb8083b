/**
 * The lock of an output root: one writing run at a time stages, swaps or recovers there, and a
 * snapshot change (`add`, `remove`, `refresh`, `npm run generate -- --add/--remove/--refresh`)
 * holds it for its whole read-modify-write, so that two at once cannot drop each other's models.
 * The lock file (`<hash>.lock` in the generator's state folder, outside the project:
 * `run-state.ts`) holds the owner's pid, host, run id and start time; it is created atomically (a
 * `link` that fails when it exists).
 *
 * - Held by a live run: waited for (polling), saying once on stderr what it waits for and how to
 *   break it; after `waitMs` (default 10 minutes) an error names the owner.
 * - Stale (same host and its pid is gone; or unreadable and older than 10 s): taken over, saying
 *   so; the dead run's temporary folder is removed.
 * - Another host's (a state folder on a shared file system): whether it lives cannot be proved from
 *   here, so it is waited for, and the message says so and how to break it.
 * On acquiring it, a run completes or cleans what an interrupted run left (`recover`). When it is
 * released, and on SIGINT, SIGTERM, SIGHUP or exit while it is held (`signal-exit`), the run's
 * temporary folder and the new trees of an unfinished commit are removed and the lock deleted.
 */
import { readFileSync, rmSync } from 'node:fs';
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { onExit } from 'signal-exit';
import { showControls } from '../escape.ts';
import { newRunId, refuseLegacyFiles, rootState, RUN_ID, type RootState } from './run-state.ts';
import { interrupted, recover, type HeldLock } from './tree-commit.ts';

/** How long a run waits for another run's lock by default (milliseconds). */
export const LOCK_WAIT_MS = 10 * 60_000;

/** How old an unreadable lock must be (milliseconds) before it counts as stale: a lock is written whole, by a link. */
const UNREADABLE_STALE_MS = 10_000;

/** Options of `withLock`. */
export interface LockOptions {
  /** How long to wait for another run's lock, in milliseconds. @default LOCK_WAIT_MS (10 minutes) */
  waitMs?: number;
  /** Where the lock's messages go (waiting, taking over). @default a line on stderr, control characters shown */
  log?: (line: string) => void;
}

interface Owner {
  pid: number;
  host: string;
  run?: string;
  started?: string;
}

/** Whether process `pid` lives (on this host). */
export function alive(pid: number): boolean {
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

/** Who holds a lock, for messages. */
function describe(owner: Owner | undefined, here: string): string {
  if (!owner) return 'a run whose lock file is unreadable';
  const since = owner.started ? `, started ${owner.started}` : '';
  return owner.host === here
    ? `pid ${owner.pid} on this host${since}`
    : `pid ${owner.pid} on host ${owner.host}${since}`;
}

/** Remove a stale lock whose content was `text`: moved aside first, so two runs cannot both break it; put back when it changed meanwhile. */
async function breakStale(lock: string, text: string): Promise<boolean> {
  const aside = `${lock}.stale-${newRunId()}`;
  try {
    await rename(lock, aside);
  } catch {
    return false; // another run broke it first
  }
  const same = (await readFile(aside, 'utf8').catch(() => '')) === text;
  if (!same) await link(aside, lock).catch(() => undefined); // a live lock taken meanwhile: give it back
  await rm(aside, { force: true });
  return same;
}

/** Release what run `run` holds on `state` (synchronous: also run from a signal handler): finish or clean its commit, its temporary folder, the lock. */
function release(state: RootState, run: string, mine: string, options: { recover: boolean }): void {
  if (options.recover) {
    try {
      recover(state);
    } catch {
      /* a journal it cannot complete stays for the next run, which says why */
    }
  }
  rmSync(state.tempOf(run), { recursive: true, force: true });
  try {
    if (readFileSync(state.lock, 'utf8') === mine) rmSync(state.lock, { force: true });
  } catch {
    /* already gone */
  }
}

/**
 * Run `fn` holding the lock of the output root `root` (which need not exist), after completing or
 * cleaning an interrupted run there (see the module comment).
 * @throws Error when `root` holds a lock or journal of an earlier version's names (refused, see
 * `refuseLegacyFiles`), when an interrupted run's journal is not one this generator wrote, or when
 * another run still holds the lock after `waitMs` (naming it and how to break it).
 */
export async function withLock<T>(
  root: string,
  fn: (lock: HeldLock) => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${showControls(line)}\n`));
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const state = rootState(root);
  await refuseLegacyFiles(state.root);
  const here = hostname();
  const run = newRunId();
  const mine = JSON.stringify({ pid: process.pid, host: here, run, started: new Date().toISOString() });
  const tmp = `${state.lock}.${run}`;
  const deadline = Date.now() + waitMs;
  let delay = 20;
  let said = false;
  for (;;) {
    // the owner's record is written beside the lock and linked into place: the lock never exists without it
    await writeFile(tmp, mine, { mode: 0o600 });
    try {
      await link(tmp, state.lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      await rm(tmp, { force: true });
    }
    const held = await readOwner(state.lock);
    if (held === undefined) continue;
    const age = Date.now() - ((await stat(state.lock).catch(() => undefined))?.mtimeMs ?? Date.now());
    const who = describe(held.owner, here);
    const stale = held.owner ? held.owner.host === here && !alive(held.owner.pid) : age > UNREADABLE_STALE_MS;
    if (stale) {
      if (await breakStale(state.lock, held.text)) {
        log(`took over the lock of ${state.root} from ${who}, which is no longer running (${state.lock})`);
        if (held.owner?.run && RUN_ID.test(held.owner.run))
          await rm(state.tempOf(held.owner.run), { recursive: true, force: true });
      }
      continue;
    }
    const breakIt = `If it is not running, delete ${state.lock} and run again.`;
    if (Date.now() > deadline)
      throw new Error(`another run holds the lock of ${state.root} (${who}); waited ${waitMs} ms. ${breakIt}`);
    if (!said) {
      said = true;
      const proof =
        held.owner && held.owner.host !== here
          ? ' (another host: whether it still runs cannot be checked from here)'
          : '';
      log(
        `waiting up to ${Math.round(waitMs / 1000)} s for another run on ${state.root} to release its lock: ${who}${proof}. ${breakIt}`,
      );
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 250);
  }
  const held: HeldLock = {
    state,
    run,
    tempDir: async () => {
      await mkdir(state.tempOf(run), { recursive: true, mode: 0o700 });
      return state.tempOf(run);
    },
  };
  // a signal or exit while held: finish or clean the commit, remove the temporary folder, release
  const removeHook = onExit(() => release(state, run, mine, { recover: true }));
  try {
    recover(state);
    return await fn(held);
  } finally {
    removeHook();
    release(state, run, mine, { recover: false });
  }
}

/**
 * Complete or clean what an interrupted run left on the output root `root`, taking its lock only
 * when a journal is there (one `stat` otherwise). Runs that write call it before reading their
 * inputs: a run killed between the swaps of a refresh may have moved `specs/` aside.
 * @returns whether there was anything to do.
 * @throws Error as `withLock`, and when `root` holds a lock or journal of an earlier version's names.
 */
export async function completeInterrupted(root: string, options: LockOptions = {}): Promise<boolean> {
  await refuseLegacyFiles(path.resolve(root));
  if (!interrupted(root)) return false;
  await withLock(root, () => Promise.resolve(), options);
  return true;
}
