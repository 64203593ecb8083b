/**
 * Outputs: fetch a generated image or video (an item with `url` or `b64_json`, or a `succeeded`
 * outcome) into bytes with its content type, in any runtime (`fetch`, `atob`, `Blob`). An output
 * URL is a presigned link on another host: it is fetched with a plain `fetch`, with no header of
 * the client (never the API key), no cookies and no referrer. Redirects are followed by the SDK,
 * hop by hop, and each target is checked first (see `fetchOutput`). The Node file writer is
 * `saveOutput` in `oxen-inference-sdk/node`.
 */
import { APIError, SDKError, truncate } from './errors.ts';
import { RedirectError, ResponseTooLargeError } from './error-classes.ts';
import { brandErrors } from './internal/brand.ts';
import { failure } from './internal/http.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, isLoopbackHost } from './options.ts';
import { CallScope } from './scope.ts';
import { readLimited } from './internal/read-limited.ts';

/**
 * What `fetchOutput` takes: an image or video item (`{ url }` or `{ b64_json }`, as `images`,
 * `videos` and the queue return them), or a `succeeded` outcome of `queue.run` / `queue.follow`
 * (its `url`).
 */
export type OutputSource = { readonly url: string } | { readonly b64_json: string };

/**
 * Options of `fetchOutput`. Sizes in bytes, times in milliseconds.
 *
 * @example
 * const { bytes, extension } = await fetchOutput(image, { timeoutMs: 60_000, maxResponseBytes: 20_000_000 });
 */
export interface OutputOptions {
  /**
   * The largest output read; beyond it `ResponseTooLargeError`.
   *
   * @default 104_857_600 (100 MiB, the client's default `maxResponseBytes`)
   * @unit bytes
   */
  maxResponseBytes?: number | undefined;
  /**
   * Ends the download (connection and body) with `TimeoutError` after this long.
   *
   * @default 300_000 (5 minutes)
   * @unit milliseconds
   */
  timeoutMs?: number | undefined;
  /**
   * Ends the download with `AbortError`.
   *
   * @default none
   */
  signal?: AbortSignal | undefined;
  /**
   * The `fetch` to use. It is given the URL and no client header.
   *
   * @default the global `fetch`
   */
  fetch?: typeof fetch | undefined;
}

/** An output's bytes. */
export interface OutputBytes {
  bytes: Uint8Array;
  /**
   * The media type (`image/png`, `video/mp4`, ...): the output host's `Content-Type`, or, when it
   * sends none or a generic one (`application/octet-stream`), and for `b64_json`, recognised from
   * the bytes (PNG, JPEG, GIF, WebP, AVIF, HEIC, MP4, QuickTime, WebM); `application/octet-stream`
   * when unknown.
   */
  contentType: string;
  /** The file extension of `contentType`, with its dot (`.png`, `.mp4`; `.bin` when unknown). */
  extension: string;
}

/** Default `timeoutMs` of `fetchOutput`: 5 minutes. */
export const OUTPUT_DEFAULT_TIMEOUT_MS = 300_000;

/** The most redirects `fetchOutput` follows for one output (the `fetch` standard allows 20). */
export const OUTPUT_MAX_REDIRECTS = 10;

/** The statuses that redirect a GET (with a `Location`). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The output host answered 403, 404 or 410: output URLs are presigned links that expire some time after the generation
 * (the service does not say how long). Fetch outputs when they arrive, or generate again. The message names the host
 * and path, never the query (which holds the signature).
 */
export class OutputExpiredError extends APIError {
  override name = 'OutputExpiredError';
}
// `instanceof` across the ES module and CommonJS copies of the package (`internal/brand.ts`).
brandErrors({ OutputExpiredError });

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/jpg': '.jpg',
  'image/webp': '.webp',
  'image/gif': '.gif',
  'image/avif': '.avif',
  'image/heic': '.heic',
  'image/heif': '.heif',
  'image/bmp': '.bmp',
  'image/tiff': '.tiff',
  'image/svg+xml': '.svg',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'video/quicktime': '.mov',
  'video/x-matroska': '.mkv',
  'video/mpeg': '.mpeg',
  'audio/mpeg': '.mp3',
  'audio/wav': '.wav',
  'audio/x-wav': '.wav',
  'audio/ogg': '.ogg',
  'audio/flac': '.flac',
  'audio/mp4': '.m4a',
  'audio/aac': '.aac',
  'application/pdf': '.pdf',
  'application/octet-stream': '.bin',
};

