// Secrets are held per client: each transport and proxy handler redacts its own API key and every
// custom header value it was given, nothing process-wide keeps them (10,000 clients created and
// dropped leave the heap flat), and redaction happens before any text is cut, so no fragment of a
// key survives at the message's 1,000-character cut, the redirect location's cut, the 64 KiB cut
// of an error body or of the proxy's error answer. On 127.0.0.1 with the local server's faults.
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  APIError,
  BadRequestError,
  createProxyHandler,
  createTransport,
  Redactor,
  RedirectError,
  REDACTED,
} from '../../index.ts';
import { MAX_MESSAGE_CHARS, redactorOf } from '../../runtime/errors.ts';
import { run, tsxArgs } from '../support/index.ts';
import { Client, expectNoPiece, pieces, rejectionOf, useServers } from './helpers.ts';

const setup = useServers();

// Letters that appear in no message, path or stack of the SDK, so that any 4 of them in a row
// found in an error's text are a piece of the secret.
const KEY = 'sk-QXZJVKWYQJZXWKVYZQXJWVKYJXQZVWYK';
const TOKEN = 'tok-JQZXVWKYXZQJKVYWQJXZWKVY';
const OTHER_KEY = 'sk-WYZQJXVKWJQZYXKVWZYQXJKV';

const users = { [KEY]: { user: 'alice', orgs: [] }, [OTHER_KEY]: { user: 'bob', orgs: [] } };

describe('each client redacts its own secrets', () => {
  it('a custom header value echoed by the server is redacted in message, stack, JSON, util.inspect, body and headers', async () => {
    const { client, server } = await setup({ users }, { apiKey: KEY, headers: { 'X-Oxen-Token': TOKEN } });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-header', header: 'x-oxen-token' });
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.message).toBe(REDACTED);
    expect((err as APIError).body).toBe(REDACTED);
    expect((err as APIError).headers?.get('x-echo')).toBe(REDACTED);
    expectNoPiece(err, TOKEN);
  });

  it('a custom header with an auth scheme: the value and the credential after the scheme are both secrets', async () => {
    const { client, server } = await setup(
      { users },
      { apiKey: KEY, headers: { 'x-upstream-auth': `Token ${TOKEN}` } },
    );
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-header', header: 'x-upstream-auth' });
    const err = await rejectionOf(client.queue.list());
    expect(err.message).toBe(REDACTED);
    expectNoPiece(err, TOKEN);
  });

  it("an error of one client is redacted of its own key, and holds none of another client's secrets", async () => {
    const { client, server } = await setup({ users }, { apiKey: KEY, headers: { 'x-oxen-token': TOKEN } });
    const other = new Client({ apiKey: OTHER_KEY, baseUrl: server.url, retryBaseDelayMs: 10 });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-header', times: 2 });
    const mine = await rejectionOf(client.queue.list());
    const theirs = await rejectionOf(other.queue.list());
    expect(mine.message).toBe(`Bearer ${REDACTED}`);
    expect(theirs.message).toBe(`Bearer ${REDACTED}`);
    expectNoPiece(mine, KEY);
    expectNoPiece(theirs, OTHER_KEY);
    // Each error was redacted with its own client's secrets only: nothing is shared between clients.
    expect(redactorOf(mine)?.contains(KEY)).toBe(true);
    expect(redactorOf(mine)?.contains(TOKEN)).toBe(true);
    expect(redactorOf(mine)?.contains(OTHER_KEY)).toBe(false);
    expect(redactorOf(theirs)?.contains(KEY)).toBe(false);
  });

  it('a transport made by createTransport redacts its own key and headers too; inspecting it shows neither', async () => {
    const { server } = await setup({ users });
    const t = createTransport({ apiKey: KEY, baseUrl: server.url, headers: { 'x-oxen-token': TOKEN }, maxRetries: 0 });
    server.faults.add({ method: 'GET', path: '/api/ai/models/*', kind: 'echo-header', header: 'x-oxen-token' });
    const err = await rejectionOf(t.request({ method: 'GET', path: '/api/ai/models/flux-1-dev' }));
    expect(err.message).toBe(REDACTED);
    expectNoPiece(err, TOKEN);
    const shown = inspect(t, { showHidden: true, depth: Infinity });
    expect(shown).not.toContain(KEY);
    expect(shown).not.toContain(TOKEN);
  });

  it('a Redactor shows none of its secrets when inspected or serialised, and redacts JSON-escaped and URI-encoded forms', () => {
    const secret = 'pa"ss/word&1';
    const r = new Redactor([secret, undefined, 'abc']); // undefined and strings under 4 characters are ignored
    expect(inspect(r, { showHidden: true, depth: Infinity })).not.toContain('pa');
    expect(JSON.stringify(r)).not.toContain('pa');
    expect(r.text(`raw ${secret}, json ${JSON.stringify(secret)}, uri ${encodeURIComponent(secret)}, abc`)).toBe(
      `raw ${REDACTED}, json "${REDACTED}", uri ${REDACTED}, abc`,
    );
    expect(Redactor.NONE.text(secret)).toBe(secret);
  });
});

