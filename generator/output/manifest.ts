/**
 * The output manifest, `generated/manifest.json` (committed with the output): for every generated
 * file, the hash of its inputs (the generator's fingerprint, and the spec files it is made from)
 * and the hash of its content. A run reuses a file on disk without rebuilding it only when both
 * still hold: its inputs hash is the one recorded, and its bytes hash to the recorded content. So
 * a fresh clone's first `generate` does no work for unchanged inputs, and `--check` still finds a
 * hand edit (its content hash differs, so the file is rebuilt and compared) and any real
 * difference (its inputs hash differs).
 *
 * The generator's fingerprint covers the source of the generator's stages (not refresh and drift)
 * and templates, the prettier
 * configuration and the versions of the libraries that shape the output, so changing any of them
 * rebuilds everything.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { byCodeUnits } from '../order.ts';

/** Path of the manifest, relative to the output root. */
export const MANIFEST = 'generated/manifest.json';

/** Libraries whose version is part of the fingerprint. */
const TOOLS = ['ajv', 'ajv-formats', 'openapi-typescript', 'prettier', 'ts-morph', 'handlebars'];

/** One file's record. */
export interface ManifestEntry {
  /** sha256 of the file's inputs. */
  inputs: string;
  /** sha256 of the file's bytes. */
  content: string;
}

/** sha256 (hex) of the given parts, joined unambiguously. */
export function hash(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(String(p.length)).update(':').update(p);
  return h.digest('hex');
}

/**
 * The folders whose every file shapes generated output: the generator's stages, its output targets
 * and manifest, and the templates (recursively), and the generator's top-level files (`index.ts`,
 * `escape.ts`, `order.ts`, `paths.ts`, `errors.ts`).
 * `generator/refresh/`, `generator/drift/` and `generator/cli/` fetch and compare snapshots or run the
 * pipeline; they shape no output file, so a change there keeps every generated file current. Whole
 * folders, recursively: a new file in a stage folder is covered by being there.
 */
const FINGERPRINT_DIRS = ['generator/stages', 'generator/output', 'templates', 'chunks'];
/** Whose files (not subfolders) are in the fingerprint too: the generator's top level. */
const FINGERPRINT_TOP_LEVEL = ['generator'];
/**
 * Single files in the fingerprint: the formatter's settings, and `cli.js` (the installed package's bundle, whose
 * stages are in its `chunks/`).
 */
const FINGERPRINT_FILES = ['cli.js', '.prettierrc.json', '.prettierignore'];

/**
 * The generator's fingerprint: its sources, templates, prettier settings and tool versions.
 * `root` is this repository, or the installed generator package's `dist/` (whose `cli.js` and `chunks/` hold
 * the bundled stages); `exclude`: tools the target does not use; a tool's version is read from the nearest `node_modules` above `root` that
 * has it (the package's dependencies may be hoisted into the user's `node_modules`).
 */
export async function fingerprint(root: string, exclude: readonly string[] = []): Promise<string> {
  const parts: string[] = [];
  for (const dir of [...FINGERPRINT_DIRS, ...FINGERPRINT_TOP_LEVEL]) {
    const recursive = FINGERPRINT_DIRS.includes(dir);
    const names = (await readdir(path.join(root, dir), { recursive }).catch(() => [] as string[]))
      .map((n) => n.split(path.sep).join('/'))
      .filter((n) => /\.(ts|mjs|hbs)$/.test(n) || (dir === 'chunks' && n.endsWith('.js')))
      .sort();
    for (const n of names) parts.push(`${dir}/${n}`, await readFile(path.join(root, dir, n), 'utf8'));
  }
  for (const f of FINGERPRINT_FILES) parts.push(f, await readFile(path.join(root, f), 'utf8').catch(() => ''));
  for (const tool of TOOLS) if (!exclude.includes(tool)) parts.push(tool, await toolVersion(root, tool));
  return hash(...parts);
}

/** The version of an installed tool, from the nearest `node_modules/<tool>/package.json` at or above `from`. */
async function toolVersion(from: string, tool: string): Promise<string> {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const text = await readFile(path.join(dir, 'node_modules', tool, 'package.json'), 'utf8').catch(() => undefined);
    if (text !== undefined) return (JSON.parse(text) as { version: string }).version;
    if (path.dirname(dir) === dir)
      throw new Error(
        `the generator cannot find its dependency ${tool} (node_modules/${tool}/package.json above ${from})`,
      );
  }
}

/** The manifest (`file`, relative to `outRoot`), or an empty one when it is missing or unreadable. */
export async function readManifest(outRoot: string, file = MANIFEST): Promise<Map<string, ManifestEntry>> {
  try {
    const data = JSON.parse(await readFile(path.join(outRoot, file), 'utf8')) as {
      files?: Record<string, ManifestEntry>;
    };
    const files = data.files && typeof data.files === 'object' ? data.files : {};
    return new Map(
      Object.entries(files).filter(([, e]) => e && typeof e.inputs === 'string' && typeof e.content === 'string'),
    );
  } catch {
    return new Map();
  }
}

/** How every manifest's `//` line ends: what marks a folder's `manifest.json` as this generator's (`isManifest`). */
const MANIFEST_MARK = '(generator/output/manifest.ts): the inputs and content hash of each generated file.';

/**
 * Whether `text` is a manifest of this generator, even one a merge left unparsable (conflict
 * markers): it carries the manifest's own line.
 */
export function isManifest(text: string): boolean {
  return text.includes(MANIFEST_MARK);
}

/**
 * The manifest's text for these files (sorted: deterministic). `settings`: what the next run keeps
 * (a user's `format`: whether the files are formatted with prettier, see `readManifestSettings`).
 */
export function renderManifest(
  entries: Map<string, ManifestEntry>,
  command = 'npm run generate',
  settings: { format?: boolean } = {},
): string {
  const files = Object.fromEntries([...entries].sort(([a], [b]) => byCodeUnits(a, b)));
  return `${JSON.stringify({ '//': `GENERATED FILE: do not edit by hand. Written by \`${command}\` ${MANIFEST_MARK}`, ...settings, files }, null, 2)}\n`;
}

/** The settings a manifest recorded (see `renderManifest`); none when it is missing or unreadable. */
export async function readManifestSettings(file: string): Promise<{ format?: boolean }> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as { format?: unknown };
    return typeof data.format === 'boolean' ? { format: data.format } : {};
  } catch {
    return {};
  }
}
