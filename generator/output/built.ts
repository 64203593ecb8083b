/**
 * What this machine's own runs built for an output root: for each file the generator produced
 * itself, its inputs hash and the hash of the text it produced (`output/manifest.ts`'s `hash`),
 * kept in the generator's state folder, outside the project (`run-state.ts`).
 *
 * The manifest (`manifest.json`, committed) lets `generate` reuse a file on disk without rebuilding
 * it, but a commit can edit it along with the file, so it never decides `--check`. Nothing in the
 * project can add an entry here: a file on disk whose inputs are recorded and whose bytes hash to
 * what this machine built for them is the generator's output, and `--check` reuses it. A machine
 * that has not built them (a fresh CI runner) rebuilds every file and compares the bytes. A record
 * is a cache: missing, unreadable or stale, it only costs time.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { existingRootState, rootState } from './run-state.ts';

/** Inputs hash -> content hash, of files this machine built for the output root `root` (empty when none). */
export function readBuilt(root: string): Map<string, string> {
  const state = existingRootState(root);
  if (!state) return new Map();
  try {
    const data = JSON.parse(readFileSync(state.built, 'utf8')) as Record<string, unknown>;
    return new Map(Object.entries(data).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return new Map();
  }
}

/**
 * Record `entries` (inputs hash -> content hash) as what this machine built for `root`, replacing the previous record.
 * `root` need not exist yet: a first `add` makes it after this, when it commits its tree.
 */
export function writeBuilt(root: string, entries: ReadonlyMap<string, string>): void {
  const state = rootState(root);
  try {
    const tmp = `${state.built}.${process.pid}`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(entries)), { mode: 0o600 });
    renameSync(tmp, state.built);
  } catch {
    // a cache: the next check rebuilds instead
  }
}
