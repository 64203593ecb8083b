/**
 * The SDK in headless Chromium: the test page is bundled from the repository's source
 * with esbuild and served from its own origin under `Content-Security-Policy: script-src 'self'`
 * (no `'unsafe-eval'`). Every scenario runs twice: directly against the local server (another
 * origin, CORS) with `dangerouslyAllowBrowser` and the key, and through `createProxyHandler`
 * (a third origin, mounted at `/api/oxen`, allowing the page's origin) with no key in the page.
 *
 * Needs Debian's chromium at /usr/bin/chromium (`npm test` installs it); fails, does not skip, without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxyHandler } from '../../runtime/proxy/handler.ts';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { FILE_BYTES } from '../../fake-service/state.ts';
import type { ErrorInfo, Outcome, PageTarget } from './page/main.ts';
import { startHarness, type Harness, type TestPage } from './support/harness.ts';
import { serveFetchHandler, startNoCorsServer, type TestServer } from './support/servers.ts';

const KEY = 'test-key';
/** Where the proxy is mounted on its server (as a Next.js route or an Express path would be). */
const PROXY_PREFIX = '/api/oxen';

let harness: Harness;
let api: LocalServer;
let proxy: TestServer;
let noCors: TestServer;
const pages: Record<'direct' | 'proxy', TestPage | undefined> = { direct: undefined, proxy: undefined };

beforeAll(async () => {
  api = await startServer();
  noCors = await startNoCorsServer();
  harness = await startHarness();
  proxy = await serveFetchHandler(
    createProxyHandler({
      apiKey: KEY,
      baseUrl: api.url,
      pathPrefix: PROXY_PREFIX,
      allowedOrigins: [harness.pageServer.url],
    }),
  );
  pages.direct = await harness.openPage();
  pages.proxy = await harness.openPage();
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await Promise.all([api?.close(), proxy?.close(), noCors?.close()]);
}, 60_000);

function expectError<T>(outcome: Outcome<T>): ErrorInfo {
  if (outcome.ok) throw new Error(`expected an error, got ${JSON.stringify(outcome.value).slice(0, 300)}`);
  return outcome.error;
}

