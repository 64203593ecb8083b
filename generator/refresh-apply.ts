/**
 * Refresh, the write phase, all or nothing: what changes in the specs directory (a plan), the
 * staged copy the new snapshot is proved on, and the commit that moves the files into place and
 * generates for real, restoring every snapshot file and every file under `generated/` byte for
 * byte if anything fails after the first write.
 */
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Snapshot } from './drift-types.ts';
import { SpecError } from './errors.ts';
import type { GenerateResult } from './index.ts';
import { checkModel } from './load.ts';
import { RefreshError } from './refresh-checks.ts';

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

/** Every file under `dir` (relative path -> bytes); null when `dir` does not exist. */
async function snapshotTree(dir: string): Promise<Map<string, Buffer> | null> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const files = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  const out = new Map<string, Buffer>();
  await Promise.all(files.map(async (f) => out.set(f, await readFile(path.join(dir, f)))));
  return out;
}

/** Put `dir` back to exactly `saved` (as returned by `snapshotTree`). */
async function restoreTree(dir: string, saved: Map<string, Buffer> | null): Promise<void> {
  if (saved === null) {
    await rm(dir, { recursive: true, force: true });
    return;
  }
  const now = (await snapshotTree(dir)) ?? new Map<string, Buffer>();
  for (const [f, bytes] of now) {
    const old = saved.get(f);
    if (old === undefined) await rm(path.join(dir, f), { force: true });
    else if (!old.equals(bytes)) await writeFile(path.join(dir, f), old);
  }
  for (const [f, bytes] of saved) {
    if (!now.has(f)) {
      await mkdir(path.dirname(path.join(dir, f)), { recursive: true });
      await writeFile(path.join(dir, f), bytes);
    }
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
  if (!Array.isArray(ids) || !ids.every((i): i is string => typeof i === 'string')) throw new SpecError(`${label}/models.json`, undefined, '', 'expected a JSON array of model ids');
  const models = new Map<string, unknown>();
  await Promise.all(
    ids.map(async (id) => {
      try {
        const raw: unknown = JSON.parse(await readFile(path.join(specsDir, 'models', `${id}.json`), 'utf8'));
        checkModel(raw, id, `${label}/models/${id}.json`);
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
export async function planChanges(specsDir: string, changes: { listText?: string; fetched: Iterable<{ id: string; text: string }>; remove: readonly string[] }): Promise<SnapshotPlan> {
  const plan: SnapshotPlan = new Map();
  if (changes.listText !== undefined) {
    const old = await readIfExists(path.join(specsDir, 'models.json'));
    if (old?.toString('utf8') !== changes.listText) plan.set('models.json', changes.listText);
  }
  for (const m of changes.fetched) {
    const old = await readIfExists(path.join(specsDir, 'models', `${m.id}.json`));
    if (old?.toString('utf8') !== m.text) plan.set(`models/${m.id}.json`, m.text);
  }
  for (const id of changes.remove) if ((await readIfExists(path.join(specsDir, 'models', `${id}.json`))) !== null) plan.set(`models/${id}.json`, null);
  return plan;
}

/** Copy the specs directory to `<tmp>/specs` and apply the plan there. @returns the staged directory. */
export async function stageSnapshot(specsDir: string, plan: SnapshotPlan, tmp: string): Promise<string> {
  const staged = path.join(tmp, 'specs');
  await cp(specsDir, staged, { recursive: true });
  for (const [rel, text] of plan) {
    if (text === null) await rm(path.join(staged, rel), { force: true });
    else {
      await mkdir(path.dirname(path.join(staged, rel)), { recursive: true });
      await writeFile(path.join(staged, rel), text);
    }
  }
  return staged;
}

/**
 * Commit: back up the planned files and `<outRoot>/generated`, write the new files beside their
 * targets and rename them into place, delete the removed ones, then run `generate`. On any failure
 * every planned file and `generated/` are restored to their previous bytes.
 * @param label how the specs directory is named in a message about restoring by hand.
 * @throws RefreshError (`restored: true` when the restore succeeded) naming what failed.
 */
export async function commitPlan(specsDir: string, outRoot: string, plan: SnapshotPlan, label: string, generate: () => Promise<GenerateResult>): Promise<GenerateResult> {
  const backups = new Map<string, Buffer | null>();
  for (const rel of plan.keys()) backups.set(rel, await readIfExists(path.join(specsDir, rel)));
  const generatedDir = path.join(outRoot, 'generated');
  const generatedBackup = await snapshotTree(generatedDir);
  const tmpName = (target: string) => `${target}.tmp-refresh-${process.pid}`;
  try {
    const renames: Array<[string, string]> = [];
    try {
      for (const [rel, text] of plan) {
        if (text === null) continue;
        const target = path.join(specsDir, rel);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(tmpName(target), text);
        renames.push([tmpName(target), target]);
      }
    } catch (err) {
      await Promise.all(renames.map(([t]) => rm(t, { force: true })));
      throw err;
    }
    for (const [tmpFile, target] of renames) await rename(tmpFile, target);
    for (const [rel, text] of plan) if (text === null) await rm(path.join(specsDir, rel), { force: true });
    return await generate();
  } catch (err) {
    let restoreProblem = '';
    try {
      for (const [rel, bytes] of backups) {
        const target = path.join(specsDir, rel);
        await rm(tmpName(target), { force: true });
        if (bytes === null) await rm(target, { force: true });
        else await writeFile(target, bytes);
      }
      await restoreTree(generatedDir, generatedBackup);
    } catch (e) {
      restoreProblem = ` (restoring failed too: ${(e as Error).message}; check ${label}/ and generated/ by hand)`;
    }
    throw new RefreshError(`refresh failed while writing; the previous snapshot and generated/ were restored${restoreProblem}: ${err instanceof Error ? err.message : String(err)}`, [], restoreProblem === '');
  }
}
