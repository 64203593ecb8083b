// Saving outputs: fetchOutput / fetchOutputBlob (browser-safe) and saveOutput (Node), over the
// local server's output files: the bytes and content type, the extension, the size bound, no
// client header sent to the output host, the error of an expired URL, and redirects (followed hop by
// hop, each target checked first: never from https to http, over a local https server).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { saveOutput } from '../../runtime/node/index.ts';
import {
  OUTPUT_MAX_REDIRECTS,
  OutputExpiredError,
  RedirectError,
  ResponseTooLargeError,
  SDKError,
  extensionFor,
  fetchOutput,
  fetchOutputBlob,
} from '../../index.ts';
import { FILE_BYTES } from '../../fake-service/state.ts';
import { run, tempDir, tsxArgs } from '../support/index.ts';
import { rejectionOf, useServers } from './helpers.ts';

const setup = useServers();
const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
function outputDir(): string {
  const d = tempDir('oxen-outputs-');
  dirs.push(d);
  return d.dir;
}
const portOf = (s: http.Server): number => (s.address() as AddressInfo).port;
const script = fileURLToPath(new URL('./fixtures/save-output.ts', import.meta.url));

describe('saveOutput', () => {
  it('writes an image and a video with the right bytes and extension, sending no client header to the output host', async () => {
    const { client, server } = await setup({}, { headers: { 'x-oxen-token': 'custom-secret' } });
    const dir = outputDir();
    const { images } = await client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' });
    const image = await saveOutput(images[0]!, path.join(dir, 'fox'));
    expect(image).toEqual({ path: path.join(dir, 'fox.png'), size: FILE_BYTES.image.length, contentType: 'image/png' });
    expect(readFileSync(image.path).equals(FILE_BYTES.image)).toBe(true);

    const [outcome] = await client.queue.run({ model: 'google-veo-3-1', prompt: 'waves', duration: 4 });
    if (outcome?.status !== 'succeeded') throw new Error(`expected succeeded, got ${outcome?.status}`);
    const video = await saveOutput(outcome, path.join(dir, 'nested', 'waves.mp4'));
    expect(video.path).toBe(path.join(dir, 'nested', 'waves.mp4')); // already the right extension: kept
    expect(video.contentType).toBe('video/mp4');
    expect(readFileSync(video.path).equals(FILE_BYTES.video)).toBe(true);
    expect(readdirSync(path.join(dir, 'nested'))).toEqual(['waves.mp4']); // no temporary file left

    const fileRequests = server.requests.filter((r) => r.path.startsWith('/files/'));
    expect(fileRequests).toHaveLength(2);
    for (const r of fileRequests) {
      expect(r.headerNames).not.toContain('authorization');
      expect(r.headerNames).not.toContain('x-oxen-token');
      expect(r.headerNames).not.toContain('cookie');
    }
    // The API's own requests did carry them.
    expect(server.requests.find((r) => r.path === '/api/ai/images/generate')!.headerNames).toEqual(
      expect.arrayContaining(['authorization', 'x-oxen-token']),
    );
  });

  it('b64_json items are decoded; the content type is recognised from the bytes', async () => {
    const { client } = await setup();
    const { videos } = await client.videos.generate({
      model: 'google-veo-3-1',
      prompt: 'waves',
      duration: 4,
      response_format: 'b64_json',
    });
    const saved = await saveOutput(videos[0]!, path.join(outputDir(), 'clip'));
    expect(saved.path.endsWith('clip.mp4')).toBe(true);
    expect(readFileSync(saved.path).equals(FILE_BYTES.video)).toBe(true);
  });

  it('overwrite: false refuses an existing file', async () => {
    const { client } = await setup();
    const dir = outputDir();
    writeFileSync(path.join(dir, 'fox.png'), 'old');
    const { images } = await client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' });
    const err = await rejectionOf(saveOutput(images[0]!, path.join(dir, 'fox'), { overwrite: false }));
    expect((err as { code?: string }).code).toBe('EEXIST');
    expect(readFileSync(path.join(dir, 'fox.png'), 'utf8')).toBe('old');
  });
});

describe('fetchOutput', () => {
  it('returns bytes with the content type, and a typed Blob', async () => {
    const { client } = await setup();
    const { images } = await client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' });
    const out = await fetchOutput(images[0]!);
    expect(out.contentType).toBe('image/png');
    expect(out.extension).toBe('.png');
    expect(Buffer.from(out.bytes).equals(FILE_BYTES.image)).toBe(true);
    const blob = await fetchOutputBlob(images[0]!);
    expect(blob.type).toBe('image/png');
    expect(Buffer.from(await blob.arrayBuffer()).equals(FILE_BYTES.image)).toBe(true);
    expect(['image/jpeg', 'video/webm', 'video/quicktime', 'application/x-unknown'].map(extensionFor)).toEqual([
      '.jpg',
      '.webm',
      '.mov',
      '.bin',
    ]);
  });

  it('an output larger than maxResponseBytes is refused, a url or a b64_json alike', async () => {
    const { client } = await setup();
    const { images } = await client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' });
    const dir = outputDir();
    const err = await rejectionOf(saveOutput(images[0]!, path.join(dir, 'fox'), { maxResponseBytes: 16 }));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toContain('maxResponseBytes (16 bytes)');
    expect(readdirSync(dir)).toEqual([]);
    const b64 = await client.images.generate({ model: 'flux-1-dev', prompt: 'a fox', response_format: 'b64_json' });
    expect(await rejectionOf(fetchOutput(b64.images[0]!, { maxResponseBytes: 16 }))).toBeInstanceOf(
      ResponseTooLargeError,
    );
  });

  it('an expired URL says that output URLs expire, without the signature', async () => {
    const { server } = await setup();
    const err = await rejectionOf(fetchOutput({ url: `${server.url}/files/alice/gone.png?X-Amz-Signature=abc123` }));
    expect(err).toBeInstanceOf(OutputExpiredError);
    expect((err as OutputExpiredError).status).toBe(404);
    expect(err.message).toContain('output URLs are presigned links that expire');
    expect(err.message).toContain('/files/alice/gone.png');
    expect(err.message).not.toContain('abc123');
  });

  it('refuses outcomes that did not succeed and URLs that are not https', async () => {
    const notSucceeded = {
      generation_id: 'g',
      index: 0,
      status: 'failed',
      error: 'x',
      media_type: 'image',
    } as unknown as { url: string };
    expect((await rejectionOf(fetchOutput(notSucceeded))).message).toContain('has status "failed"');
    const plain = await rejectionOf(fetchOutput({ url: 'http://example.com/out.png' }));
    expect(plain).toBeInstanceOf(SDKError);
    expect(plain.message).toContain('must be an https: URL');
  });
});

