/**
 * The generated doc comments inside the hand-written runtime: in the files of `RUNTIME_DOC_FILES`,
 * a line `/* endpoint-doc: <key> *\/` marks the doc comment right below it as rendered from the
 * endpoint table (`generator/stages/endpoint-docs.ts`, with method and path from the operations
 * table): `npm run generate` rewrites each marked comment, `npm run generate -- --check` reports a
 * file whose comments differ. Only the comments are touched; the code around them stays the
 * hand-written one.
 *
 * Marked regions rather than generated files: the functions and resource classes are hand-written
 * code that other changes edit, and the doc comment must stay on the declaration it documents (for
 * editors' hovers and TypeDoc); a region keeps one source for the text without moving the code.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ENDPOINT_DOCS, runtimeDoc, type EndpointKey } from '../stages/endpoint-docs.ts';
import type { OperationsTable } from '../stages/operations.ts';

/** The files with marked regions, and how their declarations are documented. */
export const RUNTIME_DOC_FILES: ReadonlyArray<{ file: string; variant: 'function' | 'method' }> = [
  { file: 'runtime/endpoints.ts', variant: 'function' },
  { file: 'runtime/queue/endpoints.ts', variant: 'function' },
  { file: 'runtime/models/endpoints.ts', variant: 'function' },
  { file: 'runtime/fine-tunes/endpoints.ts', variant: 'function' },
  { file: 'runtime/fine-tunes/wait.ts', variant: 'function' },
  { file: 'runtime/resources.ts', variant: 'method' },
  { file: 'runtime/models/resource.ts', variant: 'method' },
  { file: 'runtime/fine-tunes/resource.ts', variant: 'method' },
];

/** The repository's line width (`.prettierrc.json`); comment lines are wrapped to it. */
const WIDTH = 120;

/**
 * A marker line, then the doc comment it owns (up to its first `*\/`): a text search, so that a run
 * loads no TypeScript; test/generator/runtime-docs-regions.test.ts pins it to TypeScript's reading.
 */
const REGION = /^([ \t]*)\/\* endpoint-doc: ([A-Za-z.]+) \*\/\n(?:\1\/\*\*[\s\S]*?\*\/\n)?/gm;

/**
 * One paragraph on lines of at most `width` characters. A code span is kept on one line (a hover
 * shows it whole) unless it is longer than a line by itself; a longer word stays whole.
 */
function wrap(text: string, width: number): string[] {
  const units = (text.match(/(?:`[^`]*`|[^\s`])+/g) ?? []).flatMap((u) => (u.length > width ? u.split(' ') : [u]));
  const lines: string[] = [];
  let line = '';
  for (const unit of units) {
    if (line !== '' && line.length + 1 + unit.length > width) {
      lines.push(line);
      line = unit;
    } else line = line === '' ? unit : `${line} ${unit}`;
  }
  lines.push(line);
  return lines;
}

/** The doc comment of `key` at `indent`. */
export function renderDocComment(
  key: EndpointKey,
  variant: 'function' | 'method',
  indent: string,
  table: OperationsTable,
): string {
  const width = WIDTH - indent.length - 3;
  const lines = runtimeDoc(key, variant, table)
    .split('\n')
    .flatMap((paragraph) => wrap(paragraph, width));
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/** What one file's regions render to. */
export interface RegionResult {
  text: string;
  /** The keys of the regions found, in order. */
  keys: string[];
  /** Marker keys the table does not have. */
  unknown: string[];
}

/** `text` with each marked region's doc comment rendered from the table. */
export function renderRegions(text: string, variant: 'function' | 'method', table: OperationsTable): RegionResult {
  const keys: string[] = [];
  const unknown: string[] = [];
  const out = text.replace(REGION, (region, indent: string, key: string) => {
    keys.push(key);
    if (!Object.hasOwn(ENDPOINT_DOCS, key)) {
      unknown.push(key);
      return region;
    }
    return `${indent}/* endpoint-doc: ${key} */\n${renderDocComment(key as EndpointKey, variant, indent, table)}`;
  });
  return { text: out, keys, unknown };
}

/**
 * Bring the marked regions of the runtime files under `root` up to date (with `check`, only report).
 * Resolves to the files whose regions differ (relative to `root`).
 * @throws Error naming the file and the marker for a marker key the table does not have.
 */
export async function syncRuntimeDocs(root: string, check: boolean, table: OperationsTable): Promise<string[]> {
  const changed: string[] = [];
  for (const { file, variant } of RUNTIME_DOC_FILES) {
    const full = path.join(root, file);
    const text = await readFile(full, 'utf8');
    const r = renderRegions(text, variant, table);
    if (r.unknown.length > 0)
      throw new Error(`${file}: endpoint-doc marker(s) not in the endpoint table: ${r.unknown.join(', ')}`);
    if (r.text === text) continue;
    changed.push(file);
    if (!check) {
      await writeFile(`${full}.${process.pid}.tmp`, r.text);
      await rename(`${full}.${process.pid}.tmp`, full);
    }
  }
  return changed;
}
