/**
 * Stage 7, write (after formatting): when any file's text changed or a generated file is no
 * longer produced, replace `generated/` with the new tree; when nothing
 * differs, write nothing (and take no lock). With `check`, write nothing and report what would
 * change (the drift check CI runs).
 *
 * Whole or nothing: the new tree is written in full beside `generated/` and swapped in by renames,
 * under the lock and journal (`output/lock.ts`, `output/tree-commit.ts`), so a reader sees the old
 * tree or the new one, two runs at once cannot delete each other's files, and a run killed at any
 * point is completed or cleaned by the next run. A failure while writing leaves `generated/` as it was.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withLock } from '../output/lock.ts';
import {
  commitTrees,
  interrupted,
  pausePoint,
  treeDigest,
  type HeldLock,
  type TreeSwap,
} from '../output/tree-commit.ts';

/** Output: path relative to the output root -> file text. */
export type OutputFiles = Map<string, string>;

/** What differs between the output and the files on disk (paths relative to the root). */
export interface WriteResult {
  added: string[];
  changed: string[];
  removed: string[];
  unchanged: number;
}

async function listFiles(dir: string, root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Compare the output with the disk. `managed`: the directories whose other files are stale. */
export async function compare(
  files: OutputFiles,
  root: string,
  managed: string | readonly string[] = 'generated',
): Promise<WriteResult> {
  const result: WriteResult = { added: [], changed: [], removed: [], unchanged: 0 };
  await Promise.all(
    [...files].map(async ([file, text]) => {
      let old: string | undefined;
      try {
        old = await readFile(path.join(root, file), 'utf8');
      } catch {
        old = undefined;
      }
      if (old === undefined) result.added.push(file);
      else if (old !== text) result.changed.push(file);
      else result.unchanged++;
    }),
  );
  result.removed = (await Promise.all([managed].flat().map((dir) => listFiles(path.join(root, dir), root))))
    .flat()
    .filter((f) => !files.has(f))
    .sort();
  result.added.sort();
  result.changed.sort();
  return result;
}

/** File system steps of `write` (replaceable in tests to make one fail midway). */
export interface WriteFs {
  writeFile(file: string, text: string): Promise<void>;
}

const nodeFs: WriteFs = { writeFile: (f, t) => writeFile(f, t) };

/**
 * Write every file of `files` that lies under `managed` into `dir` (the staged new tree: paths are
 * taken relative to `managed`).
 * @throws the file system's error.
 */
export async function writeTree(
  files: OutputFiles,
  managed: string,
  dir: string,
  fs: Pick<WriteFs, 'writeFile'> = nodeFs,
): Promise<void> {
  const list = [...files]
    .filter(([file]) => file.startsWith(`${managed}/`))
    .map(([file, text]) => [path.join(dir, file.slice(managed.length + 1)), text] as const);
  for (const parent of new Set(list.map(([target]) => path.dirname(target)))) await mkdir(parent, { recursive: true });
  // All at once (the file system's thread pool queues them), in two halves around the crash tests'
  // pause point; every write has ended before an error is thrown, so a cleanup removes them all.
  const writeAll = (part: typeof list) => settleAll(part.map(([target, text]) => fs.writeFile(target, text)));
  const half = Math.floor(list.length / 2) + 1;
  await writeAll(list.slice(0, half));
  if (list.length > 0) await pausePoint('staging');
  await writeAll(list.slice(half));
}

/** Wait for every promise (file operations begun at once); then throw the first rejection's reason, if any. */
export async function settleAll(all: Array<Promise<unknown>>): Promise<void> {
  const failed = (await Promise.allSettled(all)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * The swaps that replace a target's output: one whole tree per `managed` directory (a removal for
 * one the output has no file in and the disk has: a folder an earlier generator wrote), and one file
 * swap for each output file at the top of `root` outside them (a user's `<out>/index.ts` and
 * `manifest.json`, beside `<out>/specs/`, which the output does not own) or named in `outside`
 * (this repository's `runtime/operations.ts`, in a folder of hand-written files).
 * @throws Error for a file in another directory (a generator bug).
 */
export function swapsOf(
  files: OutputFiles,
  root: string,
  managed: readonly string[],
  fs: WriteFs = nodeFs,
  outside: readonly string[] = [],
): TreeSwap[] {
  const swaps: TreeSwap[] = [];
  for (const dir of managed) {
    const target = path.join(root, dir);
    const owned = [...files.keys()].some((file) => file.startsWith(`${dir}/`));
    if (owned) swaps.push({ target, build: (staged) => writeTree(files, dir, staged, fs) });
    else if (existsSync(target)) swaps.push({ target, remove: true, build: () => Promise.resolve() });
  }
  for (const [file, text] of files) {
    if (managed.some((dir) => file.startsWith(`${dir}/`))) continue;
    if (file.includes('/') && !outside.includes(file))
      throw new Error(`output file ${file} is outside ${managed.join('/, ')}/`);
    swaps.push({ target: path.join(root, file), file: true, build: (staged) => fs.writeFile(staged, text) });
  }
  return swaps;
}

/** Options of `write`. */
export interface WriteOptions {
  /** Write nothing; only report what differs. */
  check?: boolean;
  /** The directories (relative to the root) whose other files are stale. @default 'generated' */
  managed?: string | readonly string[];
  /**
   * Output files in a folder the output does not own (`runtime/operations.ts`), each replaced on
   * its own in the same commit as the managed trees. @default []
   */
  outside?: readonly string[];
  fs?: WriteFs;
  /** How long to wait for another run's lock, in milliseconds. @default 10 minutes (`LOCK_WAIT_MS`) */
  lockWaitMs?: number;
  /** The lock of `root` when the caller holds it already (a refresh); otherwise `write` takes it when it writes. */
  lock?: HeldLock;
  /**
   * The snapshot the output was made from: its directory and its `treeDigest` when the run read it.
   * Checked again under the lock: a snapshot changed meanwhile (by an `add`) is not overwritten
   * with output of the old one.
   */
  inputs?: { dir: string; digest: Promise<string> };
}

/**
 * Write what differs (see `compare`); with `check`, only report it. The new output is written whole
 * beside `<root>/<managed>` (and beside each output file outside it, `outside` included) and swapped in under the lock,
 * journaled (`output/tree-commit.ts`): a reader sees the old tree or the new one, and a run killed
 * at any point is completed or cleaned by the next one. With nothing to change and no interrupted
 * run, nothing is locked or written.
 * @throws the file system's error; Error when another run holds the lock for over `lockWaitMs`, or
 * when the snapshot (`inputs`) changed while the run generated (nothing is written then).
 */
export async function write(files: OutputFiles, root: string, options: WriteOptions = {}): Promise<WriteResult> {
  const managed = [options.managed ?? 'generated'].flat();
  const first = await compare(files, root, managed);
  if (options.check) return first;
  const same = (r: WriteResult) => r.added.length + r.changed.length + r.removed.length === 0;
  if (same(first) && !interrupted(root)) return first;
  const fs = options.fs ?? nodeFs;
  const commit = async (lock: HeldLock) => {
    const inputs = options.inputs;
    if (inputs && (await treeDigest(inputs.dir)) !== (await inputs.digest))
      throw new Error(
        `${inputs.dir} changed while this run generated (another add, remove or refresh?); nothing was written: run it again`,
      );
    // compared again under the lock: another run may have written meanwhile
    const result = await compare(files, root, managed);
    if (!same(result)) await commitTrees(lock, swapsOf(files, root, managed, fs, options.outside));
    return result;
  };
  if (options.lock) return commit(options.lock);
  return withLock(root, commit, options.lockWaitMs !== undefined ? { waitMs: options.lockWaitMs } : {});
}
