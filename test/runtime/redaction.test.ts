// Every secret of a call (the key, the client's header values, the call's own and a hook's) stays out
// of everything the SDK lets out, in every form a server may echo it (raw, JSON-escaped as
// `\u0074ok\/…`, percent-encoded): errors (message, body, headers, requestId, toJSON, inspect), the
// request id of withResponse() and of onResponse, and the log lines of every level (debug prints
// only the values of the standard headers of PUBLIC_HEADERS). On 127.0.0.1 with the local server's
// echo faults.
import { describe, expect, it } from 'vitest';
import { createTransport, NotFoundError, REDACTED, Redactor, type Logger } from '../../index.ts';
import { headerSecrets, PUBLIC_HEADERS } from '../../runtime/redact.ts';
import { expectNoPiece, pieces, rejectionOf, useServers } from './helpers.ts';

const setup = useServers();

// Letters that appear in no message, path or stack of the SDK (see secrets.test.ts); the token has a
// `/`, which JSON may write as `\/`.
const KEY = 'sk-QXZJVKWYQJZXWKVYZQXJWVKYJXQZVWYK';
const TOKEN = 'tok/JQZXVWKYXZQJKVYWQJXZWKVY';
const CALL_TOKEN = 'cq-WQYZJXKVQWZJYXKVZWQY';
const HOOK_TOKEN = 'hk-ZVKWQJYXZKWVJQYX';
const users = { [KEY]: { user: 'alice', orgs: ['acme'] } };

