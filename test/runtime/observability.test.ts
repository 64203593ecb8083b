// Logging, request ids, raw responses and per-call headers, over the local server: each log level's
// lines through a recording logger (and no secret in any of them at debug), a request id surfaced
// on an error, withResponse/asResponse giving the Response of the one request sent, and the
// headers of a call reaching the server.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flux1DevGenerateImage } from '../../generated/models/flux-1-dev.ts';
import {
  APIPromise,
  createTransport,
  InternalServerError,
  NotFoundError,
  SDKError,
  type Logger,
  type LogLevel,
  type Transport,
} from '../../index.ts';
import { ChatCompletionStream } from '../../runtime/chat/stream.ts';
import { rejectionOf, useServers } from './helpers.ts';

const setup = useServers();

const KEY = 'sk-observability-key-7f3a9c';
const COOKIE_SECRET = 'session-cookie-value-91b2';
const users = { [KEY]: { user: 'alice', orgs: ['acme'] } };

/** A logger that records every line: its level, and its message and details as one string. */
function recorder(): { logger: Logger; lines: Array<{ level: string; text: string }> } {
  const lines: Array<{ level: string; text: string }> = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push({ level, text: args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ') });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

/** One call that succeeds after a retry (503, then 200), and one that fails (404), through a client at `level`. */
async function exercise(level: LogLevel | undefined) {
  const rec = recorder();
  const { client, server } = await setup(
    { users, requestIds: true },
    { apiKey: KEY, ...(level === undefined ? {} : { logLevel: level }), logger: rec.logger },
  );
  server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '503' });
  await client.queue.list();
  await rejectionOf(client.queue.get('no-such-generation'));
  return { ...rec, server };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('logging', () => {
  it('off (the default, and explicitly) logs nothing', async () => {
    vi.stubEnv('OXEN_LOG', '');
    expect((await exercise(undefined)).lines).toEqual([]);
    expect((await exercise('off')).lines).toEqual([]);
  });

  it('error: one line per failed call, with status, duration and request id', async () => {
    const { lines, server } = await exercise('error');
    expect(lines.map((l) => l.level)).toEqual(['error']);
    expect(lines[0]!.text).toMatch(
      /^oxen-inference-sdk: GET \/api\/ai\/queue\/no-such-generation failed in [\d.]+ ms; request id req_\d+: 404 NotFoundError: The requested resource was not found$/,
    );
    expect(lines[0]!.text).toContain(`request id ${server.requests.at(-1)!.requestId}`);
  });

  it('warn: adds each retry and why', async () => {
    const { lines } = await exercise('warn');
    expect(lines.map((l) => l.level)).toEqual(['warn', 'error']);
    expect(lines[0]!.text).toBe(
      'oxen-inference-sdk: retrying GET /api/ai/queue after 503 InternalServerError (attempt 1 failed; 2 retries left)',
    );
  });

  it('info: adds each call with method, path, status, duration in ms, retries and why', async () => {
    const { lines } = await exercise('info');
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info', 'error']);
    expect(lines[1]!.text).toMatch(
      /^oxen-inference-sdk: GET \/api\/ai\/queue 200 in [\d.]+ ms; 1 retry \(after 503 InternalServerError\); request id req_2$/,
    );
  });

  it('env OXEN_LOG sets the level when logLevel is not given; a bad level is refused', async () => {
    vi.stubEnv('OXEN_LOG', 'info');
    const { lines } = await exercise(undefined);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info', 'error']);
    vi.stubEnv('OXEN_LOG', 'loud');
    expect(() => createTransport({ apiKey: KEY })).toThrow(/OXEN_LOG must be one of off, error, warn, info, debug/);
    expect(() => createTransport({ apiKey: KEY, logLevel: 'verbose' as LogLevel })).toThrow(SDKError);
  });

  it('debug: adds headers and bodies; the key and every header value but the standard ones never appear', async () => {
    const rec = recorder();
    const { client, server } = await setup(
      { users, requestIds: true },
      {
        apiKey: KEY,
        logLevel: 'debug',
        logger: rec.logger,
        headers: { cookie: `sid=${COOKIE_SECRET}`, 'x-trace': 'visible-trace' },
      },
    );
    await client.images.generate({ model: 'flux-1-dev', prompt: 'a red fox' }, { headers: { 'x-tenant': 'tenant-7' } });
    // A misbehaving server that echoes the Authorization header in its body and a header.
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-key' });
    await rejectionOf(client.queue.list());
    const levels = rec.lines.map((l) => l.level);
    expect(levels).toEqual(['debug', 'debug', 'info', 'debug', 'debug', 'error']);
    const [request, response] = rec.lines.map((l) => l.text);
    expect(request).toContain(`request POST ${server.url}/api/ai/images/generate (attempt 1)`);
    // The client's and the call's header values are secrets: shown as `***`; the SDK's own standard ones are shown.
    expect(request).toContain('"x-trace":"***"');
    expect(request).toContain('"x-tenant":"***"');
    expect(request).toContain('"authorization":"***"');
    expect(request).toContain('"cookie":"***"');
    expect(request).toContain('"content-type":"application/json"');
    expect(request).toContain('"prompt":"a red fox"');
    expect(response).toMatch(/response 200 to POST \/api\/ai\/images\/generate \(attempt 1\) in [\d.]+ ms/);
    expect(response).toContain('"x-request-id":"req_1"');
    expect(response).toContain('"images":[{"url":"');
    const echoed = rec.lines[4]!.text;
    expect(echoed).toContain('"x-echo-authorization":"Bearer [REDACTED]"');
    expect(echoed).toContain('you sent Authorization: Bearer [REDACTED]');
    for (const { text } of rec.lines) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(COOKIE_SECRET);
      expect(text).not.toContain('visible-trace');
      expect(text).not.toContain('tenant-7');
      expect(text).not.toMatch(/Bearer (?!\[REDACTED\])/);
    }
  });

  it("debug: a call's own authorization (a keyless client) is redacted too, even when the server echoes it", async () => {
    const rec = recorder();
    const token = 'tenant-token-5d1e8a';
    const { server } = await setup({ users: { [token]: { user: 'alice' } } });
    const t = createTransport({ baseUrl: server.url, logLevel: 'debug', logger: rec.logger });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-key' });
    await rejectionOf(
      t.request({ method: 'GET', path: '/api/ai/queue' }, { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(rec.lines.map((l) => l.level)).toEqual(['debug', 'debug', 'error']);
    expect(rec.lines[1]!.text).toContain('you sent Authorization: [REDACTED]');
    for (const { text } of rec.lines) expect(text).not.toContain(token);
  });

  it('a logger that throws does not fail the call; a logger without the methods is refused', async () => {
    const throwing = {
      debug() {},
      info: () => {
        throw new Error('logger down');
      },
      warn() {},
      error() {},
    };
    const { client } = await setup({}, { logLevel: 'info', logger: throwing });
    await expect(client.queue.list()).resolves.toEqual({ count: 0, generations: [] });
    expect(() =>
      createTransport({ apiKey: KEY, logLevel: 'info', logger: { info() {} } as unknown as Logger }),
    ).toThrow(/logger must be an object with debug, info, warn and error/);
  });
});

describe('request ids', () => {
  it('an error carries the request id of its response, in toJSON too', async () => {
    const { client, server } = await setup({ requestIds: true });
    const err = await rejectionOf(client.queue.get('no-such-generation'));
    expect(err).toBeInstanceOf(NotFoundError);
    const id = server.requests.at(-1)!.requestId;
    expect(id).toMatch(/^req_\d+$/);
    expect((err as NotFoundError).requestId).toBe(id);
    expect((err as NotFoundError).toJSON()).toMatchObject({ requestId: id });
  });

  it('the last attempt gives the request id after retries; none without the header', async () => {
    const { client, server } = await setup({ requestIds: true }, { maxRetries: 1 });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '500', times: 2 });
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as InternalServerError).requestId).toBe(server.requests.at(-1)!.requestId);
    const { client: plain } = await setup();
    expect(((await rejectionOf(plain.queue.get('nope'))) as NotFoundError).requestId).toBeUndefined();
  });
});

