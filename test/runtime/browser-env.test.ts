// The runtime as a browser page runs it, without a browser: the runtime bundled by esbuild
// (platform browser) and evaluated in a fresh V8 context whose globals are a page's (window,
// document, navigator, location, fetch; no process, no env). It checks what only a browser sees:
// an apiKey is refused unless dangerouslyAllowBrowser, a keyless client (for a proxy) works, a
// relative baseUrl resolves against the page, and a fetch that rejects without a response (CORS or
// network: the page cannot tell) is never resent and says only what is known. The headless
// Chromium tests cover a real browser.
import { build } from 'esbuild';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/index.ts';
import { useServers } from './helpers.ts';

const setup = useServers();
let bundle = '';

beforeAll(async () => {
  const out = await build({
    // the light runtime and the client (which the package root exports, not oxen-inference-sdk/runtime)
    stdin: {
      contents: "export * from './runtime/index.ts';\nexport { Client } from './runtime/client.ts';\n",
      resolveDir: REPO_ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    globalName: 'SDK',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0]!.text;
}, 60_000);

type SDK = typeof import('../../runtime/index.ts') & { Client: typeof import('../../runtime/client.ts').Client };

/** A page's globals in a fresh context, with the runtime loaded as `SDK`; `fetch` is Node's unless replaced inside the context. */
function page(href: string): { sdk: SDK; context: vm.Context } {
  const context = vm.createContext({
    console,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    queueMicrotask,
    performance,
    structuredClone,
    URL,
    URLSearchParams,
    AbortController,
    AbortSignal,
    DOMException,
    Headers,
    Request,
    Response,
    ReadableStream,
    TextDecoder,
    TextEncoder,
    fetch,
    navigator: { userAgent: 'test' },
    location: { href },
    document: {},
  });
  vm.runInContext('globalThis.window = globalThis;', context);
  vm.runInContext(bundle, context);
  return { sdk: vm.runInContext('SDK', context) as SDK, context };
}

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

describe('in a browser page', () => {
  it('an apiKey is refused unless dangerouslyAllowBrowser; no key (a proxy) needs no flag', () => {
    const { sdk } = page('https://app.example/page');
    const err = thrown(() => new sdk.Client({ apiKey: 'sk-in-a-page-123456', baseUrl: 'https://hub.oxen.ai' }));
    expect(err.name).toBe('SDKError');
    expect(err.message).toContain('dangerouslyAllowBrowser');
    expect(err.message).toContain('createProxyHandler');
    expect(err.message).not.toContain('sk-in-a-page-123456');
    expect(thrown(() => sdk.createTransport({ apiKey: 'sk-in-a-page-123456' })).name).toBe('SDKError');
    expect(new sdk.Client({ apiKey: 'sk-in-a-page-123456', dangerouslyAllowBrowser: true }).settings.baseUrl).toBe(
      'https://hub.oxen.ai',
    );
    expect(new sdk.Client({ baseUrl: 'https://app.example/api/oxen' }).settings.baseUrl).toBe(
      'https://app.example/api/oxen',
    );
    expect(() => sdk.createProxyHandler({ apiKey: 'k-123456' })).toThrow(/server/);
    // no key and the hosted service: refused (the page would be answered 401)
    expect(thrown(() => new sdk.Client()).message).toMatch(/^No API key for https:\/\/hub\.oxen\.ai: /);
  });

  it('a relative baseUrl resolves against the page; plain http to a non-loopback page is still refused', () => {
    expect(new (page('https://app.example/shop/').sdk.Client)({ baseUrl: '/api/oxen' }).settings.baseUrl).toBe(
      'https://app.example/api/oxen',
    );
    expect(thrown(() => new (page('http://app.example/').sdk.Client)({ baseUrl: '/api/oxen' })).message).toMatch(
      /https/,
    );
  });

  it('works end to end with no process and no environment (here with dangerouslyAllowBrowser and the local server)', async () => {
    const { server } = await setup();
    const { sdk } = page(`${server.url}/page`);
    const client = new sdk.Client({ apiKey: 'test-key', baseUrl: server.url, dangerouslyAllowBrowser: true });
    const res = await client.images.generate({ model: 'flux-1-dev', prompt: 'x' });
    expect(res.images).toHaveLength(1);
  });

  it('a fetch rejected before any response (CORS or network) is never resent and says only what is known', async () => {
    const { sdk, context } = page('https://app.example/');
    // The page's fetch, as a browser rejects it on a CORS refusal or a dropped connection.
    vm.runInContext(
      'globalThis.calls = 0; globalThis.fetch = async () => { calls++; throw new TypeError("Failed to fetch"); };',
      context,
    );
    const client = new sdk.Client({ baseUrl: 'https://app.example/api/oxen', retryBaseDelayMs: 1 });
    const err = (await client.images
      .generate({ model: 'flux-1-dev', prompt: 'x' })
      .catch((e: unknown) => e)) as InstanceType<SDK['OutcomeUnknownError']>;
    expect(err.name).toBe('OutcomeUnknownError');
    expect(err.reason).toBe('connection');
    expect(err.message).toContain('may have been blocked by CORS or by the network');
    expect(err.message).toContain('if it was sent, it may have been processed');
    expect(err.message).not.toContain('after the request was sent');
    expect(vm.runInContext('calls', context)).toBe(1);
    // A GET may be resent (harmless); its error says the same.
    const list = (await client.queue.list({}, { maxRetries: 1 }).catch((e: unknown) => e)) as InstanceType<
      SDK['ConnectionError']
    >;
    expect(list.name).toBe('ConnectionError');
    expect(list.notSent).toBe(false);
    expect(list.message).toContain('may have been blocked by CORS or by the network');
    expect(vm.runInContext('calls', context)).toBe(3);
  });
});