/** Extensions that name the same media type as the one `extensionFor` gives. */
export const EXTENSION_ALIASES: Readonly<Record<string, readonly string[]>> = {
  '.jpg': ['.jpeg', '.jpe'],
  '.tiff': ['.tif'],
  '.mpeg': ['.mpg'],
  '.heic': ['.heif'],
};

/** The file extension (with its dot) of a media type: `image/png` -> `.png`, `video/mp4` -> `.mp4`; `.bin` when unknown. */
export function extensionFor(contentType: string): string {
  return EXTENSIONS[mediaType(contentType)] ?? '.bin';
}

/**
 * The media type that a file name's extension names (`photo.JPG` -> `image/jpeg`, `doc.pdf` ->
 * `application/pdf`), from the table of `extensionFor`; undefined when unknown.
 */
export function contentTypeOfName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0 || /[\\/]/.test(name.slice(dot))) return undefined;
  let ext = name.slice(dot).toLowerCase();
  for (const [canonical, aliases] of Object.entries(EXTENSION_ALIASES)) if (aliases.includes(ext)) ext = canonical;
  for (const [type, e] of Object.entries(EXTENSIONS)) if (e === ext && e !== '.bin') return type;
  return undefined;
}

/** The media type of a `Content-Type` value, lower case, without parameters. */
function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** The media type recognised from the first bytes, or undefined. */
export function sniffContentType(bytes: Uint8Array): string | undefined {
  const at = (i: number, s: string) => [...s].every((c, k) => bytes[i + k] === c.charCodeAt(0));
  if (bytes[0] === 0x89 && at(1, 'PNG')) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (at(0, 'GIF8')) return 'image/gif';
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'image/webp';
  if (at(0, 'RIFF') && at(8, 'WAVE')) return 'audio/wav';
  if (at(0, 'BM') && bytes.length > 14 && bytes[6] === 0 && bytes[7] === 0 && bytes[8] === 0 && bytes[9] === 0)
    return 'image/bmp';
  if (at(0, '%PDF-')) return 'application/pdf';
  if (at(0, 'ID3') || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe6) === 0xe2)) return 'audio/mpeg';
  if (at(0, 'OggS')) return 'audio/ogg';
  if (at(0, 'fLaC')) return 'audio/flac';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'video/webm';
  if (at(4, 'ftyp')) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
    if (brand === 'qt  ') return 'video/quicktime';
    if (brand === 'M4A ') return 'audio/mp4';
    return 'video/mp4';
  }
  return undefined;
}

const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/binary']);

/**
 * Fetch an output into bytes with its content type: decodes a `b64_json` item, or downloads a
 * `url` (an item's or a `succeeded` outcome's) with a plain `fetch` that sends no client header
 * (never the API key), no cookies (`credentials: 'omit'`) and no referrer.
 *
 * Redirects (301, 302, 303, 307, 308) are followed, at most `OUTPUT_MAX_REDIRECTS` (10), to any
 * host, each target checked before it is fetched: it must be `https:`, or `http:` to a loopback
 * host when every URL before it was `http:` too. A redirect from `https:` to `http:` (an
 * unencrypted, alterable download) is refused, whatever the host. In a browser, where `fetch`
 * hides redirects, the browser follows them and the final URL is checked instead (an `https:`
 * page blocks an `http:` download anyway).
 *
 * The body is read up to `maxResponseBytes`; `timeoutMs` covers every hop and the body.
 * @returns `{ bytes, contentType, extension }`.
 * @throws SDKError for an outcome that did not succeed, or a URL that is not `https:` (`http:` only
 * to a loopback host); `RedirectError` for a redirect refused as above, one without a `Location`,
 * or more than `OUTPUT_MAX_REDIRECTS` of them; `OutputExpiredError` (403, 404, 410 from the
 * output host: output URLs expire); `APIError` for another error status; `ResponseTooLargeError`
 * beyond `maxResponseBytes`; `TimeoutError`, `AbortError`, `ConnectionError`.
 */
