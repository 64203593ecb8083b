/**
 * Part of stage 7 (write) and of refresh: replacing whole trees (`generated/`, with a refresh
 * `specs/` too; in a user's `<out>`: `models/`, `validators/`, `index.ts`, `manifest.json`, and
 * `specs/` with `add`, `remove`, `refresh`) so that a reader finds the old tree or the new one,
 * never a mix, and a run killed at any point (even `kill -9`) is completed or cleaned by the next
 * one. Called holding the output root's lock (`lock.ts`).
 *
 * The journal (`<hash>.journal.json` in the generator's state folder, outside the project:
 * `run-state.ts`) names the run and each target by its path relative to the output root. A
 * target's new tree is built beside it as `.<name>.new-<run>`; the swap moves the old one to
 * `.<name>.old-<run>`. Phase `staging`: the new trees are being built; recovery deletes them (the
 * targets were not touched). Phase `swapping`: every new tree is complete; each target is renamed
 * aside and its new tree renamed in, synchronously (a signal handler never runs in the middle);
 * recovery rolls forward. Then the old trees and the journal are deleted. Between the two renames
 * of one tree (microseconds) the target is absent, never a mix (Node has no atomic exchange).
 *
 * Recovery acts only on a journal of its own shape, for the root whose lock it holds, naming only
 * paths inside that root (real paths: links resolved), and only on the names it derives from
 * them; anything else is refused with an error before anything is moved.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { existingRootState, isInside, RUN_ID, type RootState } from './run-state.ts';

/** What the journal's `writer` says: a journal without it is not this generator's. */
const WRITER = 'oxen-inference-codegen';
/** The journal's format; another one is refused. */
const VERSION = 2;

/**
 * One tree to replace: `target` (absolute, inside the output root) gets the tree that `build`
 * writes into an empty directory, or, with `file`, the file that `build` writes at the path given;
 * with `remove`, it is removed (moved aside with the others, then deleted) and `build` is not called.
 */
export interface TreeSwap {
  target: string;
  file?: boolean;
  remove?: boolean;
  build: (dir: string) => Promise<void>;
}

/** A lock held on an output root (`lock.ts`): its state files and this run's id. */
export interface HeldLock {
  state: RootState;
  run: string;
  /** This run's temporary folder (created on first use), removed when the lock is released, also on SIGINT or SIGTERM. */
  tempDir(): Promise<string>;
}

interface Journal {
  writer: typeof WRITER;
  version: typeof VERSION;
  /** The output root's real path. */
  root: string;
  run: string;
  phase: 'staging' | 'swapping';
  /** The targets, relative to `root` (`/`-separated). */
  targets: string[];
}

interface Entry {
  target: string;
  staged: string;
  old: string;
}

/** Whether something (a link included) is at `p`. */
function lexists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The paths of each target `rel` of run `run`: the target inside the root's real path, its new
 * tree and its old one beside it.
 * @throws Error (`problem`) when a target is not a plain relative path inside the root, or its
 * folder resolves (through a link) outside the root.
 */
function entriesOf(state: RootState, run: string, rels: readonly string[]): Entry[] {
  return rels.map((rel) => {
    const parts = rel.split('/');
    if (rel === '' || path.isAbsolute(rel) || parts.some((p) => p === '' || p === '..' || p.startsWith('.')))
      throw new Error(`the target ${JSON.stringify(rel)} is not a plain path inside ${state.real}`);
    const target = path.join(state.real, ...parts);
    let parent: string;
    try {
      parent = realpathSync(path.dirname(target));
    } catch {
      throw new Error(`the folder of the target ${rel} does not exist`);
    }
    if (!isInside(state.real, parent)) throw new Error(`the target ${rel} lies outside ${state.real} (through a link)`);
    const base = path.basename(target);
    return {
      target: path.join(parent, base),
      staged: path.join(parent, `.${base}.new-${run}`),
      old: path.join(parent, `.${base}.old-${run}`),
    };
  });
}

/** `target` relative to the output root, `/`-separated. @throws Error when it is not inside the root. */
function relativeTarget(state: RootState, target: string): string {
  const rel = path.relative(state.root, path.resolve(target));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
    throw new Error(
      `${target} is outside the output root ${state.root}: the generator writes only inside the folder it owns`,
    );
  return rel.split(path.sep).join('/');
}

function writeJournal(state: RootState, journal: Omit<Journal, 'writer' | 'version' | 'root'>): void {
  const full: Journal = { writer: WRITER, version: VERSION, root: state.real, ...journal };
  writeFileSync(`${state.journal}.tmp`, `${JSON.stringify(full, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${state.journal}.tmp`, state.journal);
}

