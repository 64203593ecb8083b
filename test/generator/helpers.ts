/** Helpers of the generator tests: temporary specs directories and file hashes. */
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../generator/index.ts';

/** A temporary directory holding `specs/` (openapi.yaml and the chosen models) and an output root. */
export interface TempSpecs {
  root: string;
  specsDir: string;
  cleanup(): Promise<void>;
}

/**
 * Copy the repository's openapi.yaml and the given snapshot models (all when `ids` is undefined)
 * into a new temporary `specs/`; `extra` adds or replaces model files by id (raw text or an object).
 */
export async function tempSpecs(ids?: string[], extra: Record<string, unknown> = {}): Promise<TempSpecs> {
  const root = await mkdtemp(path.join(tmpdir(), 'inference-sdk-test-'));
  const specsDir = path.join(root, 'specs');
  await cp(path.join(REPO_ROOT, 'specs', 'openapi.yaml'), path.join(specsDir, 'openapi.yaml'));
  const all = JSON.parse(await readFile(path.join(REPO_ROOT, 'specs', 'models.json'), 'utf8')) as string[];
  const chosen = ids ?? all;
  for (const id of chosen)
    await cp(path.join(REPO_ROOT, 'specs', 'models', `${id}.json`), path.join(specsDir, 'models', `${id}.json`));
  await mkdir(path.join(specsDir, 'models'), { recursive: true });
  for (const [id, value] of Object.entries(extra)) {
    await writeFile(
      path.join(specsDir, 'models', `${id}.json`),
      typeof value === 'string' ? value : JSON.stringify(value, null, 2),
    );
  }
  const list = [...new Set([...chosen, ...Object.keys(extra)])];
  await writeFile(path.join(specsDir, 'models.json'), JSON.stringify(list, null, 2) + '\n');
  return { root, specsDir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** sha256 of every file below `dir`, by relative path (missing directory: empty). */
export async function hashTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    out[path.relative(dir, full)] = createHash('sha256')
      .update(await readFile(full))
      .digest('hex');
  }
  return out;
}

/** A model-details object for fixtures. */
export function fixtureModel(
  id: string,
  schema: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    object: 'model',
    display_name: id,
    description: 'fixture',
    endpoint: '/images/generate',
    capabilities: { input: ['text'], output: ['image'] },
    request_schema: schema,
    ...extra,
  };
}