export async function fetchOutput(output: OutputSource, options: OutputOptions = {}): Promise<OutputBytes> {
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const o = output as { url?: unknown; b64_json?: unknown; status?: unknown; generation_id?: unknown };
  if (o === null || typeof o !== 'object')
    throw new SDKError('fetchOutput expects an output item ({ url } or { b64_json }) or a succeeded outcome');
  if (o.status !== undefined && o.status !== 'succeeded') {
    throw new SDKError(
      `fetchOutput: generation ${String(o.generation_id)} has status ${JSON.stringify(o.status)}, so there is no output to fetch (only a succeeded outcome has a url)`,
    );
  }
  if (typeof o.b64_json === 'string') return decodeOutput(o.b64_json, limit);
  if (typeof o.url !== 'string' || o.url === '')
    throw new SDKError('fetchOutput: the output has neither a url string nor a b64_json string');
  return downloadOutput(o.url, limit, options);
}

/**
 * `fetchOutput` as a `Blob` typed with the content type (for a browser: `URL.createObjectURL`,
 * an `<img>`, a download link). Same options and errors.
 */
export async function fetchOutputBlob(output: OutputSource, options: OutputOptions = {}): Promise<Blob> {
  const { bytes, contentType } = await fetchOutput(output, options);
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: contentType });
}

