/**
 * One fuzz case: a specs directory to generate from (the repository's `openapi.yaml`, a
 * `models.json` and `models/<name>.json` files), described as data so that it can be rebuilt from
 * its seed and index, and written to disk by `writeCase`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../generator/paths.ts';

/** File content written byte for byte (invalid JSON, duplicate keys, number literals JSON cannot round-trip). */
export class RawText {
  constructor(readonly text: string) {}
}

/** A JSON value, or raw text. */
export type Content = unknown;

/** One `models/<name>.json` file. */
export interface CaseFile {
  /** File name without `.json` (usually the model id). Not written when it cannot name a file inside `models/`. */
  name: string;
  content: Content;
}

/** What a family builds. */
export interface CaseSpec {
  /** One line: what the case plants. */
  note: string;
  /** `models.json`: usually the list of ids; anything for the families that break it. */
  list: Content;
  files: CaseFile[];
}

/** A built case. */
export interface FuzzCase extends CaseSpec {
  seed: number;
  index: number;
  family: string;
  /** How many injection sentinels were planted. */
  sentinels: number;
}

/**
 * An object with exactly these own keys, in order, `__proto__` included (a plain literal or
 * assignment would set the prototype instead). `JSON.stringify` writes every key.
 */
export function obj(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

/** Set one own key (also `__proto__`) on an object. */
export function setKey(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy of a JSON value that keeps `__proto__` keys as own keys. */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The text of a file's content: raw text as is, else JSON with 2-space indentation (iterative for very deep values). */
export function contentText(content: Content): string {
  if (content instanceof RawText) return content.text;
  return `${JSON.stringify(content, null, 2) ?? 'null'}\n`;
}

/** Whether `name` can name a file directly inside `models/` (no separator, NUL, `.`/`..`, or over 255 bytes). */
export function writableName(name: string): boolean {
  return (
    name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name) && Buffer.byteLength(`${name}.json`) <= 255
  );
}

/** The real snapshot's model objects (parsed), by id, read once. */
let snapshot: Map<string, Record<string, unknown>> | undefined;
export function snapshotModels(): Map<string, Record<string, unknown>> {
  if (!snapshot) {
    snapshot = new Map();
    const dir = path.join(REPO_ROOT, 'specs', 'models');
    for (const f of readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const m = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>;
      snapshot.set(f.slice(0, -'.json'.length), m);
    }
  }
  return snapshot;
}

/**
 * Write a case as a specs directory `<dir>` (`openapi.yaml` copied from the repository,
 * `models.json`, `models/<name>.json`). Files whose name cannot be written inside `models/` are
 * skipped (the generator must then report them as missing). Returns the paths written.
 */
export function writeCase(c: CaseSpec, dir: string): string[] {
  const models = path.join(dir, 'models');
  mkdirSync(models, { recursive: true });
  writeFileSync(path.join(dir, 'openapi.yaml'), readFileSync(path.join(REPO_ROOT, 'specs', 'openapi.yaml')));
  writeFileSync(path.join(dir, 'models.json'), contentText(c.list));
  const written = ['openapi.yaml', 'models.json'];
  for (const f of c.files) {
    if (!writableName(f.name)) continue;
    writeFileSync(path.join(models, `${f.name}.json`), contentText(f.content));
    written.push(`models/${f.name}.json`);
  }
  return written;
}