/** `s` with the characters at `at` written as JSON `\uXXXX` escapes (`backslashes` of them). */
const unicode = (s: string, at: (i: number) => boolean, backslashes = 1): string =>
  [...s]
    .map((c, i) => (at(i) ? `${'\\'.repeat(backslashes)}u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
    .join('');
/** `s` with the characters at `at` percent-encoded. */
const percent = (s: string, at: (i: number) => boolean, upper = true): string =>
  [...s]
    .map((c, i) => {
      if (!at(i)) return c;
      const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
      return `%${upper ? hex.toUpperCase() : hex}`;
    })
    .join('');

/** A logger that records every line as one string (message and details). */
function recorder(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (...args: unknown[]) =>
    void lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  return { lines, logger: { debug: at, info: at, warn: at, error: at } };
}

/** Fails when any line holds 4 characters in a row of `secret`. */
function expectNoPieceIn(lines: string[], secret: string): void {
  for (const line of lines) for (const p of pieces(secret)) expect(line, `a piece ${p}`).not.toContain(p);
}

describe('Redactor: a secret in any form', () => {
  const r = new Redactor([TOKEN, `Bearer ${KEY}`]);
  const forms: Array<[string, string]> = [
    ['raw', TOKEN],
    ['as JSON writes it, / as \\/', JSON.stringify(TOKEN).slice(1, -1).replace(/\//g, '\\/')],
    ['first character \\u-escaped, / as \\/', unicode(TOKEN, (i) => i === 0).replace(/\//g, '\\/')],
    ['every character \\u-escaped', unicode(TOKEN, () => true)],
    ['every other character \\u-escaped', unicode(TOKEN, (i) => i % 2 === 1)],
    ['JSON in JSON (\\\\u0074, \\\\\\/)', unicode(TOKEN, (i) => i === 0, 2).replace(/\//g, '\\\\\\/')],
    ['encodeURIComponent', encodeURIComponent(TOKEN)],
    ['every character percent-encoded, lower case', percent(TOKEN, () => true, false)],
    ['a mix of all three', [...TOKEN].map((c, i) => [percent, unicode][i % 3]?.(c, () => true) ?? c).join('')],
  ];
  it.each(forms)('%s', (_, form) => {
    expect(r.text(`before ${form} after`)).toBe(`before ${REDACTED} after`);
    expect(r.contains(form)).toBe(true);
    expect(r.value({ [form]: [form] })).toEqual({ [REDACTED]: [REDACTED] });
  });

  it('the longest secret wins (the header value with its scheme), and two secrets in one text are each replaced in place', () => {
    const text = `auth: Bearer ${unicode(KEY, (i) => i === 0)}; key: ${KEY}; token: ${percent(TOKEN, (i) => i < 3)}.`;
    expect(r.text(text)).toBe(`auth: ${REDACTED}; key: ${REDACTED}; token: ${REDACTED}.`);
  });

  it('a start of a secret at the end of a cut text, in any form (an escape cut in its middle too), is replaced', () => {
    expect(r.cutText(`body ${TOKEN.slice(0, 9)}`)).toBe(`body ${REDACTED}`);
    expect(r.cutText(`body ${unicode(TOKEN.slice(0, 9), () => true)}`)).toBe(`body ${REDACTED}`);
    expect(r.cutText(`body ${unicode(TOKEN.slice(0, 6), (i) => i === 0)}\\u00`)).toBe(`body ${REDACTED}`);
    expect(r.cutText(`body ${percent(TOKEN.slice(0, 6), () => true)}%6`)).toBe(`body ${REDACTED}`);
    expect(r.cutText('body ends plainly')).toBe('body ends plainly');
  });

  it('ordinary escapes and text are left as they are; strings under 4 characters are not secrets', () => {
    const text = 'line\\nbreak \\u0041 \\/path 100% %41 ab7';
    expect(new Redactor([TOKEN, 'ab7']).text(text)).toBe(text);
    expect(Redactor.NONE.text(TOKEN)).toBe(TOKEN);
  });

  it('with() adds secrets, and is the same redactor when it has them all', () => {
    const more = r.with([CALL_TOKEN, 'ab']);
    expect(more.text(`${CALL_TOKEN} ab`)).toBe(`${REDACTED} ab`);
    expect(r.with([TOKEN, 'ab'])).toBe(r);
  });

  it('headerSecrets: every header value but those of the standard headers of PUBLIC_HEADERS, names in any case', () => {
    expect(
      headerSecrets({
        'X-Oxen-Token': TOKEN,
        Authorization: `Bearer ${KEY}`,
        'User-Agent': 'my-app/1.0',
        accept: 'application/json',
        'x-short': 'ab7',
      }),
    ).toEqual([TOKEN, `Bearer ${KEY}`, 'ab7']);
    expect([...PUBLIC_HEADERS]).toEqual(expect.arrayContaining(['accept', 'content-type', 'user-agent']));
    expect(PUBLIC_HEADERS.has('authorization')).toBe(false);
  });
});

describe('errors hold no secret of the call, whatever the form the server echoes it in', () => {
  it.each(['raw', 'json', 'uri'] as const)(
    "a client header value echoed (%s) in an error's body and headers",
    async (encoding) => {
      const { client, server } = await setup({ users }, { apiKey: KEY, headers: { 'x-oxen-token': TOKEN } });
      server.faults.add({
        method: 'GET',
        path: '/api/ai/queue',
        kind: 'echo-header',
        header: 'x-oxen-token',
        encoding,
      });
      const err = await rejectionOf(client.queue.list());
      expect(err.message).toBe(REDACTED);
      expectNoPiece(err, TOKEN);
    },
  );

  it.each(['raw', 'json', 'uri'] as const)(
    'a per-call header value echoed (%s) as the request id: the error, its requestId and the error log line',
    async (encoding) => {
      const rec = recorder();
      const { client, server } = await setup({ users }, { apiKey: KEY, logLevel: 'error', logger: rec.logger });
      server.faults.add({
        method: 'GET',
        path: /^\/api\/ai\/queue\/.+/,
        kind: 'echo-request-id',
        header: 'x-call-token',
        encoding,
      });
      const err = await rejectionOf(
        client.queue.get('no-such-generation', { headers: { 'x-call-token': CALL_TOKEN } }),
      );
      expect(err).toBeInstanceOf(NotFoundError);
      expect((err as NotFoundError).requestId).toBe(REDACTED);
      expect((err as NotFoundError).toJSON()).toMatchObject({ requestId: REDACTED });
      expectNoPiece(err, CALL_TOKEN);
      expect(rec.lines).toHaveLength(1);
      expect(rec.lines[0]).toContain(`request id ${REDACTED}`);
      expectNoPieceIn(rec.lines, CALL_TOKEN);
    },
  );
});

describe('withResponse() and onResponse: the request id', () => {
  it.each(['raw', 'json', 'uri'] as const)(
    'a key echoed (%s) in x-request-id is redacted in withResponse().requestId, its response, onResponse and the info line',
    async (encoding) => {
      const seen: Array<string | undefined> = [];
      const rec = recorder();
      const { client, server } = await setup(
        { users },
        {
          apiKey: KEY,
          onResponse: ({ requestId }) => void seen.push(requestId),
          logLevel: 'info',
          logger: rec.logger,
        },
      );
      server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-request-id', encoding });
      const { data, requestId, response } = await client.queue.list().withResponse();
      expect(data).toEqual({ count: 0, generations: [] });
      for (const id of [requestId, response.headers.get('x-request-id') ?? '', seen[0] ?? '', rec.lines[0] ?? '']) {
        expect(id).toContain(REDACTED);
        for (const p of pieces(KEY)) expect(id).not.toContain(p);
      }
      expect(seen).toHaveLength(1);
    },
  );

  it('a per-call header value echoed as the request id: withResponse of that call', async () => {
    const { client, server } = await setup({ users }, { apiKey: KEY });
    server.faults.add({
      method: 'GET',
      path: '/api/ai/queue',
      kind: 'echo-request-id',
      header: 'x-call-token',
      encoding: 'json',
    });
    const { requestId } = await client.queue.list({}, { headers: { 'x-call-token': CALL_TOKEN } }).withResponse();
    expect(requestId).toBe(REDACTED);
  });
});

describe('debug logs hold no header value', () => {
  it("the client's, the call's and a hook's header values never appear, whatever their length; echoed back in any form, they are redacted", async () => {
    const rec = recorder();
    const { server } = await setup({ users, requestIds: true });
    const t = createTransport({
      apiKey: KEY,
      baseUrl: server.url,
      maxRetries: 0,
      logLevel: 'debug',
      logger: rec.logger,
      headers: { 'x-oxen-token': TOKEN, 'x-short': 'ab7', 'user-agent': 'my-app/1.0' },
      onRequest: (r) => {
        r.headers.set('x-hook-token', HOOK_TOKEN);
        r.headers.set('x-trace-id', `trace-${r.attempt}`);
      },
    });
    const call = { headers: { 'x-call-token': CALL_TOKEN } };
    await t.request({ method: 'GET', path: '/api/ai/queue' }, call);
    server.faults.add({
      method: 'GET',
      path: '/api/ai/queue',
      kind: 'echo-header',
      header: 'x-oxen-token',
      encoding: 'json',
    });
    server.faults.add({
      method: 'GET',
      path: '/api/ai/queue',
      kind: 'echo-header',
      header: 'x-call-token',
      encoding: 'uri',
    });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-header', header: 'x-hook-token' });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-key' });
    for (let i = 0; i < 4; i++) await rejectionOf(t.request({ method: 'GET', path: '/api/ai/queue' }, call));

    const requests = rec.lines.filter((l) => l.startsWith('oxen-inference-sdk: request '));
    expect(requests).toHaveLength(5);
    for (const line of requests) {
      for (const name of ['x-oxen-token', 'x-short', 'x-call-token', 'x-hook-token', 'authorization'])
        expect(line).toContain(`"${name}":"***"`);
      expect(line).toContain('"user-agent":"my-app/1.0"'); // standard headers: shown
      expect(line).toContain('"x-trace-id":"trace-1"');
      expect(line).toContain('"accept":"application/json"');
    }
    const responses = rec.lines.filter((l) => l.startsWith('oxen-inference-sdk: response '));
    expect(responses).toHaveLength(5);
    for (const line of responses.slice(1)) expect(line).toContain(REDACTED); // the echoed body and X-Echo
    expect(rec.lines.filter((l) => / failed in /.test(l))).toHaveLength(4);
    for (const secret of [KEY, TOKEN, CALL_TOKEN, HOOK_TOKEN]) expectNoPieceIn(rec.lines, secret);
  });

  it('a secret across the 1,000-character cut of a logged string leaves no piece of it', async () => {
    const rec = recorder();
    const { client, server } = await setup(
      { users },
      { apiKey: KEY, headers: { 'x-oxen-token': TOKEN }, logLevel: 'debug', logger: rec.logger, maxRetries: 0 },
    );
    for (const pad of [990, 995, 998]) {
      server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-header', header: 'x-oxen-token', pad });
      await rejectionOf(client.queue.list());
    }
    expect(
      rec.lines.filter((l) => l.startsWith('oxen-inference-sdk: response ') && l.includes('more characters]')),
    ).toHaveLength(3);
    expectNoPieceIn(rec.lines, TOKEN);
  });
});