function decodeOutput(b64: string, limit: number): OutputBytes {
  const text = b64.replace(/\s+/g, '');
  const size = Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
  const request = { method: 'GET', path: '(b64_json)' };
  if (size > limit)
    throw new ResponseTooLargeError(
      `The b64_json output is ${size} bytes, larger than maxResponseBytes (${limit} bytes)`,
      { request, limitBytes: limit },
    );
  let binary: string;
  try {
    binary = atob(text);
  } catch (err) {
    throw new SDKError('The b64_json output is not valid base64', { cause: err });
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const contentType = sniffContentType(bytes) ?? 'application/octet-stream';
  return { bytes, contentType, extension: extensionFor(contentType) };
}

/** A URL as messages show it: never the query, which holds the presigned URL's signature. */
const shownUrl = (url: URL): string => `${url.protocol}//${url.host}${truncate(url.pathname, 300)}`;

/** Whether `url` may be fetched: `https:`, or `http:` to a loopback host when `plainAllowed` (no `https:` URL came before it). */
const allowed = (url: URL, plainAllowed: boolean): boolean =>
  url.protocol === 'https:' || (plainAllowed && url.protocol === 'http:' && isLoopbackHost(url.hostname));

/**
 * Where the redirect `res` (the answer to `from`, the `hops`-th redirect) leads, checked: `https:`,
 * or `http:` to a loopback host from an `http:` URL (never from `https:` to `http:`).
 * @throws RedirectError for a redirect without a usable `Location`, to a URL refused as above, or
 * beyond `OUTPUT_MAX_REDIRECTS`.
 */
function targetOf(
  res: Response,
  from: URL,
  hops: number,
  shown: string,
  request: { method: string; path: string },
): URL {
  const location = res.headers.get('location');
  let next: URL | undefined;
  try {
    next = location === null ? undefined : new URL(location, from);
  } catch {
    /* not a URL: refused below */
  }
  const why =
    next === undefined
      ? `answered ${res.status} without a usable Location`
      : !allowed(next, from.protocol === 'http:')
        ? `redirected to ${shownUrl(next)}: ${from.protocol === 'https:' ? 'a redirect from https: to http: is refused' : 'an output URL must be https: (http: only to a loopback host)'}`
        : hops > OUTPUT_MAX_REDIRECTS
          ? `redirected more than ${OUTPUT_MAX_REDIRECTS} times`
          : undefined;
  if (why === undefined) return next!;
  throw new RedirectError(`The output at ${shown} ${why}`, {
    status: res.status,
    headers: res.headers,
    request,
    location: next && shownUrl(next),
  });
}

async function downloadOutput(raw: string, limit: number, options: OutputOptions): Promise<OutputBytes> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SDKError(`fetchOutput: ${JSON.stringify(truncate(raw, 200))} is not an absolute URL`);
  }
  const shown = shownUrl(url);
  if (!allowed(url, true)) {
    throw new SDKError(`fetchOutput: ${shown} must be an https: URL (http: only to a loopback host)`);
  }
  const request = { method: 'GET', path: url.pathname };
  const scope = new CallScope(options.signal, options.timeoutMs ?? OUTPUT_DEFAULT_TIMEOUT_MS);
  const why = { timedOut: scope.timedOut, userSignal: options.signal };
  // No headers: nothing of the client (its key, its custom headers) goes to the output host.
  const get = (at: URL, redirect: RequestRedirect) =>
    (options.fetch ?? fetch)(at.href, {
      method: 'GET',
      signal: scope.signal,
      redirect,
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
  try {
    let res: Response;
    try {
      res = await get(url, 'manual');
      for (let hops = 1; REDIRECTS.has(res.status); hops++) {
        void res.body?.cancel().catch(() => undefined);
        const next = targetOf(res, url, hops, shown, request);
        url = next;
        res = await get(url, 'manual');
      }
      if (res.type === 'opaqueredirect') {
        // A browser: it hides a redirect's target, so it follows redirects itself; the final URL is checked.
        res = await get(url, 'follow');
        const final = new URL(res.url || url.href);
        if (!allowed(final, url.protocol === 'http:')) {
          void res.body?.cancel().catch(() => undefined);
          throw new RedirectError(
            `The output at ${shown} redirected to ${shownUrl(final)}: a redirect from https: to http: is refused`,
            { status: res.status, headers: res.headers, request, location: shownUrl(final) },
          );
        }
      }
    } catch (err) {
      throw await failure(err, request, why, 'request');
    }
    if (!res.ok) {
      void res.body?.cancel().catch(() => undefined);
      const init = { status: res.status, headers: res.headers, request };
      if (res.status === 403 || res.status === 404 || res.status === 410) {
        throw new OutputExpiredError(
          `The output at ${shown} answered ${res.status}: output URLs are presigned links that expire some time after the generation; download outputs when they arrive, or generate again`,
          init,
        );
      }
      throw new APIError(`The output at ${shown} answered ${res.status}`, init);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readBytes(res, limit, request, shown);
    } catch (err) {
      throw await failure(err, request, why, 'body');
    }
    const declared = mediaType(res.headers.get('content-type') ?? '');
    const contentType = GENERIC.has(declared) ? (sniffContentType(bytes) ?? 'application/octet-stream') : declared;
    return { bytes, contentType, extension: extensionFor(contentType) };
  } finally {
    scope.dispose();
  }
}

/** Read a body as bytes, at most `limit`: beyond it stop (releasing the connection) and throw `ResponseTooLargeError`. */
async function readBytes(
  res: Response,
  limit: number,
  request: { method: string; path: string },
  shown: string,
): Promise<Uint8Array> {
  const tooLarge = () =>
    new ResponseTooLargeError(
      `The output at ${shown} is larger than maxResponseBytes (${limit} bytes); the SDK stopped reading it`,
      { status: res.status, headers: res.headers, request, limitBytes: limit },
    );
  const declared = Number(res.headers.get('content-length') ?? NaN);
  const encoded = (res.headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity';
  const body = res.body;
  if (!encoded && Number.isFinite(declared) && declared > limit) {
    void body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const { bytes } = await readLimited(body, limit);
  if (!bytes) throw tooLarge();
  return bytes;
}
