/**
 * Inputs from local data: a `Blob` (a browser's `File`), a `Uint8Array` or an `ArrayBuffer` as a base64
 * data URI (`data:image/png;base64,...`), which the service takes instead of a public URL: as
 * `input_image` (`inference-api/reference/image_editing.mdx`: "Data URIs work as an alternative but
 * aren't recommended for production"; the service has no upload endpoint for inference inputs), and
 * in chat's `image_url`, `audio_url` and `file` (`file_data`) parts. Works in every runtime the SDK
 * runs in (`Blob`, `btoa`; no `Buffer`). The Node helper that reads a file is `fileToDataUri` in
 * `oxen-inference-sdk/node`.
 */
import { SDKError } from './errors.ts';
import { brandErrors } from './internal/brand.ts';
import { sniffContentType } from './outputs.ts';

/**
 * The largest input each place takes, in bytes of the file (its data URI is about 4/3 as long):
 * - `input_image`: 10 MB (10,000,000 bytes). The image-editing docs give no limit; this is the SDK's
 *   choice, the smallest "Max 10 MB" that per-model pages give for an input image, so that an image
 *   it lets through is not refused for its size by such a model.
 * - `audio_url`: 20 MB, and `file`: 24 MB, the limits of chat's audio and document parts
 *   (`inference-api/reference/chat_completions.mdx`; larger is a 400).
 *
 * The docs' "MB" is read as 1,000,000 bytes, the stricter reading.
 */
export const INPUT_MAX_BYTES: Readonly<{ input_image: number; audio_url: number; file: number }> = Object.freeze({
  input_image: 10_000_000,
  audio_url: 20_000_000,
  file: 24_000_000,
});

/** Options of `toDataUri` (and of `fileToDataUri` in `oxen-inference-sdk/node`). */
export interface DataUriOptions {
  /**
   * The media type of the data, e.g. `image/png`, `audio/mpeg`, `application/pdf`.
   * @default a `Blob`'s own `type` when it has one, else the type its first bytes show
   * (`sniffContentType`: PNG, JPEG, GIF, WebP, BMP, AVIF, HEIC, PDF, MP3, WAV, OGG, FLAC, MP4, ...)
   */
  contentType?: string | undefined;
  /**
   * The largest input accepted, in bytes of the data (before base64); larger is an
   * `InputTooLargeError`, raised before the data is read. Use `INPUT_MAX_BYTES.audio_url` or
   * `INPUT_MAX_BYTES.file` for chat's audio and document parts.
   * @default INPUT_MAX_BYTES.input_image (10,000,000 bytes)
   */
  maxBytes?: number | undefined;
}

/**
 * An input larger than the limit it was checked against (`maxBytes`); nothing was read or sent.
 * `sizeBytes` is its size and `limitBytes` the limit, in bytes.
 */
export class InputTooLargeError extends SDKError {
  override name = 'InputTooLargeError';
  /** The input's size, in bytes. */
  declare readonly sizeBytes: number;
  /** The limit it exceeded, in bytes. */
  declare readonly limitBytes: number;
  constructor(message: string, init: { sizeBytes: number; limitBytes: number }) {
    super(message);
    this.sizeBytes = init.sizeBytes;
    this.limitBytes = init.limitBytes;
  }
  protected override details(): Record<string, unknown> {
    return { ...super.details(), sizeBytes: this.sizeBytes, limitBytes: this.limitBytes };
  }
}

brandErrors({ InputTooLargeError });

/** A media type as a data URI carries it: `type/subtype`, no parameters. */
const MEDIA_TYPE = /^[a-z0-9][\w.+-]*\/[\w.+-]+$/i;

/**
 * The size check of `toDataUri` and `fileToDataUri`: `maxBytes` (default `INPUT_MAX_BYTES.input_image`)
 * checked, then `sizeBytes` against it. `what` names the input in the message.
 * @throws SDKError for a `maxBytes` that is not a positive number; InputTooLargeError beyond it.
 */
export function checkInputSize(sizeBytes: number, maxBytes: number | undefined, what: string): void {
  const limit = maxBytes ?? INPUT_MAX_BYTES.input_image;
  if (typeof limit !== 'number' || !(limit > 0))
    throw new SDKError(`maxBytes must be a positive number of bytes, got ${String(limit)}`);
  if (sizeBytes > limit) {
    throw new InputTooLargeError(
      `${what} is ${sizeBytes} bytes, more than the limit of ${limit} bytes (maxBytes); nothing was sent. ` +
        'Make it smaller, or pass a public URL instead of a data URI.',
      { sizeBytes, limitBytes: limit },
    );
  }
}

function isBlob(v: unknown): v is Blob {
  const b = v as Partial<Blob> | null;
  return typeof b === 'object' && b !== null && typeof b.arrayBuffer === 'function' && typeof b.size === 'number';
}

/** Base64 of `bytes`: the engine's own encoder where it has one, else `btoa` over chunks (no `Buffer`). */
function base64(bytes: Uint8Array): string {
  const native = (bytes as { toBase64?: () => string }).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return btoa(binary);
}

/**
 * Local data as a base64 data URI (`data:<contentType>;base64,<data>`), to pass as `input_image` of
 * `images.edit` (or a model's image inputs) instead of a public URL, or in a chat part (`image_url`,
 * `audio_url`, `file.file_data`). The size is checked before the data is read.
 * @example
 * const input_image = await toDataUri(fileInput.files[0]); // a browser's File
 * await client.images.edit({ model: 'flux-kontext-dev', prompt: 'make it blue', input_image });
 * @param data a `Blob` (a browser's `File`), a `Uint8Array` (a Node `Buffer` is one) or an `ArrayBuffer`.
 * @param options `contentType` (default the `Blob`'s type, else the type its bytes show) and
 * `maxBytes` (default `INPUT_MAX_BYTES.input_image`, 10,000,000 bytes).
 * @returns the data URI.
 * @throws InputTooLargeError when the data is larger than `maxBytes` (nothing read); SDKError when
 * `data` is none of the three, `contentType` is not a media type (`type/subtype`), or no
 * `contentType` is given and the bytes show none.
 */
export async function toDataUri(data: Blob | Uint8Array | ArrayBuffer, options: DataUriOptions = {}): Promise<string> {
  // Recognised by shape, not `instanceof`, so that data of another realm (an iframe, a vm context) is taken too.
  const blob = isBlob(data) ? data : undefined;
  const view = ArrayBuffer.isView(data) ? data : undefined;
  const buffer = Object.prototype.toString.call(data) === '[object ArrayBuffer]' ? (data as ArrayBuffer) : undefined;
  const size = blob?.size ?? view?.byteLength ?? buffer?.byteLength;
  if (size === undefined) throw new SDKError('toDataUri expects a Blob, a Uint8Array or an ArrayBuffer');
  checkInputSize(size, options.maxBytes, 'The input');
  const bytes = view
    ? new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
    : new Uint8Array(blob ? await blob.arrayBuffer() : buffer!);
  const blobType = typeof blob?.type === 'string' ? blob.type.split(';')[0]!.trim() : '';
  const contentType = options.contentType ?? (blobType || sniffContentType(bytes));
  if (contentType === undefined)
    throw new SDKError('toDataUri: the media type of the data is not recognised from its bytes; pass { contentType }');
  if (!MEDIA_TYPE.test(contentType))
    throw new SDKError(
      `toDataUri: contentType must be a media type such as image/png, got ${JSON.stringify(contentType)}`,
    );
  return `data:${contentType.toLowerCase()};base64,${base64(bytes)}`;
}
