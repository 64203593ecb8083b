/**
 * The content-addressed cache of the emit and write stages. Formatting (prettier) and the
 * OpenAPI types (openapi-typescript) are pure functions of their input text, options and tool
 * version; this cache maps a hash of those inputs to the hash of the output. A run reuses the file
 * already on disk only when its bytes hash to that output hash, so the result is byte-identical to
 * recomputing it, and a hand edit of a generated file is still found (its hash differs). The cache
 * lives in `node_modules/.cache/inference-sdk/` (never committed); a missing or corrupt cache only
 * makes the run slower. `--check` reads it but never writes it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** sha256 of the given parts (joined unambiguously). */
export function hash(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(String(p.length)).update(':').update(p);
  return h.digest('hex');
}

/** The version of an installed package (part of every cache key that depends on it). */
export async function packageVersion(root: string, name: string): Promise<string> {
  const pkg = JSON.parse(await readFile(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The cache: input hash -> output hash. */
export class OutputCache {
  private entries = new Map<string, string>();
  /** Outputs computed by this process, by input hash (a second run in one process reuses them). */
  private readonly computed = new Map<string, string>();
  private dirty = false;

  private constructor(private readonly file: string) {}

  private static opened = new Map<string, Promise<OutputCache>>();

  /**
   * Open the cache of the repository at `root` (empty when absent or unreadable). One instance per
   * process, so that runs in one process (refresh's proof run, then its real run) share what they
   * learned even when the first one, a `check`, does not save it.
   */
  static open(root: string): Promise<OutputCache> {
    const file = path.join(root, 'node_modules', '.cache', 'inference-sdk', 'outputs.json');
    let cache = OutputCache.opened.get(file);
    if (!cache) {
      cache = OutputCache.load(file);
      OutputCache.opened.set(file, cache);
    }
    return cache;
  }

  private static async load(file: string): Promise<OutputCache> {
    const cache = new OutputCache(file);
    try {
      const data = JSON.parse(await readFile(cache.file, 'utf8')) as Record<string, string>;
      cache.entries = new Map(Object.entries(data));
    } catch {
      // no cache yet
    }
    return cache;
  }

  /**
   * The output for `key`: computed earlier by this process, or the text of the file at `diskPath`
   * when its hash is the cached output hash; else undefined (recompute).
   */
  async reuse(key: string, diskPath: string): Promise<string | undefined> {
    const mine = this.computed.get(key);
    if (mine !== undefined) return mine;
    const expected = this.entries.get(key);
    if (expected === undefined) return undefined;
    let text: string;
    try {
      text = await readFile(diskPath, 'utf8');
    } catch {
      return undefined;
    }
    return hash(text) === expected ? text : undefined;
  }

  /** Remember that input `key` gives `output`. */
  remember(key: string, output: string): void {
    this.computed.set(key, output);
    const h = hash(output);
    if (this.entries.get(key) !== h) {
      this.entries.set(key, h);
      this.dirty = true;
    }
  }

  /** Write the cache (atomically) when it changed; errors are ignored (it is only a cache). */
  async save(): Promise<void> {
    if (!this.dirty) return;
    try {
      await mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.tmp-${process.pid}`;
      await writeFile(tmp, JSON.stringify(Object.fromEntries([...this.entries].sort(([a], [b]) => (a < b ? -1 : 1)))));
      await rename(tmp, this.file);
      this.dirty = false;
    } catch {
      // a cache that cannot be written only makes the next run slower
    }
  }
}
