// Local data as `input_image` data URIs: toDataUri (Blob, Uint8Array, ArrayBuffer; any runtime, no Buffer) and
// fileToDataUri (oxen-inference-sdk/node, a file's bytes, their type from the bytes or the extension), the
// size checked before anything is read, and the URI sent through images.edit to the local server, which takes
// an image data URI as input_image and refuses another one.
import { build } from 'esbuild';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  INPUT_MAX_BYTES,
  InputTooLargeError,
  SDKError,
  toDataUri,
  type APIError,
} from '../../index.ts';
import { fileToDataUri } from '../../runtime/node/index.ts';
import { REPO_ROOT, tempDir } from '../support/index.ts';
import { rejectionOf, useServers } from './helpers.ts';

const setup = useServers();
const work = tempDir('inference-sdk-inputs-');
afterAll(() => work.remove());

/** A 1x1 PNG. */
const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);
const PNG_URI = `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`;

/** Write `bytes` to `name` in the temporary directory; its path. */
function file(name: string, bytes: Uint8Array | string): string {
  const p = path.join(work.dir, name);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, bytes);
  return p;
}

describe('toDataUri', () => {
  it('a Uint8Array, an ArrayBuffer and a Blob become the same data URI; the type from the bytes, else the Blob', async () => {
    expect(await toDataUri(PNG)).toBe(PNG_URI);
    expect(await toDataUri(PNG.slice().buffer)).toBe(PNG_URI);
    expect(await toDataUri(new Blob([PNG]))).toBe(PNG_URI);
    // A Blob's own type (without its parameters) is used as given; contentType wins over both.
    expect(await toDataUri(new Blob([PNG], { type: 'image/x-custom; q=1' }))).toMatch(/^data:image\/x-custom;base64,/);
    expect(await toDataUri(PNG, { contentType: 'image/webp' })).toMatch(/^data:image\/webp;base64,iVBOR/);
    // A view into part of a larger buffer encodes only its own bytes.
    const padded = new Uint8Array(PNG.length + 8);
    padded.set(PNG, 4);
    expect(await toDataUri(padded.subarray(4, 4 + PNG.length))).toBe(PNG_URI);
  });

  it('encodes any bytes as Node does (chunk boundaries, every byte value)', async () => {
    const bytes = new Uint8Array(100_003);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    expect(await toDataUri(bytes, { contentType: 'application/octet-stream' })).toBe(
      `data:application/octet-stream;base64,${Buffer.from(bytes).toString('base64')}`,
    );
  });

  it('beyond maxBytes (default 10,000,000 bytes) throws InputTooLargeError before reading anything', async () => {
    expect(INPUT_MAX_BYTES.input_image).toBe(10_000_000);
    let read = false;
    const huge = {
      size: 10_000_001,
      type: 'image/png',
      arrayBuffer: () => {
        read = true;
        return Promise.resolve(new ArrayBuffer(0));
      },
    } as unknown as Blob;
    const err = await rejectionOf(toDataUri(huge));
    expect(err).toBeInstanceOf(InputTooLargeError);
    expect(err).toBeInstanceOf(SDKError);
    expect(read).toBe(false);
    expect(err.message).toBe(
      'The input is 10000001 bytes, more than the limit of 10000000 bytes (maxBytes); nothing was sent. Make it smaller, or pass a public URL instead of a data URI.',
    );
    expect((err as InputTooLargeError).toJSON()).toMatchObject({ sizeBytes: 10_000_001, limitBytes: 10_000_000 });
    // At the limit it passes; maxBytes raises (or lowers) it.
    expect(await toDataUri(new Uint8Array(10_000_000), { contentType: 'image/png' })).toHaveLength(
      'data:image/png;base64,'.length + 13_333_336,
    );
    await expect(toDataUri(PNG, { maxBytes: PNG.length - 1 })).rejects.toThrow(InputTooLargeError);
    await expect(toDataUri(PNG, { maxBytes: 0 })).rejects.toThrow(/maxBytes must be a positive number/);
  });

  it('says what is wrong with a type it cannot tell or a contentType that is not a media type', async () => {
    await expect(toDataUri(new Uint8Array([1, 2, 3]))).rejects.toThrow(
      /not recognised from its bytes; pass \{ contentType \}/,
    );
    await expect(toDataUri(PNG, { contentType: 'image/png,evil' })).rejects.toThrow(/must be a media type/);
    await expect(toDataUri('not bytes' as unknown as Uint8Array)).rejects.toThrow(
      /expects a Blob, a Uint8Array or an ArrayBuffer/,
    );
  });

  it('runs as a browser page runs it: bundled for the browser, no Buffer, in a context of a page', async () => {
    const out = await build({
      stdin: { contents: "export { toDataUri } from './runtime/inputs.ts';", resolveDir: REPO_ROOT, loader: 'ts' },
      bundle: true,
      format: 'iife',
      globalName: 'SDK',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const bundle = out.outputFiles[0]!.text;
    expect(bundle).not.toMatch(/\bBuffer\b/);
    const context = vm.createContext({ Blob, btoa, TextEncoder, console });
    vm.runInContext(bundle, context);
    // The engine's own encoder, where newer engines have one, is set aside: `btoa` over chunks is the path tested.
    vm.runInContext('delete Uint8Array.prototype.toBase64', context);
    expect(vm.runInContext('typeof Buffer', context)).toBe('undefined');
    context.png = Array.from(PNG);
    const fromBytes = (await vm.runInContext('SDK.toDataUri(new Uint8Array(png))', context)) as string;
    const fromBlob = (await vm.runInContext('SDK.toDataUri(new Blob([new Uint8Array(png)]))', context)) as string;
    expect([fromBytes, fromBlob]).toEqual([PNG_URI, PNG_URI]);
  });
});

describe('fileToDataUri (oxen-inference-sdk/node)', () => {
  it('reads a file; its type from the bytes, else from the extension, else contentType', async () => {
    expect(await fileToDataUri(file('fox.bin', PNG))).toBe(PNG_URI); // the bytes win over the name
    expect(await fileToDataUri(file('photo.JPEG', 'not really a jpeg'))).toMatch(/^data:image\/jpeg;base64,/);
    expect(await fileToDataUri(file('doc.pdf', 'x'), { maxBytes: INPUT_MAX_BYTES.file })).toMatch(
      /^data:application\/pdf;base64,/,
    );
    const unknown = file('notes.xyz', 'hello');
    await expect(fileToDataUri(unknown)).rejects.toThrow(/neither by its bytes nor by its extension/);
    expect(await fileToDataUri(unknown, { contentType: 'text/plain' })).toBe(
      `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`,
    );
  });

  it('a file larger than maxBytes is refused from its size; a directory, an empty path and a missing file are errors', async () => {
    const big = file('big.png', PNG);
    truncateSync(big, INPUT_MAX_BYTES.input_image + 1); // sparse: nothing of it is written or read
    const err = await rejectionOf(fileToDataUri(big));
    expect(err).toBeInstanceOf(InputTooLargeError);
    expect((err as InputTooLargeError).sizeBytes).toBe(10_000_001);
    expect(err.message).toContain(`The file ${big} is 10000001 bytes`);
    await expect(fileToDataUri(work.dir)).rejects.toThrow(/is not a regular file/);
    await expect(fileToDataUri('')).rejects.toThrow(/non-empty file path/);
    await expect(fileToDataUri(path.join(work.dir, 'missing.png'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('a data URI as input_image of images.edit (local server)', () => {
  it('a file and a Blob sent as data URIs are accepted; a data URI that is not an image is a 400', async () => {
    const { client } = await setup();
    for (const input_image of [await fileToDataUri(file('in.png', PNG)), await toDataUri(new Blob([PNG]))]) {
      const res = await client.images.edit({ model: 'flux-kontext-dev', prompt: 'make it blue', input_image });
      expect(res.images).toHaveLength(1);
    }
    const text = await toDataUri(new TextEncoder().encode('hello'), { contentType: 'text/plain' });
    const err = (await rejectionOf(
      client.images.edit({ model: 'flux-kontext-dev', prompt: 'x', input_image: text }),
    )) as APIError;
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.message).toBe('input_image: a data URI must be data:image/<type>;base64,<data>');
  });
});