describe('redirects of an output URL', () => {
  it('are followed hop by hop (here between loopback http URLs), with no client header', async () => {
    const { client, server } = await setup({}, { headers: { 'x-oxen-token': 'custom-secret' } });
    const { images } = await client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' });
    server.faults.add({
      method: 'GET',
      path: '/moved/fox.png',
      kind: 'redirect',
      status: 301,
      location: '/moved/again',
    });
    server.faults.add({ method: 'GET', path: '/moved/again', kind: 'redirect', status: 307, location: images[0]!.url });
    const out = await fetchOutput({ url: `${server.url}/moved/fox.png` });
    expect(Buffer.from(out.bytes).equals(FILE_BYTES.image)).toBe(true);
    const hops = server.requests.filter((r) => r.method === 'GET' && r.path !== '/api/ai/images/generate');
    expect(hops.map((r) => r.path)).toEqual(['/moved/fox.png', '/moved/again', new URL(images[0]!.url).pathname]);
    for (const r of hops) expect(r.headerNames).not.toContain('x-oxen-token');
  });

  it(`more than ${OUTPUT_MAX_REDIRECTS} are refused; so is a Location that is no URL, or plain http to another host, before it is fetched`, async () => {
    const { server } = await setup();
    server.faults.add({ method: 'GET', path: '/loop.png', kind: 'redirect', location: '/loop.png', times: 50 });
    const loop = await rejectionOf(fetchOutput({ url: `${server.url}/loop.png` }));
    expect(loop).toBeInstanceOf(RedirectError);
    expect(loop.message).toContain(`redirected more than ${OUTPUT_MAX_REDIRECTS} times`);
    expect(server.count('GET', '/loop.png')).toBe(OUTPUT_MAX_REDIRECTS + 1);
    server.faults.add({ method: 'GET', path: '/bad.png', kind: 'redirect', location: 'http://[not a host/x.png' });
    expect((await rejectionOf(fetchOutput({ url: `${server.url}/bad.png` }))).message).toContain(
      'without a usable Location',
    );
    server.faults.add({
      method: 'GET',
      path: '/away.png',
      kind: 'redirect',
      location: 'http://example.com/x.png?sig=s3cr3t',
    });
    const away = await rejectionOf(fetchOutput({ url: `${server.url}/away.png` }));
    expect(away).toBeInstanceOf(RedirectError);
    expect(away.message).toContain('redirected to http://example.com/x.png: an output URL must be https:');
    expect((away as RedirectError).location).toBe('http://example.com/x.png'); // never the query (a signature)
  });

  it('from https to http is refused before the http URL is fetched, and nothing is written; https to https is followed', async () => {
    // A self-signed certificate for 127.0.0.1, trusted by the child process through NODE_EXTRA_CA_CERTS,
    // so that saveOutput runs with the runtime's own fetch.
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const dir = outputDir();
    const ca = path.join(dir, 'ca.pem');
    writeFileSync(ca, pems.cert);
    const plainHits: string[] = [];
    const plain = http.createServer((req, res) => {
      plainHits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' }).end(FILE_BYTES.image);
    });
    const secure = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      if (req.url === '/to-http') res.writeHead(302, { location: `http://127.0.0.1:${portOf(plain)}/fox.png` }).end();
      else if (req.url === '/to-https') res.writeHead(302, { location: '/fox.png' }).end();
      else res.writeHead(200, { 'content-type': 'image/png' }).end(FILE_BYTES.image);
    });
    await Promise.all([plain, secure].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
    try {
      const save = async (url: string, file: string) => {
        const { code, stdout, stderr } = await run(process.execPath, [...tsxArgs(script), url, path.join(dir, file)], {
          env: { ...process.env, NODE_EXTRA_CA_CERTS: ca },
          timeoutMs: 60_000,
        });
        expect(code, stderr).toBe(0);
        return JSON.parse(stdout) as {
          saved?: { path: string; size: number };
          error?: { name: string; message: string; location?: string };
        };
      };
      const base = `https://127.0.0.1:${portOf(secure)}`;
      const followed = await save(`${base}/to-https`, 'secure');
      expect(followed.saved?.size).toBe(FILE_BYTES.image.length);
      const refused = await save(`${base}/to-http`, 'downgraded');
      expect(refused.error?.name).toBe('RedirectError');
      expect(refused.error?.message).toContain('a redirect from https: to http: is refused');
      expect(refused.error?.location).toBe(`http://127.0.0.1:${portOf(plain)}/fox.png`);
      expect(plainHits).toEqual([]);
      expect(readdirSync(dir).sort()).toEqual(['ca.pem', 'secure.png']);
    } finally {
      await Promise.all([plain, secure].map((s) => new Promise((r) => s.close(r))));
    }
  }, 120_000);
});