describe('withResponse and asResponse', () => {
  it('withResponse gives the same data as await, with the status, headers and request id of the one request sent', async () => {
    const { client, server } = await setup({ requestIds: true });
    const call = client.queue.list();
    expect(call).toBeInstanceOf(APIPromise);
    const plain = await call;
    const { data, response, requestId } = await call.withResponse();
    expect(data).toBe(plain);
    expect(data).toEqual({ count: 0, generations: [] });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(requestId).toBe(server.requests.at(-1)!.requestId);
    expect(response.url).toBe(`${server.url}/api/ai/queue`);
    expect(await response.json()).toEqual(plain); // the body is readable: the bytes the SDK read
    expect(server.count('GET', '/api/ai/queue')).toBe(1);
  });

  it('asResponse gives the raw Response; the result is mapped as before (models.retrieve normalises)', async () => {
    const { client, server } = await setup();
    const response = await client.models.retrieve('flux-1-dev').asResponse();
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    const raw = (await response.json()) as { id: string };
    expect(raw.id).toBe('flux-1-dev');
    const { data } = await client.models.retrieve('flux-1-dev').withResponse();
    expect(data.id).toBe('flux-1-dev');
    expect(data).toHaveProperty('request_schema');
    expect(server.count('GET', '/api/ai/models/flux-1-dev')).toBe(2);
  });

  it('generated per-model functions and queue.enqueue return it too; a validation error rejects both ways', async () => {
    const { server } = await setup({ requestIds: true });
    const t = createTransport({ apiKey: 'test-key', baseUrl: server.url });
    const { data, response } = await flux1DevGenerateImage(t, { prompt: 'a fox' }).withResponse();
    expect(data.images).toHaveLength(1);
    expect(response.status).toBe(200);
    const { client } = await setup();
    const enqueued = await client.queue.enqueue({ model: 'flux-1-dev', prompt: 'x' }).withResponse();
    expect(enqueued.data.generations).toHaveLength(1);
    expect(enqueued.response.status).toBe(200);
    const bad = client.untyped.queue.enqueue({ model: 'flux-1-dev', prompt: 'x', num_generations: 9 });
    expect((await rejectionOf(bad)).name).toBe('ValidationError');
    expect((await rejectionOf(bad.withResponse())).name).toBe('ValidationError');
  });

  it('an error status rejects withResponse and asResponse with the APIError', async () => {
    const { client } = await setup();
    const call = client.queue.get('no-such-generation');
    expect(await rejectionOf(call.asResponse())).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(call.withResponse())).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(call)).toBeInstanceOf(NotFoundError);
  });

  it('a chat stream: withResponse gives the stream and its live response (status, headers)', async () => {
    const { client } = await setup();
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'one two' }], stream: true })
      .withResponse();
    expect(stream).toBeInstanceOf(ChatCompletionStream);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Echo: one two');
  });

  it('through a wrapping transport: kept when the wrapper returns the inner promise, an SDKError otherwise', async () => {
    const { server } = await setup();
    const inner = createTransport({ apiKey: 'test-key', baseUrl: server.url });
    const passing: Transport = {
      settings: inner.settings,
      state: inner.state,
      request: (req, o) => inner.request(req, o),
      openStream: (req, o, c) => inner.openStream(req, o, c),
    };
    expect((await flux1DevGenerateImage(passing, { prompt: 'a' }).withResponse()).response.status).toBe(200);
    const awaiting: Transport = { ...passing, request: async (req, o) => await inner.request(req, o) };
    const call = flux1DevGenerateImage(awaiting, { prompt: 'a' });
    expect((await call).images).toHaveLength(1);
    const err = await rejectionOf(call.withResponse());
    expect(err).toBeInstanceOf(SDKError);
    expect(err.message).toMatch(/^No Response: the Transport's request\(\) returned a plain Promise/);
  });
});

describe('per-call headers', () => {
  it("reach the server over the client's headers; the client's key still authenticates", async () => {
    const { client, server } = await setup(
      { recordHeaders: true },
      { headers: { 'x-client': 'c', 'x-both': 'client' } },
    );
    await client.queue.list({}, { headers: { 'X-Call': 'one', 'x-both': 'call', authorization: 'Bearer other' } });
    expect(server.requests.at(-1)).toMatchObject({
      status: 200,
      headers: { 'x-client': 'c', 'x-call': 'one', 'x-both': 'call' },
    });
    await client.queue.list();
    expect(server.requests.at(-1)!.headers).not.toHaveProperty('x-call');
  });

  it('a client without a key sends the authorization of the call', async () => {
    const { server } = await setup();
    const t = createTransport({ baseUrl: server.url });
    await expect(
      t.request({ method: 'GET', path: '/api/ai/queue' }, { headers: { authorization: 'Bearer test-key' } }),
    ).resolves.toEqual({ count: 0, generations: [] });
  });
});
