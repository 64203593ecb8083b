/**
 * Stage 7, write (after `format.ts`): when any file's text changed or a generated file is no
 * longer produced, replace `generated/` with the new tree; when nothing
 * differs, write nothing (and take no lock). With `check`, write nothing and report what would
 * change (the drift check CI runs).
 *
 * Whole or nothing: the new tree is written in full beside `generated/` and swapped in by renames,
 * under a lock and a journal (`generator/tree-commit.ts`), so a reader sees the old tree or the new
 * one, two runs at once cannot delete each other's files, and a run killed at any point is
 * completed or cleaned by the next run. A failure while writing leaves `generated/` as it was.
 */
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { commitTrees, interrupted, pausePoint, recover, withLock, type TreeSwap } from '../output/tree-commit.ts';

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
  rename(from: string, to: string): Promise<void>;
}

const nodeFs: WriteFs = {
  writeFile: (f, t) => writeFile(f, t),
  rename: (a, b) => rename(a, b),
};

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
 * The swaps that replace a target's output: one whole tree per `managed` directory, and one file
 * swap for each output file at the top of `root` outside them (a user's `<out>/index.ts` and
 * `manifest.json`, beside `<out>/specs/`, which the output does not own).
 * @throws Error for a file in another directory (a generator bug).
 */
export function swapsOf(
  files: OutputFiles,
  root: string,
  managed: readonly string[],
  fs: WriteFs = nodeFs,
): TreeSwap[] {
  const swaps: TreeSwap[] = managed.map((dir) => ({
    target: path.join(root, dir),
    build: (staged) => writeTree(files, dir, staged, fs),
  }));
  for (const [file, text] of files) {
    if (managed.some((dir) => file.startsWith(`${dir}/`))) continue;
    if (file.includes('/')) throw new Error(`output file ${file} is outside ${managed.join('/, ')}/`);
    swaps.push({ target: path.join(root, file), file: true, build: (staged) => fs.writeFile(staged, text) });
  }
  return swaps;
}

/**
 * Write what differs (see `compare`); with `check`, only report it. The new output is written whole
 * beside `<root>/<managed>` (and beside each output file outside it) and swapped in under the lock,
 * journaled (`generator/tree-commit.ts`): a reader sees the old tree or the new one, and a run killed
 * at any point is completed or cleaned by the next one. With nothing to change and no interrupted
 * run, nothing is locked or written.
 * @throws the file system's error, or Error when another run holds the lock for over `lockWaitMs`.
 */
export async function write(
  files: OutputFiles,
  root: string,
  options: { check?: boolean; managed?: string | readonly string[]; fs?: WriteFs; lockWaitMs?: number } = {},
): Promise<WriteResult> {
  const managed = [options.managed ?? 'generated'].flat();
  const first = await compare(files, root, managed);
  if (options.check) return first;
  const same = (r: WriteResult) => r.added.length + r.changed.length + r.removed.length === 0;
  if (same(first) && !(await interrupted(root))) return first;
  const fs = options.fs ?? nodeFs;
  return withLock(
    root,
    async () => {
      await recover(root, fs);
      // compared again under the lock: another run may have written meanwhile
      const result = await compare(files, root, managed);
      if (!same(result)) await commitTrees(root, swapsOf(files, root, managed, fs), { fs });
      return result;
    },
    options.lockWaitMs !== undefined ? { waitMs: options.lockWaitMs } : {},
  );
}
