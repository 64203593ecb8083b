// The docs' audio and document content parts (inference-api/reference/chat_completions.mdx): sent typed by the
// SDK's client (directly and through createProxyHandler), made from local bytes with toDataUri, and refused by
// the local server as the docs say: audio over 20 MB and documents over 24 MB, a type other than PDF, a file
// part with both or neither of file_data and file_url, each a 400 in the docs' error shape.
import { describe, expect, it } from 'vitest';
import { AUDIO_MAX_BYTES, dataUrlInfo, FILE_MAX_BYTES } from '../../fake-service/chat-parts.ts';
import {
  BadRequestError,
  Client,
  INPUT_MAX_BYTES,
  toDataUri,
  type APIError,
  type ChatContentPart,
  type ChatFileData,
  type ChatMessage,
} from '../../index.ts';
import { rejectionOf } from '../runtime/helpers.ts';
import { useTargets } from './helpers.ts';

const { targets } = useTargets();
const MODEL = 'gpt-4o-mini';
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const MP3 = new Uint8Array([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64]);

const clientOf = (name: 'direct' | 'proxy') => {
  const t = targets.find((x) => x.name === name)!;
  return new Client({ baseUrl: t.sdkBaseUrl, ...(name === 'direct' ? { apiKey: t.apiKey } : {}), maxRetries: 0 });
};

/** A base64 data URL of `bytes` zero bytes, built without allocating them. */
function dataUrlOfSize(mediaType: string, bytes: number): string {
  const tail = ['', 'AA==', 'AAA='][bytes % 3]!;
  return `data:${mediaType};base64,${'A'.repeat(4 * Math.floor(bytes / 3))}${tail}`;
}

const ask = (part: ChatContentPart): ChatMessage[] => [
  { role: 'user', content: [part, { type: 'text', text: 'what is in it?' }] },
];

describe.each(['direct', 'proxy'] as const)('the SDK client %s', (name) => {
  it('sends audio_url and file parts (data URLs made with toDataUri, and URLs), typed, and gets the answer', async () => {
    const audio = await toDataUri(MP3, { maxBytes: INPUT_MAX_BYTES.audio_url });
    const document = await toDataUri(new Blob([PDF]), { maxBytes: INPUT_MAX_BYTES.file });
    expect(audio.startsWith('data:audio/mpeg;base64,')).toBe(true);
    expect(document.startsWith('data:application/pdf;base64,')).toBe(true);
    const res = await clientOf(name).chat.completions.create({
      model: MODEL,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'audio_url', audio_url: { url: audio } },
            { type: 'audio_url', audio_url: { url: 'https://cdn.example/clip.m4a' } },
            { type: 'file', file: { filename: 'report.pdf', file_data: document } },
            { type: 'file', file: { file_url: 'https://arxiv.org/pdf/1706.03762' } },
            { type: 'text', text: 'summarize these' },
          ],
        },
      ],
    });
    expect(res.choices[0]!.message.content).toBe('Echo: summarize these');
  });
});

describe('the limits and rules of the parts (local server, direct)', () => {
  it('the SDK and the local server hold the docs limits alike: audio 20 MB, documents 24 MB', () => {
    expect(INPUT_MAX_BYTES.audio_url).toBe(AUDIO_MAX_BYTES);
    expect(INPUT_MAX_BYTES.file).toBe(FILE_MAX_BYTES);
  });

  it('the local server sizes a data URL by its decoded bytes (the limit is on the file, not its base64)', () => {
    for (const n of [0, 1, 2, 3, 4, INPUT_MAX_BYTES.audio_url, INPUT_MAX_BYTES.audio_url + 1])
      expect(dataUrlInfo(dataUrlOfSize('audio/mp3', n))).toEqual({ mediaType: 'audio/mp3', bytes: n });
  });

  it('audio one byte over 20 MB is a 400 (BadRequestError naming the limit)', async () => {
    const client = clientOf('direct');
    const big = dataUrlOfSize('audio/mp3', INPUT_MAX_BYTES.audio_url + 1);
    const err = (await rejectionOf(
      client.chat.completions.create({ model: MODEL, messages: ask({ type: 'audio_url', audio_url: { url: big } }) }),
    )) as APIError;
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.type).toBe('invalid_params');
    expect(err.message).toBe(
      'messages[0].content[0].audio_url: the audio is 20000001 bytes; audio must be 20 MB or smaller',
    );
  });

  it('a document over 24 MB, or of another type than PDF, is a 400 with the invalid_file_input type', async () => {
    const client = clientOf('direct');
    const big = dataUrlOfSize('application/pdf', INPUT_MAX_BYTES.file + 1);
    const tooBig = (await rejectionOf(
      client.chat.completions.create({ model: MODEL, messages: ask({ type: 'file', file: { file_data: big } }) }),
    )) as APIError;
    expect(tooBig).toBeInstanceOf(BadRequestError);
    expect(tooBig.type).toBe('invalid_file_input');
    expect(tooBig.message).toContain('24 MB or smaller');
    const tiff = dataUrlOfSize('image/tiff', 30);
    const wrongType = (await rejectionOf(
      client.chat.completions.create({ model: MODEL, messages: ask({ type: 'file', file: { file_data: tiff } }) }),
    )) as APIError;
    expect(wrongType.type).toBe('invalid_file_input');
    expect(wrongType.title).toBe('The provided file could not be used.');
    expect(wrongType.message).toBe("Unsupported file type 'image/tiff'. Supported file types: application/pdf.");
  });

  it('on the wire (the types refuse them), a file part with both or neither of file_data and file_url is a 400', async () => {
    const untyped = clientOf('direct').untyped;
    // A JavaScript caller (no types) can send them: cast here to do the same.
    const send = (file: Record<string, unknown>) =>
      rejectionOf(
        untyped.chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: [{ type: 'file', file: file as unknown as ChatFileData }] }],
        }),
      );
    const data = await toDataUri(PDF, { maxBytes: INPUT_MAX_BYTES.file });
    const both = (await send({ file_data: data, file_url: 'https://x.example/a.pdf' })) as APIError;
    const neither = (await send({ filename: 'a.pdf' })) as APIError;
    for (const [err, given] of [
      [both, 2],
      [neither, 0],
    ] as const) {
      expect(err).toBeInstanceOf(BadRequestError);
      expect(err.message).toBe(
        `messages[0].content[0].file: pass exactly one of file_data and file_url (got ${given})`,
      );
    }
  });
});
