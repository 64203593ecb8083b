// The local server's options for users' tests (what `oxen-inference-codegen serve` turns on): any key, several
// model directories, a failure rate, dropped event streams; and the command line's flags (fake-service/cli.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startServer, type LocalServer, type LocalServerOptions } from '../fake-service/index.ts';
import { serverFlagValues } from '../fake-service/cli.ts';
import { REPO_ROOT, tempDir, until } from './support/index.ts';

const PACKAGE_MODELS = path.join(REPO_ROOT, 'specs', 'models');
let server: LocalServer | undefined;
const tmp = tempDir('inference-sdk-server-options-');

afterAll(() => tmp.remove());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: LocalServerOptions): Promise<LocalServer> {
  server = await startServer(options);
  return server;
}

const get = (s: LocalServer, p: string, key?: string) =>
  fetch(s.url + p, { headers: key === undefined ? {} : { Authorization: `Bearer ${key}` } });

/** The statuses of `ids` once none is queued or processing (today's queue keeps ended generations). */
async function settle(s: LocalServer, ids: string[]): Promise<string[]> {
  const status = async (id: string) =>
    ((await (await get(s, `/api/ai/queue/${id}`, 'test-key')).json()) as { status: string }).status;
  let last: string[] = [];
  for (let i = 0; i < 200; i++) {
    last = await Promise.all(ids.map(status));
    if (last.every((x) => x !== 'queued' && x !== 'processing')) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`still active: ${last.join(', ')}`);
}

describe('LocalServerOptions for users', () => {
  it('anyKey accepts every non-empty key as the first user, and still answers 401 without one', async () => {
    const s = await start({ anyKey: true, modelsDir: PACKAGE_MODELS });
    expect((await get(s, '/api/ai/models/flux-1-dev', 'anything-at-all')).status).toBe(200);
    expect((await get(s, '/api/ai/models/flux-1-dev')).status).toBe(401);
    expect((await get(s, '/api/ai/models/flux-1-dev', ' ')).status).toBe(401);
    // as alice: her namespace is where her generations go
    const res = await fetch(`${s.url}/api/ai/queue`, {
      method: 'POST',
      headers: { Authorization: 'Bearer other', 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'flux-1-dev', prompt: 'x [hold]' }),
    });
    expect(res.status).toBe(200);
    expect(s.queue.list().map((g) => g['namespace'])).toEqual(['alice']);
  });

  it('without anyKey, only the configured keys are accepted', async () => {
    const s = await start({ modelsDir: PACKAGE_MODELS });
    expect((await get(s, '/api/ai/models/flux-1-dev', 'other')).status).toBe(401);
    expect((await get(s, '/api/ai/models/flux-1-dev', 'test-key')).status).toBe(200);
  });

  it('several model directories: all are served, a later one replaces a model of the same id', async () => {
    const mine = path.join(tmp.dir, 'mine');
    mkdirSync(mine, { recursive: true });
    const flux = JSON.parse(readFileSync(path.join(PACKAGE_MODELS, 'flux-1-dev.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(path.join(mine, 'flux-1-dev.json'), JSON.stringify({ ...flux, display_name: 'Mine' }));
    writeFileSync(path.join(mine, 'acme-new.json'), JSON.stringify({ ...flux, id: 'acme-new' }));
    const s = await start({ modelsDir: [PACKAGE_MODELS, mine] });
    const name = async (id: string) =>
      ((await (await get(s, `/api/ai/models/${id}`, 'test-key')).json()) as { display_name: string }).display_name;
    expect(await name('flux-1-dev')).toBe('Mine');
    expect(await name('acme-new')).toBe(flux['display_name']);
    expect((await get(s, '/api/ai/models/gpt-4o-mini', 'test-key')).status).toBe(200);
  });

  it('failureRate 1 fails every queued generation; the default fails none', async () => {
    const failing = await start({ modelsDir: PACKAGE_MODELS, workerDelayMs: 1, failureRate: 1 });
    expect(new Set(await settle(failing, failing.queue.add(4)))).toEqual(new Set(['failed']));
    await failing.close();
    const fine = await start({ modelsDir: PACKAGE_MODELS, workerDelayMs: 1 });
    expect(new Set(await settle(fine, fine.queue.add(4)))).toEqual(new Set(['succeeded']));
  });

  it('failureRate and dropStreamsMs out of range are refused', async () => {
    await expect(startServer({ modelsDir: PACKAGE_MODELS, failureRate: 1.5 })).rejects.toThrow(RangeError);
    await expect(startServer({ modelsDir: PACKAGE_MODELS, dropStreamsMs: -1 })).rejects.toThrow(RangeError);
  });

  it('dropStreamsMs drops an open event stream, again after a reconnection', async () => {
    const s = await start({ modelsDir: PACKAGE_MODELS, dropStreamsMs: 100 });
    for (let i = 0; i < 2; i++) {
      const res = await get(s, '/api/events', 'test-key');
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      // the stream ends in an error (or an end) once dropped; generous bound, the drop is every 100 ms
      const ended = (async () => {
        for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return true;
      })();
      const timeout = new Promise<false>((r) => setTimeout(() => r(false), 5_000));
      expect(await Promise.race([ended, timeout])).toBe(true);
    }
  });

  it('without dropStreamsMs an open stream stays open', async () => {
    const s = await start({ modelsDir: PACKAGE_MODELS, keepAliveMs: 20 });
    const res = await get(s, '/api/events', 'test-key');
    const reader = res.body!.getReader();
    // keep-alive comments keep arriving on the one stream: it was not dropped
    let chunks = 0;
    let ended = false;
    void (async () => {
      for (;;) {
        const r = await reader.read().catch(() => ({ done: true }));
        if (r.done) return void (ended = true);
        chunks++;
      }
    })();
    await until(() => chunks >= 5 || ended, 5_000);
    expect(ended).toBe(false);
    await reader.cancel();
  });
});

describe('the command line flags (fake-service/cli.ts)', () => {
  it('reads each flag into LocalServerOptions', () => {
    expect(
      serverFlagValues({
        port: '0',
        'worker-delay-ms': '5',
        'keep-alive-ms': '1000',
        'failure-rate': '0.25',
        'drop-streams-ms': '2000',
        'queue-mode': '0.224.2',
        log: true,
      }),
    ).toEqual({
      port: 0,
      workerDelayMs: 5,
      keepAliveMs: 1000,
      failureRate: 0.25,
      dropStreamsMs: 2000,
      queueMode: '0.224.2',
      log: true,
    });
    expect(serverFlagValues({})).toEqual({});
  });

  it.each([
    [{ port: '65536' }, '--port needs an integer from 0 to 65535, got "65536"'],
    [{ port: '-1' }, '--port needs an integer from 0 to 65535, got "-1"'],
    [{ 'worker-delay-ms': '1.5' }, '--worker-delay-ms needs an integer from 0'],
    [{ 'failure-rate': '1.01' }, '--failure-rate needs a number from 0 to 1, got "1.01"'],
    [{ 'failure-rate': 'half' }, '--failure-rate needs a number from 0 to 1, got "half"'],
    [{ 'queue-mode': 'tomorrow' }, '--queue-mode needs today or 0.224.2, got tomorrow'],
  ])('refuses %j', (values, problem) => {
    const r = serverFlagValues(values);
    expect(typeof r).toBe('string');
    expect(r as string).toContain(problem);
  });
});
