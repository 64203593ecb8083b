/**
 * Stage 7, write: format output files with prettier, then, when any file's text changed or a
 * generated file is no longer produced, replace `generated/` with the new tree; when nothing
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
import { Worker } from 'node:worker_threads';
import type { Options as PrettierOptions } from 'prettier';
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

/**
 * The prettier options for one output file: the repository's `.prettierrc.json` (plain JSON), with
 * the parser chosen by extension (`babel-ts` for TypeScript: the same output as the `typescript`
 * parser for this code, without loading a second TypeScript compiler).
 */
export async function prettierOptions(root: string, file: string): Promise<PrettierOptions> {
  const config = JSON.parse(await readFile(path.join(root, '.prettierrc.json'), 'utf8')) as PrettierOptions;
  const parser = file.endsWith('.ts')
    ? 'babel-ts'
    : file.endsWith('.md')
      ? 'markdown'
      : file.endsWith('.json')
        ? 'json'
        : undefined;
  return { ...config, ...(parser ? { parser } : { filepath: file }) };
}

/**
 * Formats files with prettier in a worker thread (`generator/format-worker.mjs`), started on first
 * use (or `warmUp`): a run that reuses every file starts none. One worker: a second one paid
 * prettier's cold start again and competed with the main thread for the second core (measured
 * slower on 2 cores, and over the 300 MiB memory aim). `close()` ends it.
 */
export class Formatter {
  private worker: Worker | undefined;
  private closed = false;
  private next = 0;
  private readonly pending = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void }>();

  constructor(private readonly root: string) {}

  /**
   * The formatted text of `file`.
   * @throws Error when prettier cannot parse it (the generator emitted invalid code), or when the
   * formatter is closed (also when it was closed while this call read the prettier options).
   */
  async format(text: string, file: string): Promise<string> {
    const options = await prettierOptions(this.root, file);
    const worker = this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, text, options });
    });
  }

  /** Start the worker now, so that prettier loads while the first files are being built. */
  warmUp(): void {
    if (!this.closed) this.start();
  }

  private start(): Worker {
    // Closed means closed: a worker started now would keep the process alive after the run ended.
    if (this.closed) throw new Error('the formatter is closed');
    if (this.worker) return this.worker;
    const worker = new Worker(path.join(this.root, 'generator', 'stages', 'format-worker.mjs'));
    worker.on('message', (m: { id: number; text?: string; error?: string }) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.text !== undefined) p?.resolve(m.text);
      else p?.reject(new Error(`prettier could not format the output: ${m.error}`));
    });
    worker.on('error', (err) => {
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }

  /** End the worker and refuse later work (idempotent); pending `format` calls reject. */
  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('the formatter is closed'));
    this.pending.clear();
    if (w) await w.terminate();
  }
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
  const made = new Set<string>();
  const list = [...files].filter(([file]) => file.startsWith(`${managed}/`));
  for (const [i, [file, text]] of list.entries()) {
    const target = path.join(dir, file.slice(managed.length + 1));
    const parent = path.dirname(target);
    if (!made.has(parent)) {
      await mkdir(parent, { recursive: true });
      made.add(parent);
    }
    await fs.writeFile(target, text);
    if (i === Math.floor(list.length / 2)) await pausePoint('staging');
  }
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