/** The journal of `state`, checked: its shape, its root, its run id and every path it leads to. */
function readJournal(state: RootState, text: string): { journal: Journal; entries: Entry[] } {
  const refuse = (why: string): never => {
    throw new Error(
      `${state.journal} is not a journal this generator wrote for ${state.root} (${why}); nothing was moved or deleted. Check the folders it names, delete it, and run again.`,
    );
  };
  let j: Partial<Journal>;
  try {
    j = JSON.parse(text) as Partial<Journal>;
  } catch (err) {
    return refuse(`unreadable: ${(err as Error).message}`);
  }
  if (j === null || typeof j !== 'object' || j.writer !== WRITER || j.version !== VERSION)
    return refuse('not its format');
  if (j.root !== state.real) return refuse(`it is for ${String(j.root)}`);
  if (typeof j.run !== 'string' || !RUN_ID.test(j.run)) return refuse('no valid run id');
  if (j.phase !== 'staging' && j.phase !== 'swapping') return refuse('no valid phase');
  if (!Array.isArray(j.targets) || j.targets.length === 0 || !j.targets.every((t) => typeof t === 'string'))
    return refuse('no valid targets');
  let entries: Entry[];
  try {
    entries = entriesOf(state, j.run, j.targets);
  } catch (err) {
    return refuse((err as Error).message);
  }
  for (const e of entries)
    if (lexists(e.staged) && lstatSync(e.staged).isSymbolicLink()) refuse(`${e.staged} is a link`);
  return { journal: j as Journal, entries };
}

/**
 * Complete or clean what an interrupted run left on the output root of `state` (call it holding
 * its lock): a journal in phase `staging` loses its new trees; one in phase `swapping` is rolled
 * forward. Synchronous, so that it also runs from a signal handler. Idempotent.
 * @returns whether there was anything to do.
 * @throws Error when the journal is not one this generator wrote (see `readJournal`); nothing was moved then.
 */
export function recover(state: RootState): boolean {
  let text: string;
  try {
    text = readFileSync(state.journal, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    rmSync(`${state.journal}.tmp`, { force: true });
    return false;
  }
  const { journal, entries } = readJournal(state, text);
  if (journal.phase === 'swapping')
    for (const e of entries) {
      if (!lexists(e.staged)) continue; // already in place
      if (lexists(e.target)) renameSync(e.target, e.old);
      renameSync(e.staged, e.target);
    }
  for (const e of entries) {
    rmSync(e.staged, { recursive: true, force: true });
    rmSync(e.old, { recursive: true, force: true });
  }
  rmSync(state.journal, { force: true });
  rmSync(`${state.journal}.tmp`, { force: true });
  return true;
}

/** Whether a run was interrupted on the output root `root` (its journal is left): one `stat`, for the up-to-date path. */
export function interrupted(root: string): boolean {
  const state = existingRootState(root);
  return state !== undefined && existsSync(state.journal);
}

/**
 * Test hook: with `OXEN_GENERATE_TEST_PAUSE=<point>` in the environment the run stops at that point
 * (`staging`: half of a new tree written; `swapping`: the first target moved aside, its new tree not
 * yet in place; `between`: the first tree swapped, the second not yet) and says so on stderr, so a
 * test can kill it there.
 */
export async function pausePoint(point: 'staging' | 'swapping' | 'between'): Promise<void> {
  if (process.env['OXEN_GENERATE_TEST_PAUSE'] !== point) return;
  process.stderr.write(`generate: paused at ${point}\n`);
  await new Promise(() => setInterval(() => undefined, 60_000));
}

/**
 * Replace each target with the tree its `build` writes, all or nothing and journaled (see the
 * module comment), holding `lock`. A failure while building deletes the new trees and leaves every
 * target as it was; a failure while swapping rolls forward (now, or by the next run).
 * @throws Error when a target is outside the output root (nothing is written then); the build's or
 * the file system's error (the targets are then all old, or all new).
 */
export async function commitTrees(lock: HeldLock, swaps: readonly TreeSwap[]): Promise<void> {
  const { state, run } = lock;
  mkdirSync(state.root, { recursive: true }); // a first add into a new <out>
  const targets = swaps.map((s) => relativeTarget(state, s.target));
  const entries = entriesOf(state, run, targets);
  writeJournal(state, { run, phase: 'staging', targets });
  try {
    for (const [i, s] of swaps.entries()) {
      if (s.remove) continue; // nothing staged: recovery leaves the target, which the next run removes
      if (!s.file) await mkdir(entries[i]!.staged); // new: a path this run did not create is never written into
      await s.build(entries[i]!.staged);
    }
  } catch (err) {
    recover(state); // phase staging: deletes the new trees
    throw err;
  }
  writeJournal(state, { run, phase: 'swapping', targets });
  try {
    for (const [i, e] of entries.entries()) {
      if (i > 0) await pausePoint('between');
      if (lexists(e.target)) {
        renameSync(e.target, e.old);
        await pausePoint('swapping');
      }
      if (!swaps[i]!.remove) renameSync(e.staged, e.target);
    }
  } catch (err) {
    // roll forward; if that fails too, the journal stays for the next run
    try {
      recover(state);
    } catch {
      /* left to the next run */
    }
    throw err;
  }
  for (const e of entries) rmSync(e.old, { recursive: true, force: true });
  rmSync(state.journal, { force: true });
}

/** sha256 over the relative paths and bytes of every file under `dir` (sorted): equal digests, equal trees. */
export async function treeDigest(dir: string): Promise<string> {
  const h = createHash('sha256');
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
  const bytes = await Promise.all(files.map((f) => readFile(path.join(dir, f))));
  for (const [i, f] of files.entries()) h.update(f).update('\0').update(bytes[i]!).update('\0');
  return h.digest('hex');
}
