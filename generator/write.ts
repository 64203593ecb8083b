/**
 * Stage 7, write: format every output file with prettier, then write only the files whose text
 * changed and remove generated files that are no longer produced. With `check`, write nothing and
 * report what would change (the drift check CI runs).
 *
 * Writing is staged: every changed file is first written next to its target as a temporary file,
 * then all are renamed into place, so an error while writing leaves `generated/` as it was.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Options as PrettierOptions } from 'prettier';
import { hash, packageVersion, type OutputCache } from './cache.ts';
import type { OutputFiles } from './emit.ts';

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
  const parser = file.endsWith('.ts') ? 'babel-ts' : file.endsWith('.md') ? 'markdown' : undefined;
  return { ...config, ...(parser ? { parser } : { filepath: file }) };
}

/**
 * Format every file with prettier. With a cache, a file whose unformatted text, options and
 * prettier version are unchanged and whose formatted text is already on disk under `outRoot` is
 * taken from disk (see `cache.ts`); prettier is loaded only when something must be formatted.
 */
export async function format(files: OutputFiles, root: string, cache?: { cache: OutputCache; outRoot: string }): Promise<OutputFiles> {
  const version = await packageVersion(root, 'prettier');
  let prettier: typeof import('prettier') | undefined;
  const entries = await Promise.all(
    [...files].map(async ([file, text]) => {
      const options = await prettierOptions(root, file);
      const key = hash('prettier', version, JSON.stringify(options), text);
      const reused = await cache?.cache.reuse(key, path.join(cache.outRoot, file));
      if (reused !== undefined) return [file, reused] as const;
      prettier ??= await import('prettier');
      const formatted = await prettier.format(text, options);
      cache?.cache.remember(key, formatted);
      return [file, formatted] as const;
    }),
  );
  return new Map(entries);
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

/** Compare the output with the disk. `managed` is the directory whose other files are stale. */
export async function compare(files: OutputFiles, root: string, managed = 'generated'): Promise<WriteResult> {
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
  result.removed = (await listFiles(path.join(root, managed), root)).filter((f) => !files.has(f));
  result.added.sort();
  result.changed.sort();
  return result;
}

/** Write what differs (see `compare`); with `check`, only report it. */
export async function write(files: OutputFiles, root: string, options: { check?: boolean; managed?: string } = {}): Promise<WriteResult> {
  const result = await compare(files, root, options.managed);
  if (options.check) return result;
  const toWrite = [...result.added, ...result.changed];
  const staged: Array<[string, string]> = [];
  try {
    for (const file of toWrite) {
      const target = path.join(root, file);
      const tmp = `${target}.tmp-${process.pid}`;
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(tmp, files.get(file)!);
      staged.push([tmp, target]);
    }
  } catch (err) {
    await Promise.all(staged.map(([tmp]) => rm(tmp, { force: true })));
    throw err;
  }
  for (const [tmp, target] of staged) await rename(tmp, target);
  for (const file of result.removed) await rm(path.join(root, file), { force: true });
  return result;
}