function expectValue<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected a result, got ${outcome.error.name}: ${outcome.error.message}`);
  return outcome.value;
}

/** Console errors that are not an HTTP error status the page expected (e.g. the 404 of a reconciled generation). */
function unexpectedConsoleErrors(page: TestPage): string[] {
  return page.consoleErrors.filter(
    (m) => !/^Failed to load resource: the server responded with a status of 404/.test(m),
  );
}

describe('the test page', () => {
  it('is served with script-src self, which refuses eval in it (and the page records the violation)', async () => {
    const page = await harness.openPage();
    const response = await fetch(harness.pageServer.url + '/');
    expect(response.headers.get('content-security-policy')).toBe("script-src 'self'");
    expect(await page.run('evalProbe')).toBe('EvalError');
    await expect.poll(async () => (await page.violations()).map((v) => v.blockedURI)).toContain('eval');
  });

  it('holds no API key in its HTML or bundle', () => {
    expect(harness.servedText()).not.toContain(KEY);
    expect(harness.servedText()).toContain('sdkScenarios');
  });
});

describe.each(['direct', 'proxy'] as const)('in Chromium, %s', (mode) => {
  const target = (): PageTarget =>
    mode === 'direct'
      ? { baseUrl: api.url, apiKey: KEY, dangerouslyAllowBrowser: true }
      : { baseUrl: proxy.url + PROXY_PREFIX };
  const page = (): TestPage => pages[mode]!;

  it('fetches an output into a typed Blob, sending no key to the output host', async () => {
    const { type, bytes } = expectValue(await page().run('imageSavedAsBlob', target()));
    expect(type).toBe('image/png');
    expect(Buffer.from(bytes).equals(FILE_BYTES.image)).toBe(true);
    const file = api.requests.filter((r) => r.path.startsWith('/files/')).at(-1)!;
    expect(file.status).toBe(200);
    expect(file.headerNames).not.toContain('authorization');
  });

  it('logs, runs hooks, gives the Response and follows generations by id, with no key in any log line', async () => {
    const result = expectValue(await page().run('observed', target()));
    expect(result.status).toBe(200);
    expect(result.count).toBeGreaterThanOrEqual(0);
    expect(result.attempts.length).toBeGreaterThanOrEqual(2);
    expect(result.statuses).toContain(200);
    expect(result.lines.some((l) => l.includes('GET /api/ai/queue 200'))).toBe(true);
    for (const line of result.lines) {
      expect(line).not.toContain(KEY);
      expect(line.toLowerCase()).not.toContain('bearer ');
    }
    expect(result.run).toEqual(expect.objectContaining({ status: 'succeeded' }));
    expect(result.persisted).toEqual([result.run!.generation_id]);
    expect(result.followed).toEqual([expect.objectContaining({ generation_id: result.run!.generation_id })]);
  });

  it('generates an image through a per-model function on createTransport', async () => {
    const before = api.count('POST', '/api/ai/images/generate');
    const { urls } = expectValue(await page().run('imagePerModel', target()));
    expect(urls).toHaveLength(1);
    expect(urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(api.count('POST', '/api/ai/images/generate')).toBe(before + 1);
  });

  it('generates an image through the root Client', async () => {
    const before = api.count('POST', '/api/ai/images/generate');
    const { urls } = expectValue(await page().run('imageClient', target()));
    expect(urls).toHaveLength(1);
    expect(api.count('POST', '/api/ai/images/generate')).toBe(before + 1);
  });

  it('refuses an invalid queue.enqueue before sending it (root Client, validator loaded lazily)', async () => {
    const before = api.count('POST', '/api/ai/queue');
    const error = expectError(await page().run('enqueueInvalidClient', target()));
    expect(error.is.ValidationError).toBe(true);
    expect(error.name).toBe('ValidationError');
    const pointers = error.issues!.map((i) => i.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/aspect_ratio', '/num_generations', '/steps']));
    expect(api.count('POST', '/api/ai/queue')).toBe(before);
  });

  it('refuses an invalid per-model enqueue before sending it', async () => {
    const before = api.count('POST', '/api/ai/queue');
    const error = expectError(await page().run('enqueueInvalidPerModel', target()));
    expect(error.is.ValidationError).toBe(true);
    expect(error.issues!.map((i) => i.pointer)).toEqual(expect.arrayContaining(['/prompt', '/output_quality']));
    expect(api.count('POST', '/api/ai/queue')).toBe(before);
  });

  it('follows queue.run to each outcome over the event stream (succeeded, failed, lost, cancelled)', async () => {
    const result = expectValue(await page().run('queueRunOutcomes', target()));
    expect(result.succeeded.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    for (const o of result.succeeded) expect(o.status === 'succeeded' && o.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(result.failed).toEqual([
      expect.objectContaining({ status: 'failed', error: expect.stringContaining('Generation failed') }),
    ]);
    expect(result.lost).toEqual([expect.objectContaining({ status: 'lost', reason: 'vanished' })]);
    expect(result.cancelled).toEqual([expect.objectContaining({ status: 'cancelled' })]);
    expect(result.progress).toEqual(expect.arrayContaining(['subscribed', 'enqueued', 'settled']));
    expect(result.streamAfter).toBe('idle');
  });

  it('follows a per-model <model>Run on a bare transport', async () => {
    const result = expectValue(await page().run('queueRunPerModel', target()));
    expect(result.succeeded.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    expect(result.cancelled).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  });

  it('streams a chat completion', async () => {
    const { deltas, finish } = expectValue(await page().run('chatStream', target()));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Echo: hello from the browser');
    expect(finish.at(-1)).toBe('stop');
  });

  it('cancels a call in flight with an AbortSignal (AbortError, not resent)', async () => {
    api.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: 'hang' });
    const before = api.count('POST', '/api/ai/images/generate');
    const id = `abort-${mode}`;
    expect(await page().run('startAbortable', target(), id)).toBe(true);
    await expect.poll(() => api.count('POST', '/api/ai/images/generate'), { timeout: 10_000 }).toBe(before + 1);
    expect(await page().run('abort', id)).toBe(true);
    const error = expectError(await page().run('settle', id));
    expect(error.is.AbortError).toBe(true);
    expect(error.name).toBe('AbortError');
    expect(api.count('POST', '/api/ai/images/generate')).toBe(before + 1);
  });

  it('an error answer keeps its classes, fields and toJSON in the browser build, which has no util.inspect hook', async () => {
    const forms = (await page().run('errorForms', target()))!;
    expect(forms).not.toBeNull();
    expect(forms.classes).toEqual([true, true, true]);
    expect(forms.fields).toEqual({
      name: 'NotFoundError',
      status: 404,
      request: { method: 'GET', path: '/api/ai/queue/no-such-generation' },
      headers: true,
    });
    expect(forms.json).toMatchObject({
      name: 'NotFoundError',
      message: expect.any(String),
      status: 404,
      request: { method: 'GET', path: '/api/ai/queue/no-such-generation' },
      headers: expect.objectContaining({ 'content-type': expect.stringContaining('json') }),
    });
    expect(forms.stringified).toEqual(forms.json);
    // runtime/internal/inspect.browser.ts: the page's bundle has no Node inspect hook
    expect(forms.hasInspectHook).toBe(false);
  });

  it('ran without a CSP violation or an uncaught error', async () => {
    expect(await page().violations()).toEqual([]);
    expect(page().pageErrors).toEqual([]);
    expect(unexpectedConsoleErrors(page())).toEqual([]);
  });
});

describe('through the proxy', () => {
  it('the page sent no key; the proxy added it', () => {
    expect(proxy.count('POST', `${PROXY_PREFIX}/api/ai/images/generate`)).toBeGreaterThanOrEqual(3);
    expect(proxy.count('GET', `${PROXY_PREFIX}/api/events`)).toBeGreaterThanOrEqual(1);
    expect(proxy.requests.filter((r) => r.authorization)).toEqual([]);
    expect(proxy.requests.every((r) => r.origin === harness.pageServer.url)).toBe(true);
  });
});

describe('in Chromium, keys and cross-origin failures', () => {
  it('refuses an apiKey without dangerouslyAllowBrowser, with the documented error', async () => {
    const page = await harness.openPage();
    const result = await page.run('refuseKey', { baseUrl: api.url, apiKey: 'sk-visible-to-visitors' });
    for (const error of [result.client, result.transport]) {
      expect(error).not.toBeNull();
      expect(error!.is.SDKError).toBe(true);
      expect(error!.message).toMatch(/dangerouslyAllowBrowser: true/);
      expect(error!.message).toMatch(/createProxyHandler/);
      expect(error!.message).not.toContain('sk-visible-to-visitors');
    }
    expect(result.allowed).toBeNull();
    expect(result.noKey).toBeNull();
  });

  it('reports a call a server without CORS refused as possibly blocked by CORS, and does not resend it', async () => {
    const page = await harness.openPage();
    const error = expectError(
      await page.run('imagePerModel', { baseUrl: noCors.url, apiKey: 'sk-local-tool', dangerouslyAllowBrowser: true }),
    );
    expect(error.is.SDKError).toBe(true);
    expect(error.message).toMatch(/CORS/);
    expect(error.message).toMatch(/may have been processed/);
    const connection = error.is.ConnectionError ? error : error.cause;
    expect(connection?.name).toBe('ConnectionError');
    expect(connection?.notSent).toBe(false);
    // One preflight, refused; the POST never left the browser, and nothing was sent again.
    expect(noCors.count('OPTIONS', '/api/ai/images/generate')).toBe(1);
    expect(noCors.count('POST', '/')).toBe(0);
    expect(await page.violations()).toEqual([]);
  });
});
