/** Schema drift: reading a snapshot directory (`models.json` and `models/<id>.json`) from disk. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Snapshot } from './types.ts';
import { SpecError } from '../errors.ts';
import { specFile } from '../stages/name.ts';

/**
 * Read a snapshot directory: `<dir>/models.json` (a JSON array of ids) and `<dir>/models/<id>.json`
 * for each listed id (other files are ignored; `openapi.yaml` is not needed).
 * @param label how the directory is named in messages (default: the path as given).
 * @throws SpecError when a file is missing, is not JSON, or the list is not an array of strings.
 */
export async function readSnapshot(dir: string, label = dir): Promise<Snapshot> {
  const listFile = `${label}/models.json`;
  const read = async (file: string, shown: string, model?: string): Promise<unknown> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new SpecError(
        shown,
        model,
        '',
        `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new SpecError(shown, model, '', `malformed JSON: ${(err as Error).message}`);
    }
  };
  const ids = await read(path.join(dir, 'models.json'), listFile);
  if (
    !Array.isArray(ids) ||
    !ids.every((i): i is string => typeof i === 'string' && i !== '' && !/[/\\]/.test(i) && i !== '.' && i !== '..')
  ) {
    throw new SpecError(
      listFile,
      undefined,
      '',
      'expected a JSON array of model ids (non-empty strings without slashes)',
    );
  }
  const models = new Map<string, unknown>();
  await Promise.all(
    ids.map(async (id) => models.set(id, await read(path.join(dir, specFile(id)), `${label}/${specFile(id)}`, id))),
  );
  return { label, ids, models };
}
