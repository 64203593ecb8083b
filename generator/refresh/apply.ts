/**
 * Refresh, the write phase, whole or nothing: what changes in the specs directory (a plan), the
 * staged copy the new snapshot is proved on, and the commit that swaps the staged specs directory
 * and the proved `generated/` in together, under the generator's lock and journal.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Snapshot } from '../drift/types.ts';
import { SpecError } from '../errors.ts';
import { checkModel } from '../stages/load.ts';
import { RefreshError } from './checks.ts';
import { commitTrees, treeDigest, type HeldLock } from '../output/tree-commit.ts';
import { compare, settleAll, swapsOf, type OutputFiles, type WriteResult } from '../stages/write.ts';
import { specFile } from '../stages/name.ts';

/** What a refresh changes in the specs directory: relative path (`models.json`, `models/<id>.json`) -> new text, or null to delete. */
export type SnapshotPlan = Map<string, string | null>;

/** A file's bytes, or null when it does not exist. */
export async function readIfExists(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * The current snapshot: the ids of `models.json` (which must be readable) and, for the drift
 * report, the model objects that are readable and valid (a broken file is what a refresh repairs,
 * so it is left out of the old side instead of failing the refresh).
 * @throws SpecError when `models.json` cannot be read or is not an array of strings.
 */
export async function readCurrent(specsDir: string, label: string): Promise<{ ids: string[]; valid: Snapshot }> {
  const listFile = path.join(specsDir, 'models.json');
  let ids: unknown;
  try {
    ids = JSON.parse(await readFile(listFile, 'utf8'));
  } catch (err) {
    throw new SpecError(`${label}/models.json`, undefined, '', `cannot read: ${(err as Error).message}`);
  }
  if (!Array.isArray(ids) || !ids.every((i): i is string => typeof i === 'string'))
    throw new SpecError(`${label}/models.json`, undefined, '', 'expected a JSON array of model ids');
  const models = new Map<string, unknown>();
  await Promise.all(
    ids.map(async (id) => {
      try {
        const raw: unknown = JSON.parse(await readFile(path.join(specsDir, specFile(id)), 'utf8'));
        checkModel(raw, id, `${label}/${specFile(id)}`);
        models.set(id, raw);
      } catch {
        // missing, malformed or invalid: not part of the old side of the report
      }
    }),
  );
  return { ids, valid: { label, ids: ids.filter((id) => models.has(id)), models } };
}

/**
 * The plan: `models.json` when `listText` is given and differs, each fetched model whose text
 * differs from its file, and the snapshot file of each removed id that exists (to delete).
 */
export async function planChanges(
  specsDir: string,
  changes: { listText?: string; fetched: Iterable<{ id: string; text: string }>; remove: readonly string[] },
): Promise<SnapshotPlan> {
  const plan: SnapshotPlan = new Map();
  if (changes.listText !== undefined) {
    const old = await readIfExists(path.join(specsDir, 'models.json'));
    if (old?.toString('utf8') !== changes.listText) plan.set('models.json', changes.listText);
  }
  const fetched = [...changes.fetched];
  const olds = await Promise.all(fetched.map((m) => readIfExists(path.join(specsDir, specFile(m.id)))));
  for (const [i, m] of fetched.entries()) if (olds[i]?.toString('utf8') !== m.text) plan.set(specFile(m.id), m.text);
  for (const id of changes.remove)
    if ((await readIfExists(path.join(specsDir, specFile(id)))) !== null) plan.set(specFile(id), null);
  return plan;
}

/**
 * Copy the files of the tree `from` to `to` (created, with its folders), every copy at once (the
 * file system's thread pool queues them); resolves when every copy has ended.
 * @throws the first copy's error.
 */
export async function copyTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true, recursive: true });
  await mkdir(to, { recursive: true });
  for (const e of entries.filter((d) => d.isDirectory()))
    await mkdir(path.join(to, path.relative(from, path.join(e.parentPath, e.name))), { recursive: true });
  await settleAll(
    entries
      .filter((e) => e.isFile())
      .map((e) => {
        const rel = path.relative(from, path.join(e.parentPath, e.name));
        return copyFile(path.join(from, rel), path.join(to, rel));
      }),
  );
}

/** Apply a plan to the directory `dir` (all writes and deletions at once). @throws the first one's error. */
export async function applyPlan(dir: string, plan: SnapshotPlan): Promise<void> {
  for (const parent of new Set([...plan.keys()].map((rel) => path.dirname(path.join(dir, rel)))))
    await mkdir(parent, { recursive: true });
  await settleAll(
    [...plan].map(([rel, text]) =>
      text === null ? rm(path.join(dir, rel), { force: true }) : writeFile(path.join(dir, rel), text),
    ),
  );
}

/**
 * Copy the specs directory to `<tmp>/specs` (an empty one when it does not exist yet: a user's first
 * `add`) and apply the plan there. @returns the staged directory.
 */
export async function stageSnapshot(specsDir: string, plan: SnapshotPlan, tmp: string): Promise<string> {
  const staged = path.join(tmp, 'specs');
  if (existsSync(specsDir)) await copyTree(specsDir, staged);
  await mkdir(path.join(staged, 'models'), { recursive: true });
  await applyPlan(staged, plan);
  return staged;
}

/**
 * Commit, whole, holding the lock of the output root (`lock`): replace the specs directory with the
 * staged one and the output (`<root>/generated`, or a user's managed folders and files, and the
 * files named in `outside`: see `WriteOptions.outside`) with the proved output `files`, in one
 * journal (`output/tree-commit.ts`): a reader sees both old or both new, and a run killed midway is
 * completed by the next one.
 * @returns what changed in the output.
 * @throws RefreshError naming what failed: `restored: true` when nothing was moved (the specs
 * directory changed since `specsDigest` was taken, or the new trees were being built); otherwise
 * the commit was rolled forward, or is left to the next run.
 */
export async function commitPlan(
  lock: HeldLock,
  specsDir: string,
  staged: string,
  files: OutputFiles,
  specsDigest: string,
  managed: readonly string[] = ['generated'],
  outside: readonly string[] = [],
): Promise<WriteResult> {
  const outRoot = lock.state.root;
  let moving = false;
  try {
    // something other than a generator run may have changed the snapshot since it was read: committing would undo that
    if ((await treeDigest(specsDir)) !== specsDigest)
      throw new Error(`${specsDir} changed while this refresh ran; run the refresh again`);
    const result = await compare(files, outRoot, managed);
    const specsTree = (dir: string) => copyTree(staged, dir);
    const outputSwaps = swapsOf(files, outRoot, managed, undefined, outside);
    const last = outputSwaps[outputSwaps.length - 1];
    if (last) {
      const build = last.build;
      last.build = async (dir) => {
        await build(dir);
        moving = true; // every new tree is complete: from here on the commit only rolls forward
      };
    }
    await commitTrees(lock, [{ target: specsDir, build: specsTree }, ...outputSwaps]);
    return result;
  } catch (err) {
    const state = moving
      ? 'the previous and the new trees were being swapped; the swap is completed now or by the next run'
      : 'the previous snapshot and generated/ are unchanged';
    throw new RefreshError(
      `refresh failed while writing (${state}): ${err instanceof Error ? err.message : String(err)}`,
      [],
      !moving,
    );
  }
}
