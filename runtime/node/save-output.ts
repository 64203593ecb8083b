/**
 * `saveOutput`: fetch an output (`fetchOutput`) and write it to a file, naming the extension
 * from its content type. Node only (also Deno and Bun, which provide `node:fs/promises`); it is
 * exported from `oxen-inference-sdk/node`. `node:fs/promises` is loaded when called, and typed
 * here by the few calls used, so that the package's declarations need no `@types/node`.
 */
import { SDKError } from '../errors.ts';
import { EXTENSION_ALIASES, extensionFor, fetchOutput, type OutputOptions, type OutputSource } from '../outputs.ts';

/** The calls of `node:fs/promises` used here. */
interface Fs {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  writeFile(path: string, data: Uint8Array, options: { flag: string }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
}

/** Options of `saveOutput`: those of `fetchOutput`, and whether an existing file may be replaced. */
export interface SaveOutputOptions extends OutputOptions {
  /** Replace a file that exists at the final path (default true). With false, an existing file is an error (`EEXIST`). */
  overwrite?: boolean | undefined;
}

/** What `saveOutput` wrote. */
export interface SavedOutput {
  /** The file written: `path` with the extension of `contentType` appended unless it already had it. */
  path: string;
  /** Number of bytes written. */
  size: number;
  /** The output's media type (see `OutputBytes.contentType`). */
  contentType: string;
}

/**
 * Fetch an output (an item with `url` or `b64_json`, or a `succeeded` outcome) and write it to a
 * file. `path` is the file name with or without its extension: the extension of the content type
 * (`.png`, `.jpg`, `.webp`, `.mp4`, `.webm`, ...; `.bin` when unknown) is appended unless `path`
 * already ends with it (`out/fox` -> `out/fox.png`; `out/fox.png` stays). Missing directories are
 * created. The file appears whole or not at all (written beside it, then renamed). The download
 * sends no client header (never the API key), is bounded by `maxResponseBytes` (default 100 MiB)
 * and `timeoutMs` (default 5 minutes), and follows redirects as `fetchOutput` does: each target
 * checked before it is fetched, a redirect from `https:` to `http:` refused.
 * @returns `{ path, size, contentType }`.
 * @throws the errors of `fetchOutput` (`OutputExpiredError` for an expired URL, `RedirectError`
 * for a refused redirect, `ResponseTooLargeError`, `TimeoutError`, ...), nothing written then;
 * SDKError for an empty `path`; the file system's errors (`EACCES`, `EEXIST` with
 * `overwrite: false`, ...).
 */
export async function saveOutput(
  output: OutputSource,
  path: string,
  options: SaveOutputOptions = {},
): Promise<SavedOutput> {
  if (typeof path !== 'string' || path === '') throw new SDKError('saveOutput: path must be a non-empty file path');
  const { bytes, contentType } = await fetchOutput(output, options);
  const ext = extensionFor(contentType);
  const lower = path.toLowerCase();
  const final = [ext, ...(EXTENSION_ALIASES[ext] ?? [])].some((e) => lower.endsWith(e)) ? path : path + ext;
  const fs = (await import('node:fs/promises')) as Fs;
  const slash = Math.max(final.lastIndexOf('/'), final.lastIndexOf('\\'));
  if (slash > 0) await fs.mkdir(final.slice(0, slash), { recursive: true });
  if (options.overwrite === false) {
    await fs.writeFile(final, bytes, { flag: 'wx' });
  } else {
    const temporary = `${final}.${Math.random().toString(36).slice(2)}.part`;
    try {
      await fs.writeFile(temporary, bytes, { flag: 'wx' });
      await fs.rename(temporary, final);
    } catch (err) {
      await fs.rm(temporary, { force: true }).catch(() => undefined);
      throw err;
    }
  }
  return { path: final, size: bytes.byteLength, contentType };
}
