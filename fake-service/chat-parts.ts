// The content parts of chat messages beyond text, image and video: `audio_url` and `file`, as the service's
// docs describe them (`inference-api/reference/chat_completions.mdx`; not in the API description 0.224.2).
// Audio: `{type: "audio_url", audio_url: {url}}`, a URL or a base64 data URL, at most 20 MB. Documents:
// `{type: "file", file: {filename?, file_data | file_url}}`, exactly one of the two, `file_data` a base64
// data URL, at most 24 MB, PDFs only, no `file_id`. Larger or otherwise unusable: 400, in the docs' error
// shape (`invalid_file_input` with the docs' text for an unsupported file type; the other texts are ours).
// The docs' "MB" is read as 1,000,000 bytes (the stricter reading). A part given by URL is never fetched
// (the server has no network), so its size is not known and it is accepted. Unknown part types pass.
import { HttpError, isObject } from './http.ts';

/** The docs' limits, in bytes of the decoded file. */
export const AUDIO_MAX_BYTES = 20_000_000;
export const FILE_MAX_BYTES = 24_000_000;
/** The file types the docs accept in a `file` part. */
const FILE_TYPES = ['application/pdf'];

/** A base64 data URL's media type and decoded size, or undefined when `url` is not one. */
export function dataUrlInfo(url: string): { mediaType: string; bytes: number } | undefined {
  const m = /^data:([^;,]*)(?:;[^;,]*)*;base64,/i.exec(url);
  if (!m) return undefined;
  let data = url.slice(m[0].length);
  if (/\s/.test(data)) data = data.replace(/\s+/g, '');
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return { mediaType: m[1]!.toLowerCase(), bytes: Math.floor((data.length * 3) / 4) - padding };
}

const invalid = (detail: string) => new HttpError(400, detail, { type: 'invalid_params' });
const unusableFile = (detail: string) => new HttpError(400, detail, { type: 'invalid_file_input' });

/** Check the `audio_url` and `file` parts of every message's content array; throws HttpError 400. */
export function checkContentParts(messages: unknown[]): void {
  messages.forEach((m, i) => {
    const content = isObject(m) ? m.content : undefined;
    if (!Array.isArray(content)) return;
    content.forEach((part: unknown, j) => {
      const at = `messages[${i}].content[${j}]`;
      if (!isObject(part)) throw invalid(`${at} must be an object`);
      if (part.type === 'audio_url') checkAudio(part.audio_url, `${at}.audio_url`);
      else if (part.type === 'file') checkFile(part.file, `${at}.file`);
    });
  });
}

function checkAudio(audio: unknown, at: string): void {
  if (!isObject(audio) || typeof audio.url !== 'string' || audio.url === '')
    throw invalid(`${at}.url is required (a URL or a base64 data URL)`);
  const data = dataUrlInfo(audio.url);
  if (data && data.bytes > AUDIO_MAX_BYTES)
    throw invalid(`${at}: the audio is ${data.bytes} bytes; audio must be 20 MB or smaller`);
}

function checkFile(file: unknown, at: string): void {
  if (!isObject(file)) throw invalid(`${at} must be an object with file_data or file_url`);
  if (file.file_id !== undefined)
    throw unusableFile(`${at}.file_id is not supported: inline the file with file_data or pass file_url`);
  const given = ['file_data', 'file_url'].filter((k) => file[k] !== undefined);
  if (given.length !== 1) throw invalid(`${at}: pass exactly one of file_data and file_url (got ${given.length})`);
  if (file.filename !== undefined && typeof file.filename !== 'string')
    throw invalid(`${at}.filename must be a string`);
  if (file.file_url !== undefined) {
    if (typeof file.file_url !== 'string' || file.file_url === '') throw invalid(`${at}.file_url must be a URL`);
    return;
  }
  const data = typeof file.file_data === 'string' ? dataUrlInfo(file.file_data) : undefined;
  if (!data) throw invalid(`${at}.file_data must be a base64 data URL (data:application/pdf;base64,...)`);
  if (!FILE_TYPES.includes(data.mediaType))
    throw unusableFile(`Unsupported file type '${data.mediaType}'. Supported file types: ${FILE_TYPES.join(', ')}.`);
  if (data.bytes > FILE_MAX_BYTES)
    throw unusableFile(`${at}: the document is ${data.bytes} bytes; a document must be 24 MB or smaller`);
}
