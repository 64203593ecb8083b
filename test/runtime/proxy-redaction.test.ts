// The proxy's error answers and the key in every form: a service's error body
// that echoes the key JSON-escaped (`\u0073k-…`, `\/`, mixed, nested JSON), percent-encoded (either
// case, every character, twice) or cut across the 64 KiB limit in one of those forms reaches the page
// with the key replaced by [REDACTED]; what a JSON or URI reader decodes from it holds no part of the key.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { APIError, createProxyHandler } from '../../index.ts';
import { createNodeProxyListener } from '../../runtime/node/index.ts';
import { Client } from './helpers.ts';
import { listen, useClosers } from './proxy-helpers.ts';

useClosers();

// a key with characters JSON may escape (`/`) and URIs encode (`/`, `+`)
const KEY = 'sk-proxy/redact+0123456789SECRET';
const u = (s: string, upper = false) =>
  [...s]
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`)
    .join('');
const pct = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
const json = (forms: string) => `{"error":{"type":"bad_request","message":"invalid key ${forms} given"}}`;
const CUT = 65_536;

/** The service's error bodies, by the model id asked for (`GET /api/ai/models/{id}`). */
const BODIES: Record<string, { type: string; body: string }> = {
  'first-escaped': { type: 'application/json', body: json(`\\u0073${KEY.slice(1).replaceAll('/', '\\/')}`) },
  'all-escaped': { type: 'application/json', body: json(u(KEY)) },
  'all-escaped-upper': { type: 'application/json', body: json(u(KEY, true)) },
  slash: { type: 'application/json', body: json(KEY.replaceAll('/', '\\/')) },
  mixed: {
    type: 'application/json',
    body: json([...KEY].map((c, i) => (i % 3 === 0 ? u(c, i % 2 === 0) : c === '/' ? '\\/' : c)).join('')),
  },
  nested: {
    type: 'application/json',
    body: JSON.stringify({ error: JSON.stringify({ detail: `key ${u(KEY.slice(0, 5))}${KEY.slice(5)}` }) }),
  },
  'uri-lower': {
    type: 'application/json',
    body: json(encodeURIComponent(KEY).toLowerCase().replace('secret', 'SECRET')),
  },
  'uri-every': { type: 'application/json', body: json(pct(KEY)) },
  'uri-twice': { type: 'text/plain', body: `key=${encodeURIComponent(encodeURIComponent(KEY))}` },
  'text-escaped': { type: 'text/plain', body: `Unauthorized: "${u(KEY.slice(0, 10))}${KEY.slice(10)}"` },
  // cut after this many characters of the key's form: between two escapes, or inside one
  ...Object.fromEntries(
    [30, 6 * 9 + 4, 6 * 20 + 1, 6 * 31 + 5].map((at) => [
      `cut-escaped-${at}`,
      { type: 'application/json', body: `{"error":"${'p'.repeat(CUT - 10 - at)}${u(KEY)}"}` },
    ]),
  ),
  ...Object.fromEntries(
    [20, 3 * 10 + 1, 3 * 12 + 2].map((at) => [
      `cut-uri-${at}`,
      { type: 'text/plain', body: `${'p'.repeat(CUT - at)}${pct(KEY)}` },
    ]),
  ),
};

/** A stand-in service whose error body for model `id` is `BODIES[id]`. */
function service(req: IncomingMessage, res: ServerResponse): void {
  const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
  const form = BODIES[id];
  res.writeHead(form ? 400 : 404, { 'content-type': form?.type ?? 'text/plain' });
  res.end(form?.body ?? 'unknown');
}

/** Every text a page's JSON and URI readers get out of `text` (recursively, a few levels). */
function decodings(text: string): string[] {
  const out = new Set<string>([text]);
  const lenient = (s: string) =>
    s
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\+(["/\\])/g, '$1')
      .replace(/%(?:25)*([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const visit = (v: unknown, depth: number): void => {
    if (depth > 4) return;
    if (typeof v === 'string') {
      out.add(v);
      out.add(lenient(v));
      try {
        visit(decodeURIComponent(v), depth + 1);
      } catch {
        /* not a URI component */
      }
      try {
        visit(JSON.parse(v), depth + 1);
      } catch {
        /* not JSON */
      }
    } else if (v && typeof v === 'object') for (const w of Object.values(v)) visit(w, depth + 1);
  };
  visit(text, 0);
  visit(lenient(text), 0);
  return [...out];
}

async function setup() {
  const upstream = await listen(service);
  const handler = createProxyHandler({ apiKey: KEY, baseUrl: upstream.url, pathPrefix: '/api/oxen' });
  const front = await listen();
  front.server.on('request', createNodeProxyListener(handler, { origin: front.url }));
  return { upstream, proxyUrl: front.url };
}

describe('the proxy’s error answers hold the key in no form', () => {
  it.each(Object.keys(BODIES))('%s', async (id) => {
    const { proxyUrl } = await setup();
    // the stand-in really does carry the key in the form named (a reader decodes it)
    expect(decodings(BODIES[id]!.body).some((d) => d.includes(KEY))).toBe(true);
    const res = await fetch(`${proxyUrl}/api/oxen/api/ai/models/${id}`);
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).toContain('[REDACTED]');
    for (const d of decodings(text)) {
      expect(d, `decoded answer of ${id}`).not.toContain(KEY);
      // a cut leaves the key's start: none of it stays (8 characters are more than the cut keeps of anything else)
      expect(d, `decoded answer of ${id}`).not.toContain(KEY.slice(0, 8));
      expect(d, `decoded answer of ${id}`).not.toContain(KEY.slice(-8));
    }
    // what was not the key is kept: a JSON body whole stays JSON
    if (!id.startsWith('cut') && BODIES[id]!.type === 'application/json') expect(() => JSON.parse(text)).not.toThrow();
  });

  it('the SDK behind the proxy gets the service’s message, redacted', async () => {
    const { proxyUrl } = await setup();
    const client = new Client({ baseUrl: `${proxyUrl}/api/oxen`, maxRetries: 0 });
    const err = await client.models.retrieve('all-escaped').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).message).toBe('invalid key [REDACTED] given');
  });
});
