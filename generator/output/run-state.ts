/**
 * Where the generator keeps what coordinates its writing runs on one output root (this
 * repository, or a user's `<out>`): the lock, the journal of a tree swap and a run's temporary
 * files. Never inside the output root: a commit can put any file there, and a journal planted by a
 * pull request must not make the next run move or delete anything. They live in a folder of the
 * system's temporary directory that only this user can write, `<tmpdir>/oxen-inference-codegen-<uid>/`
 * (mode 0700; refused when it is a link, belongs to another user or is writable by others), one set
 * per output root, named by a hash of the root's real path (symbolic links resolved):
 * `<hash>.lock`, `<hash>.journal.json`, `<hash>.<run>/` (a run's temporary folder) and
 * `<hash>.built.json` (what this machine's runs built there: `output/built.ts`).
 *
 * Earlier versions kept the lock and the journal in the output root (`LEGACY_FILES`); one found
 * there now was not written by this generator, and is refused (`refuseLegacyFiles`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The names earlier versions kept their lock and journal under in the output root. */
export const LEGACY_FILES = ['.generate.lock', '.generate-journal.json', '.generate-journal.json.tmp'];

/** A run id: names a run's journal, its staged trees (`.<name>.new-<run>`) and its temporary folder. */
export const RUN_ID = /^[0-9a-f]{12}$/;

/** A new run id (random, 12 lower-case hex digits). */
export function newRunId(): string {
  return randomBytes(6).toString('hex');
}

let checkedDir: string | undefined;

/**
 * The generator's state folder of this user, created when missing (mode 0700).
 * @throws Error when it is a symbolic link or not a folder, or (where the system has owners) it
 * belongs to another user or others can write it: another user could plant a journal there.
 */
export function stateDir(): string {
  if (checkedDir) return checkedDir;
  const uid = process.getuid?.();
  const dir = path.join(os.tmpdir(), `oxen-inference-codegen-${uid ?? os.userInfo().username}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const problem = !st.isDirectory()
    ? 'it is not a folder (a symbolic link?)'
    : uid !== undefined && st.uid !== uid
      ? `it belongs to user ${st.uid}, not to this user (${uid})`
      : uid !== undefined && (st.mode & 0o022) !== 0
        ? 'others can write it'
        : undefined;
  if (problem)
    throw new Error(
      `the generator's state folder ${dir} is not safe to use: ${problem}; remove it (it is recreated), then run again`,
    );
  checkedDir = dir;
  return dir;
}

/** The state of one output root: its real path and the files that coordinate runs on it. */
export interface RootState {
  /** The output root as given (absolute). */
  root: string;
  /** Its real path (symbolic links resolved): what the state is keyed by, and what journaled paths must lie in. */
  real: string;
  /** The lock file. */
  lock: string;
  /** The journal of a tree swap in progress. */
  journal: string;
  /** The record of the files this machine's runs built (`output/built.ts`). */
  built: string;
  /** The temporary folder of run `run`. */
  tempOf(run: string): string;
}

/** The state files of `root`, a folder that exists. */
function stateOf(root: string, real: string): RootState {
  // case-insensitive file systems (Windows, macOS by default) may spell one folder several ways
  const key = process.platform === 'win32' || process.platform === 'darwin' ? real.toLowerCase() : real;
  const base = path.join(stateDir(), createHash('sha256').update(key).digest('hex').slice(0, 32));
  return {
    root,
    real,
    lock: `${base}.lock`,
    journal: `${base}.journal.json`,
    built: `${base}.built.json`,
    tempOf: (run) => `${base}.${run}`,
  };
}

/**
 * The real path of `abs`, which need not exist yet: the real path of its nearest existing folder,
 * with the rest of the path below it (what `realpath` gives once the rest is created as folders).
 */
function realPathOf(abs: string): string {
  const rest: string[] = [];
  for (let dir = abs; ; dir = path.dirname(dir)) {
    try {
      return path.join(realpathSync(dir), ...rest.reverse());
    } catch {
      if (path.dirname(dir) === dir) return abs;
      rest.push(path.basename(dir));
    }
  }
}

/** The state files of the output root `root` (which need not exist yet: a first `add` makes it when it commits). */
export function rootState(root: string): RootState {
  const abs = path.resolve(root);
  return stateOf(abs, realPathOf(abs));
}

/** The state files of the output root `root`, or undefined when it does not exist (nothing to coordinate). */
export function existingRootState(root: string): RootState | undefined {
  const abs = path.resolve(root);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    return undefined;
  }
  return stateOf(abs, real);
}

/** Whether `p` is `dir` or lies under it (both absolute and normalized). */
export function isInside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Refuse to run on an output root that holds a lock or journal under the names earlier versions
 * used: this generator never writes them there, so one found there was committed (or left by an
 * older generator); it is neither acted on nor deleted.
 * @throws Error naming the file and what to do.
 */
export async function refuseLegacyFiles(root: string): Promise<void> {
  for (const name of LEGACY_FILES) {
    const file = path.join(root, name);
    if (
      await lstat(file).then(
        () => true,
        () => false,
      )
    )
      throw new Error(
        `${file} was not written by this generator (it keeps its lock and journal outside the project, in ${stateDir()}); it may have been committed, or left by an older version. Nothing was moved or deleted. Check it, delete it, and run again.`,
      );
  }
}
