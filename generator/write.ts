/**
 * Stage 7, write: format output files with prettier, then write only the files whose text
 * changed and remove generated files that are no longer produced. With `check`, write nothing and
 * report what would change (the drift check CI runs).
 *
 * All or nothing: every changed file is first written as a temporary file beside its target; then
 * each target is moved aside (renamed to a backup) and the new file renamed into place. If any
 * step fails, every step already done is undone in reverse order (new files removed, backups
 * renamed back, temporary files deleted), so `generated/` is left byte-identical and holds no
 * temporary file. Backups are removed only once everything is in place.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Options as PrettierOptions } from 'prettier';

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
  const parser = file.endsWith('.ts') ? 'babel-ts' : file.endsWith('.md') ? 'markdown' : file.endsWith('.json') ? 'json' : undefined;
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
  private next = 0;
  private readonly pending = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void }>();

  constructor(private readonly root: string) {}

  /** The formatted text of `file`. @throws Error when prettier cannot parse it (the generator emitted invalid code). */
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
    this.start();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(path.join(this.root, 'generator', 'format-worker.mjs'));
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

  /** End the worker (idempotent). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
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
export async function compare(files: OutputFiles, root: string, managed: string | readonly string[] = 'generated'): Promise<WriteResult> {
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
  result.removed = (await Promise.all([managed].flat().map((dir) => listFiles(path.join(root, dir), root)))).flat().filter((f) => !files.has(f)).sort();
  result.added.sort();
  result.changed.sort();
  return result;
}

/** File system steps of `write` (replaceable in tests to make one fail midway). */
export interface WriteFs {
  writeFile(file: string, text: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(file: string): Promise<void>;
  mkdir(dir: string): Promise<void>;
}

const nodeFs: WriteFs = {
  writeFile: (f, t) => writeFile(f, t),
  rename: (a, b) => rename(a, b),
  rm: (f) => rm(f, { force: true }),
  mkdir: async (d) => void (await mkdir(d, { recursive: true })),
};

/** Write what differs (see `compare`); with `check`, only report it. */
export async function write(files: OutputFiles, root: string, options: { check?: boolean; managed?: string | readonly string[]; fs?: WriteFs } = {}): Promise<WriteResult> {
  const result = await compare(files, root, options.managed);
  if (options.check) return result;
  const fs = options.fs ?? nodeFs;
  // Short temporary names (a long file name plus a suffix could exceed the file system's limit).
  const tag = `${process.pid.toString(36)}${randomBytes(3).toString('hex')}`;
  let n = 0;
  const temp = (target: string, kind: string) => path.join(path.dirname(target), `.${kind}-${tag}-${(n++).toString(36)}`);
  const staged: Array<{ target: string; tmp: string }> = [];
  const undo: Array<() => Promise<void>> = [];
  const backups: string[] = [];
  try {
    for (const file of [...result.added, ...result.changed]) {
      const target = path.join(root, file);
      await fs.mkdir(path.dirname(target));
      const tmp = temp(target, 'new');
      staged.push({ target, tmp });
      await fs.writeFile(tmp, files.get(file)!);
    }
    const existing = new Set(result.changed.map((f) => path.join(root, f)));
    for (const { target, tmp } of staged) {
      if (existing.has(target)) {
        const bak = temp(target, 'old');
        await fs.rename(target, bak);
        backups.push(bak);
        undo.push(() => fs.rename(bak, target));
      }
      await fs.rename(tmp, target);
      undo.push(() => fs.rm(target));
    }
    for (const file of result.removed) {
      const target = path.join(root, file);
      const bak = temp(target, 'old');
      await fs.rename(target, bak);
      backups.push(bak);
      undo.push(() => fs.rename(bak, target));
    }
  } catch (err) {
    // Undo in reverse order; keep going on errors so that as much as possible is restored.
    for (const step of undo.reverse()) await step().catch(() => undefined);
    await Promise.all(staged.map(({ tmp }) => fs.rm(tmp).catch(() => undefined)));
    throw err;
  }
  await Promise.all(backups.map((b) => rm(b, { force: true })));
  return result;
}