describe('redaction happens before any text is cut', () => {
  it(`a key across the message's ${MAX_MESSAGE_CHARS}-character cut leaves no piece of 4 characters of it anywhere`, async () => {
    // The body is `at` characters, then `Bearer <key>`: the key starts at `at + 7`, before the cut,
    // and ends after it; redacted, the text is still longer than the cut.
    for (const at of [MAX_MESSAGE_CHARS - 16, MAX_MESSAGE_CHARS - 12, MAX_MESSAGE_CHARS - 10, MAX_MESSAGE_CHARS - 8]) {
      const { client, server } = await setup({ users }, { apiKey: KEY });
      server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-header', pad: at });
      const err = await rejectionOf(client.queue.list());
      expect(err).toBeInstanceOf(BadRequestError);
      expect(err.message).toContain('more characters]');
      expectNoPiece(err, KEY);
    }
  });

  it('a custom header value across the cut: the same', async () => {
    const { client, server } = await setup({ users }, { apiKey: KEY, headers: { 'x-oxen-token': TOKEN } });
    server.faults.add({
      method: 'GET',
      path: '/api/ai/queue',
      kind: 'echo-header',
      header: 'x-oxen-token',
      pad: MAX_MESSAGE_CHARS - 10,
    });
    const err = await rejectionOf(client.queue.list());
    expectNoPiece(err, TOKEN);
  });

  it('a key across the cut of a redirect location (message and location)', async () => {
    const { client, server } = await setup({ users }, { apiKey: KEY });
    server.faults.add({
      method: 'GET',
      path: '/api/ai/queue',
      kind: 'redirect',
      location: `/next?${'a'.repeat(480)}${KEY}`,
    });
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(RedirectError);
    expect((err as RedirectError).location).toBe(`/next?${'a'.repeat(480)}${REDACTED}`);
    expectNoPiece(err, KEY);
  });

  it('a key across the 64 KiB cut of an error body', async () => {
    const { client, server } = await setup({ users }, { apiKey: KEY });
    // `Bearer ` then the key from byte 65,536 - 7 - 12: the read stops 12 characters into the key.
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-header', pad: 65_536 - 7 - 12 });
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(BadRequestError);
    expect(((err as APIError).body as string).endsWith(`Bearer ${REDACTED}`)).toBe(true);
    expectNoPiece(err, KEY);
  });

  it("a key across the 64 KiB cut of the proxy's error answer", async () => {
    const { server } = await setup({ users });
    const handler = createProxyHandler({ apiKey: KEY, baseUrl: server.url });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-header', pad: 65_536 - 7 - 20 });
    const res = await handler(new Request('http://127.0.0.1:9/api/ai/queue'));
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text.endsWith(`Bearer ${REDACTED}`)).toBe(true);
    for (const p of pieces(KEY)) expect(text).not.toContain(p);
  });
});

describe('nothing process-wide keeps secrets', () => {
  it('creating and dropping 10,000 clients with distinct keys and header values leaves the heap flat', async () => {
    const script = fileURLToPath(new URL('./fixtures/clients-memory.ts', import.meta.url));
    const { code, stdout, stderr } = await run(process.execPath, ['--expose-gc', ...tsxArgs(script)], {
      timeoutMs: 120_000,
    });
    expect(code, stderr).toBe(0);
    const { before, after } = JSON.parse(stdout) as { before: number; after: number };
    // Each client's secrets are ~2 KB: kept process-wide, 10,000 of them would add ~10 MB or more.
    expect(after - before).toBeLessThan(4 * 1024 * 1024);
  }, 150_000);
});
