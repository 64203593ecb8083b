/**
 * When a run reuses an output file instead of building it (`generate` in `../index.ts`): each file is
 * a job with an inputs hash; the file on disk is reused when this machine's record (`built.ts`) or
 * the committed manifest (`manifest.ts`) vouches for its bytes under the same inputs, and a text
 * formatted before is reused without running prettier when the record holds its format key.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { hash, type ManifestEntry } from './manifest.ts';
import type { LaidOut } from '../stages/layout/index.ts';

/** One output file to produce. */
export interface Job {
  file: string;
  /** Hash of everything the file is made from. */
  inputs: string;
  /** Spec files named in its header. */
  sources: string[];
  /**
   * Builds the body (without header; the job's text is header + body, formatted), or, when asked to
   * (`layOut`), the body already in prettier's layout (`LaidOut`: not formatted again).
   */
  build: (layOut: boolean) => Promise<string | LaidOut>;
  /** Whether prettier formats it (see `.prettierignore`). */
  formatted: boolean;
}

/** The prefix of the machine's record (`output/built.ts`) entries that say how a file was formatted. */
export const FORMATTED = 'formatted:';

/**
 * The text of `file` on disk when this machine's record says that it formatted a text with the same
 * `formatKey` (`stages/job-queue.ts`: prettier's version, options and the unformatted text) into
 * exactly these bytes: prettier's result without running it, as after a change to the generator
 * that leaves a file's text as it was. Undefined otherwise (no record, other bytes).
 */
export async function formattedBefore(
  file: string,
  key: string,
  built: Map<string, string>,
  outRoot: string,
): Promise<string | undefined> {
  const recorded = built.get(`${FORMATTED}${file}`);
  if (recorded === undefined || !recorded.startsWith(`${key} `)) return undefined;
  const text = await readFile(path.join(outRoot, file), 'utf8').catch(() => undefined);
  return text !== undefined && recorded === `${key} ${hash(text)}` ? text : undefined;
}

/**
 * The file on disk, when this machine built exactly these bytes for the job's inputs (`built`: its
 * own record, outside the project), or when the manifest (`prior`, empty unless reuse is allowed)
 * shows its inputs unchanged and its bytes untouched.
 */
export async function reuse(
  job: Job,
  records: { prior: Map<string, ManifestEntry>; built: Map<string, string> },
  outRoot: string,
): Promise<{ text: string; built: boolean } | undefined> {
  const entry = records.prior.get(job.file);
  const own = records.built.get(job.inputs);
  if (own === undefined && entry?.inputs !== job.inputs) return undefined;
  const text = await readFile(path.join(outRoot, job.file), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const content = hash(text);
  if (content === own) return { text, built: true };
  return entry?.inputs === job.inputs && entry.content === content ? { text, built: false } : undefined;
}
