/**
 * `fileToDataUri`: a local file as a base64 data URI (`toDataUri` of `runtime/inputs.ts` over the
 * file's bytes). Node only (also Deno and Bun, which provide `node:fs/promises`); exported from
 * `oxen-inference-sdk/node`. `node:fs/promises` is loaded when called, and typed here by the few
 * calls used, so that the package's declarations need no `@types/node`.
 */
import { SDKError } from '../errors.ts';
import { checkInputSize, toDataUri, type DataUriOptions } from '../inputs.ts';
import { contentTypeOfName, sniffContentType } from '../outputs.ts';

/** The calls of `node:fs/promises` used here. */
interface Fs {
  open(
    path: string,
    flags: string,
  ): Promise<{
    stat(): Promise<{ size: number; isFile(): boolean }>;
    readFile(): Promise<Uint8Array>;
    close(): Promise<void>;
  }>;
}

/**
 * A local file as a base64 data URI (`data:image/png;base64,...`), to pass as `input_image` of
 * `images.edit` (or a model's image inputs) instead of a public URL, or in a chat part. The size is
 * checked before the file is read, and again on what was read.
 * @example
 * import { fileToDataUri } from 'oxen-inference-sdk/node';
 * const input_image = await fileToDataUri('photos/fox.png');
 * await client.images.edit({ model: 'flux-kontext-dev', prompt: 'make it blue', input_image });
 * @param path the file's path.
 * @param options `contentType` (default: the type the file's first bytes show, `sniffContentType`,
 * else the type its extension names, `.png`, `.jpg`, `.webp`, `.pdf`, `.mp3`, ...) and `maxBytes`
 * (default `INPUT_MAX_BYTES.input_image`, 10,000,000 bytes; `INPUT_MAX_BYTES.audio_url` or
 * `INPUT_MAX_BYTES.file` for chat's audio and document parts).
 * @returns the data URI.
 * @throws InputTooLargeError when the file is larger than `maxBytes` (not read); SDKError when `path`
 * is empty or not a regular file, or neither the bytes nor the extension show a media type and no
 * `contentType` is given; the file system's errors (`ENOENT`, `EACCES`, ...).
 */
export async function fileToDataUri(path: string, options: DataUriOptions = {}): Promise<string> {
  if (typeof path !== 'string' || path === '') throw new SDKError('fileToDataUri: path must be a non-empty file path');
  const fs = (await import('node:fs/promises')) as Fs;
  const file = await fs.open(path, 'r');
  let bytes: Uint8Array;
  try {
    const stat = await file.stat();
    if (!stat.isFile()) throw new SDKError(`fileToDataUri: ${path} is not a regular file`);
    checkInputSize(stat.size, options.maxBytes, `The file ${path}`);
    bytes = await file.readFile();
  } finally {
    await file.close();
  }
  checkInputSize(bytes.byteLength, options.maxBytes, `The file ${path}`); // it may have grown since stat
  const contentType = options.contentType ?? sniffContentType(bytes) ?? contentTypeOfName(path);
  if (contentType === undefined)
    throw new SDKError(
      `fileToDataUri: the media type of ${path} is shown neither by its bytes nor by its extension; pass { contentType }`,
    );
  return toDataUri(bytes, { ...options, contentType });
}
