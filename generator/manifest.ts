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

/** Path of the manifest, relative to the output root. */
export const MANIFEST = 'generated/manifest.json';

/** Libraries whose version is part of the fingerprint. */
const TOOLS = ['ajv', 'ajv-formats', 'json-schema-to-typescript', 'openapi-typescript', 'prettier', 'ts-morph', 'handlebars'];

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

/** The generator's fingerprint: its sources, templates, prettier settings and tool versions. */
export async function fingerprint(repoRoot: string): Promise<string> {
  const parts: string[] = [];
  for (const dir of ['generator', 'templates']) {
    // refresh and drift (and their parts) fetch and compare snapshots; they shape no output file
    const names = (await readdir(path.join(repoRoot, dir))).filter((n) => /\.(ts|mjs|hbs)$/.test(n) && !/^(refresh|drift)/.test(n)).sort();
    for (const n of names) parts.push(`${dir}/${n}`, await readFile(path.join(repoRoot, dir, n), 'utf8'));
  }
  for (const f of ['.prettierrc.json', '.prettierignore']) parts.push(f, await readFile(path.join(repoRoot, f), 'utf8').catch(() => ''));
  for (const tool of TOOLS) {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'node_modules', tool, 'package.json'), 'utf8')) as { version: string };
    parts.push(tool, pkg.version);
  }
  return hash(...parts);
}

/** The manifest under `outRoot`, or an empty one when it is missing or unreadable. */
export async function readManifest(outRoot: string): Promise<Map<string, ManifestEntry>> {
  try {
    const data = JSON.parse(await readFile(path.join(outRoot, MANIFEST), 'utf8')) as { files?: Record<string, ManifestEntry> };
    const files = data.files && typeof data.files === 'object' ? data.files : {};
    return new Map(Object.entries(files).filter(([, e]) => e && typeof e.inputs === 'string' && typeof e.content === 'string'));
  } catch {
    return new Map();
  }
}

/** The manifest's text for these files (sorted: deterministic). */
export function renderManifest(entries: Map<string, ManifestEntry>): string {
  const files = Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify({ '//': 'GENERATED FILE: do not edit by hand. Written by `npm run generate` (generator/manifest.ts): the inputs and content hash of each generated file.', files }, null, 2)}\n`;
}
