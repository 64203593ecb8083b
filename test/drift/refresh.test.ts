// `npm run generate -- --refresh / --add / --remove` against the local server, on temporary copies
// of specs/ and generated/: success (snapshot and generated/ updated, drift report printed), all or
// nothing on faults (byte-identical trees, every failed id named), rollback after a failed write,
// http:// refused off loopback, and the API key never written or printed.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { GenerateOptions, GenerateResult } from '../../generator/index.ts';
import { checkBaseUrl, fetchModels, refresh, RefreshError, reindentJson } from '../../generator/refresh/index.ts';
import { driftExitCode } from '../../generator/drift/index.ts';
import { EXIT } from '../../generator/cli/exit-codes.ts';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { hashTree } from '../support/index.ts';
import {
  cleanupTemp,
  copySpecs,
  editModel,
  FAKE_KEY,
  filesContaining,
  readList,
  readModel,
  runScript,
  REPO_SPECS,
  schemaOf,
  SERVER_USERS,
  scratchDir,
  smallWorkspace,
  writeModel,
} from './helpers.ts';

const CHANGED = 'flux-2-pro';
const ADDED = 'flux-2-pro-extra'; // served, not in the snapshot
const REMOVED = 'wan-v3-0-video';
const BAD_OBJECT = 'bad-model'; // served under this name with another id inside

let server: LocalServer;
let served: string; // the server's models directory
let servedChanged: string; // the bytes the server sends for CHANGED

beforeAll(async () => {
  served = path.join(copySpecs(scratchDir()), 'models');
  editModel(served, CHANGED, (m) => {
    schemaOf(m).properties['num_inference_steps']!['maximum'] = 40;
    schemaOf(m).properties['style'] = { type: 'string', description: 'new optional parameter' };
  });
  // served minified: the snapshot must hold it re-indented, literals as sent
  writeModel(served, readModel(served, CHANGED), { minified: true });
  servedChanged = readFileSync(path.join(served, `${CHANGED}.json`), 'utf8');
  writeModel(served, { ...readModel(served, CHANGED), id: ADDED });
  writeModel(served, { ...readModel(served, CHANGED), id: 'not-the-bad-model' }, { file: BAD_OBJECT });
  server = await startServer({ modelsDir: served, users: SERVER_USERS });
});
afterEach(() => server.faults.clear());
afterAll(async () => {
  await server?.close();
  cleanupTemp();
});

/** A workspace: `<dir>/specs` (copy of the repo's) and `<dir>/generated` (copy of the repo's). */
function workspace(): { dir: string; specs: string; generated: string } {
  const dir = scratchDir();
  const specs = copySpecs(dir, { generated: true });
  return { dir, specs, generated: path.join(dir, 'generated') };
}

const sink = () => {
  let text = '';
  const stream = new Writable({ write: (chunk: Buffer, _enc, cb) => ((text += chunk.toString()), cb()) });
  return { stream, text: () => text };
};

/** A stand-in for `generate` (the real one takes seconds): records its calls. */
/** A generate that records its calls and outputs the tree already in `<outRoot>/generated` (plus `extra` files). */
function fakeGenerate(extra: Record<string, string> = {}) {
  const calls: GenerateOptions[] = [];
  const fn = async (o: GenerateOptions): Promise<GenerateResult> => {
    calls.push(o);
    const dir = path.join(o.outRoot!, 'generated');
    const files = new Map(
      Object.keys(hashTree(dir)).map((f) => [
        `generated/${f.split(path.sep).join('/')}`,
        readFileSync(path.join(dir, f), 'utf8'),
      ]),
    );
    for (const [f, text] of Object.entries(extra)) files.set(f, text);
    return {
      added: [],
      changed: [],
      removed: [],
      unchanged: 0,
      notes: [],
      files,
      models: 0,
      rebuilt: [],
      laidOut: [],
      operations: new Map(),
    };
  };
  return { fn, calls };
}

describe('npm run generate -- --refresh (child process)', () => {
  test('success: snapshot files as fetched, models.json maintained, generated/ updated, drift report printed', async () => {
    // a snapshot of four (the first two of the repository's, the changed and the removed one) and its
    // generated/, made in place: the run rebuilds only what the refresh changes
    const all = readList(REPO_SPECS);
    const { dir, specs } = await smallWorkspace([...new Set([all[0]!, all[1]!, CHANGED, REMOVED])].sort());
    const ws = { dir, specs, generated: path.join(dir, 'generated') };
    const before = hashTree(ws.specs);
    const listed = readList(ws.specs);
    // one transient failure each: the runtime's retries must absorb them
    server.faults.add({ path: `/api/ai/models/${listed[0]}`, kind: '500', times: 1 });
    server.faults.add({ path: `/api/ai/models/${listed[1]}`, kind: '429', times: 1, retryAfterSeconds: 0 });
    const start = server.requests.length;

    const r = await runScript(
      'generate.ts',
      [
        '--refresh',
        '--add',
        ADDED,
        '--remove',
        REMOVED,
        '--specs',
        ws.specs,
        '--out',
        ws.dir,
        '--base-url',
        server.url,
      ],
      { OXEN_API_KEY: FAKE_KEY },
    );
    // a narrowed range and a removed model break: the refresh is written, and exits 2 (exit-codes.ts)
    expect(r.code, r.stderr).toBe(EXIT.breaking);

    // fetched: every listed id but the removed one, plus the added one; the two faulty ones twice
    const fetched = server.requests.slice(start).map((q) => q.path.replace('/api/ai/models/', ''));
    expect(new Set(fetched)).toEqual(new Set([...listed.filter((id) => id !== REMOVED), ADDED]));
    expect(fetched.filter((id) => id === listed[0])).toHaveLength(2);
    expect(fetched.filter((id) => id === listed[1])).toHaveLength(2);

    // models.json: sorted, no duplicates, added and removed
    const list = readList(ws.specs);
    expect(list).toEqual([...new Set(list)].sort());
    expect(list).toContain(ADDED);
    expect(list).not.toContain(REMOVED);
    // snapshot files: as the server sent them, re-indented; unchanged ones untouched; the removed one gone
    expect(readFileSync(path.join(ws.specs, 'models', `${CHANGED}.json`), 'utf8')).toBe(
      `${reindentJson(servedChanged)}\n`,
    );
    expect(readFileSync(path.join(ws.specs, 'models', `${ADDED}.json`), 'utf8')).toBe(
      readFileSync(path.join(served, `${ADDED}.json`), 'utf8'),
    );
    expect(existsSync(path.join(ws.specs, 'models', `${REMOVED}.json`))).toBe(false);
    const after = hashTree(ws.specs);
    const touched = Object.keys(after)
      .filter((f) => after[f] !== before[f])
      .sort();
    expect(touched).toEqual(['models.json', `models/${ADDED}.json`, `models/${CHANGED}.json`]);
    // generated/: the changed model has its new parameter, the added one its module, the removed one none
    expect(readFileSync(path.join(ws.generated, 'models', `${CHANGED}.ts`), 'utf8')).toContain('style?: string');
    expect(existsSync(path.join(ws.generated, 'models', `${ADDED}.ts`))).toBe(true);
    expect(existsSync(path.join(ws.generated, 'models', `${REMOVED}.ts`))).toBe(false);

    // the report, on stdout
    expect(r.stdout).toMatch(
      /^refresh: \d+ models fetched from http:\/\/127\.0\.0\.1:\d+, added flux-2-pro-extra, removed wan-v3-0-video; 3 snapshot files written, 1 deleted/,
    );
    expect(r.stdout).toContain(
      'Schema drift: 2 breaking, 2 compatible changes (3 models affected: 1 added, 1 removed, 1 changed;',
    );
    expect(r.stdout).toMatch(/BREAKING +num_inference_steps +maximum 50 -> 40: narrowed/);
    expect(r.stdout).toMatch(/compatible +style +parameter added \(optional, string\)/);
    expect(r.stdout).toMatch(/flux-2-pro-extra \(added[^\n]*\n +compatible +\(model\) +model added/);
    expect(r.stdout).toMatch(/wan-v3-0-video \(removed[^\n]*\n +BREAKING +\(model\) +model removed/);
    // progress: plain lines (stderr is not a terminal here)
    expect(r.stderr).toMatch(/refresh: \[1\/\d+\] ok /);

    // the key: nowhere
    expect(r.stdout + r.stderr).not.toContain(FAKE_KEY);
    expect(filesContaining(ws.dir, FAKE_KEY)).toEqual([]);
  }, 60_000);

  test('faults (500 every time, hang past --timeout-ms, invalid JSON, 404, invalid object): nothing written, every failed id named', async () => {
    const ws = workspace();
    const specsBefore = hashTree(ws.specs);
    const generatedBefore = hashTree(ws.generated);
    const [a, b, c, d] = readList(ws.specs).slice(3, 7) as [string, string, string, string];
    server.faults.add({ path: `/api/ai/models/${a}`, kind: '500', times: Infinity });
    server.faults.add({ path: `/api/ai/models/${b}`, kind: 'hang', times: Infinity });
    server.faults.add({ path: `/api/ai/models/${c}`, kind: 'invalid-json', times: Infinity });
    server.faults.add({ path: `/api/ai/models/${d}`, kind: '404', times: Infinity });

    const r = await runScript(
      'generate.ts',
      [
        '--refresh',
        '--add',
        BAD_OBJECT,
        '--specs',
        ws.specs,
        '--out',
        ws.dir,
        '--base-url',
        server.url,
        // the limit covers both attempts of the 500, the backoff between them and the first load of the retry
        // code (seconds under tsx on a loaded machine)
        '--timeout-ms',
        '6000',
        '--retries',
        '1',
      ],
      { OXEN_API_KEY: FAKE_KEY },
    );
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain('refresh failed, nothing was written: 5 of');
    const failure = (id: string) =>
      r.stderr.split('\n').find((l) => l.startsWith(`  ${id} `)) ?? `(no failure line for ${id})`;
    expect(failure(a)).toMatch(/HTTP 500: Internal server error \(2 attempts\)/);
    expect(failure(b)).toMatch(/timed out after 6000 ms/);
    expect(failure(c)).toMatch(/invalid JSON/);
    expect(failure(d)).toMatch(/HTTP 404/);
    expect(failure(BAD_OBJECT)).toMatch(/invalid model object at \/id: id is "not-the-bad-model"/);
    expect(server.count('GET', `/api/ai/models/${a}`)).toBeGreaterThanOrEqual(2); // retried

    expect(hashTree(ws.specs)).toEqual(specsBefore);
    expect(hashTree(ws.generated)).toEqual(generatedBefore);
    expect(readdirSync(ws.dir).sort()).toEqual(['generated', 'specs']);
    expect(r.stdout + r.stderr).not.toContain(FAKE_KEY);
  }, 30_000);

  test('a wrong key: stops at the first 401 (at most --concurrency requests), one line without the key, nothing written, exit 3', async () => {
    const ws = workspace();
    const before = { ...hashTree(ws.specs), ...hashTree(ws.generated) };
    const wrongKey = 'sk-WRONG-drift-0a1b2c3d4e5f';
    const start = server.requests.length;
    const r = await runScript(
      'generate.ts',
      ['--refresh', '--concurrency', '4', '--specs', ws.specs, '--out', ws.dir, '--base-url', server.url],
      { OXEN_API_KEY: wrongKey },
    );
    expect(r.code).toBe(EXIT.failed);
    const fetches = server.requests.slice(start).filter((q) => q.path.startsWith('/api/ai/models/'));
    expect(fetches.length).toBeGreaterThanOrEqual(1);
    expect(fetches.length).toBeLessThanOrEqual(4); // of 111 listed models
    expect(fetches.every((q) => q.status === 401 || q.status === 0)).toBe(true);
    // one clear line, said once, with no per-model 401 lines
    const out = r.stdout + r.stderr;
    expect(out.match(/rejected the API key \(HTTP 401\)/g)).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^refresh failed, nothing was written: the service rejected the API key \(HTTP 401\) when fetching [^\n]+ Check OXEN_API_KEY[^\n]*stopped at the first 401, so no other model was fetched$/m,
    );
    expect(out).not.toMatch(/FAILED/);
    expect(out).not.toContain(wrongKey);
    expect(filesContaining(ws.dir, wrongKey)).toEqual([]);
    expect({ ...hashTree(ws.specs), ...hashTree(ws.generated) }).toEqual(before);
    expect(readdirSync(ws.dir).sort()).toEqual(['generated', 'specs']);
  }, 30_000);

  test('no key, plain http:// off loopback, bad flags: exit 3 before any request, nothing written', async () => {
    const ws = workspace();
    const before = { ...hashTree(ws.specs), ...hashTree(ws.generated) };
    const start = server.requests.length;
    const [noKey, addNoKey, insecure, badConcurrency] = await Promise.all([
      runScript('generate.ts', ['--refresh', '--specs', ws.specs, '--out', ws.dir, '--base-url', server.url]),
      runScript('generate.ts', ['--add', ADDED, '--specs', ws.specs, '--out', ws.dir, '--base-url', server.url]),
      runScript(
        'generate.ts',
        ['--refresh', '--specs', ws.specs, '--out', ws.dir, '--base-url', 'http://example.com'],
        { OXEN_API_KEY: FAKE_KEY },
      ),
      runScript('generate.ts', ['--refresh', '--concurrency', '0', '--specs', ws.specs, '--out', ws.dir], {
        OXEN_API_KEY: FAKE_KEY,
      }),
    ]);
    expect(noKey.code).toBe(EXIT.failed);
    expect(noKey.stderr).toContain('OXEN_API_KEY is not set');
    expect(addNoKey.code).toBe(EXIT.failed);
    expect(addNoKey.stderr).toContain('OXEN_API_KEY is not set');
    expect(insecure.code).toBe(EXIT.failed);
    expect(insecure.stderr).toContain('refusing plain http:// to example.com');
    expect(badConcurrency.code).toBe(EXIT.failed);
    expect(badConcurrency.stderr).toContain('--concurrency needs an integer >= 1');
    for (const x of [noKey, addNoKey, insecure, badConcurrency]) expect(x.stdout + x.stderr).not.toContain(FAKE_KEY);
    expect(server.requests.length).toBe(start);
    expect({ ...hashTree(ws.specs), ...hashTree(ws.generated) }).toEqual(before);
  }, 30_000);
});

describe('refresh() (in process, generate replaced)', () => {
  const common = () => ({
    baseUrl: server.url,
    apiKey: FAKE_KEY,
    progress: 'none' as const,
    stream: sink().stream,
    retryBaseDelayMs: 10,
  });

  test('--add fetches only the added id, keeps models.json sorted; the new snapshot is proved before the real run', async () => {
    const ws = workspace();
    const gen = fakeGenerate();
    const start = server.requests.length;
    const r = await refresh({
      ...common(),
      specsDir: ws.specs,
      outRoot: ws.dir,
      add: [ADDED, ADDED],
      generate: gen.fn,
    });
    expect(server.requests.slice(start).map((q) => q.path)).toEqual([`/api/ai/models/${ADDED}`]);
    expect(r.written).toEqual(['models.json', `models/${ADDED}.json`]);
    const list = readList(ws.specs);
    expect(list).toEqual([...list].sort());
    expect(list.filter((id) => id === ADDED)).toHaveLength(1);
    // one run: the proof on a staged copy, whose output is what the commit writes
    expect(gen.calls.map((c) => c.check ?? false)).toEqual([true]);
    expect(gen.calls[0]!.specsDir).not.toBe(ws.specs);
    expect(r.report.added).toEqual([ADDED]);
    expect(readdirSync(ws.dir).sort()).toEqual(['generated', 'specs']); // no journal, lock or temporary tree left
  });

  test('a model the service no longer serves (404 on its details): kept as it was, reported as breaking, the others refreshed', async () => {
    const GONE = 'flux-1-dev';
    const gone = await startServer({ modelsDir: served, users: SERVER_USERS });
    try {
      expect(gone.removeModel(GONE)).toBe(true);
      const ws = workspace();
      const keptBytes = readFileSync(path.join(ws.specs, 'models', `${GONE}.json`));
      const gen = fakeGenerate();
      const out = sink();
      const r = await refresh({
        ...common(),
        baseUrl: gone.url,
        stream: out.stream,
        specsDir: ws.specs,
        outRoot: ws.dir,
        all: true,
        generate: gen.fn,
      });
      expect(gone.count('GET', `/api/ai/models/${GONE}`)).toBe(1); // a 404 is not retried
      expect(r.notServed).toEqual([GONE]);
      expect(readList(ws.specs)).toContain(GONE);
      expect(readFileSync(path.join(ws.specs, 'models', `${GONE}.json`))).toEqual(keptBytes);
      expect(r.written).toContain(`models/${CHANGED}.json`); // the others refreshed
      expect(readFileSync(path.join(ws.specs, 'models', `${CHANGED}.json`), 'utf8')).toBe(
        reindentJson(servedChanged.trim()) + '\n',
      );
      expect(r.report.changes.filter((c) => c.model === GONE)).toEqual([
        expect.objectContaining({
          kind: 'model-removed',
          severity: 'breaking',
          message: expect.stringMatching(/no longer served \(HTTP 404/),
        }),
      ]);
      expect(r.report.removed).toEqual([GONE]);
      expect(driftExitCode(r.report)).toBe(EXIT.breaking);
      expect(out.text()).toMatch(new RegExp(`1 model no longer served \\(HTTP 404\\), kept in the snapshot: ${GONE}`));
    } finally {
      await gone.close();
    }
  });

  test('an id to add that the service does not serve (404) is a failure: nothing written', async () => {
    const ws = workspace();
    const before = hashTree(ws.specs);
    const err = await refresh({
      ...common(),
      specsDir: ws.specs,
      outRoot: ws.dir,
      add: ['no-such-model'],
      generate: fakeGenerate().fn,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RefreshError);
    expect((err as RefreshError).failures).toEqual([expect.objectContaining({ id: 'no-such-model', notFound: true })]);
    expect(hashTree(ws.specs)).toEqual(before);
  });

  test('nothing changed: no file written, no proof run, one plain generate, an empty report', async () => {
    const ws = workspace();
    const before = hashTree(ws.specs);
    const gen = fakeGenerate();
    const r = await refresh({ ...common(), specsDir: ws.specs, outRoot: ws.dir, add: [REMOVED], generate: gen.fn }); // already listed, served unchanged
    expect(r.written).toEqual([]);
    expect(r.report.changes).toEqual([]);
    expect(gen.calls.map((c) => c.check ?? false)).toEqual([false]);
    expect(hashTree(ws.specs)).toEqual(before);
  });

  test('--remove needs no key, deletes the snapshot file, and regenerates', async () => {
    const ws = workspace();
    const gen = fakeGenerate();
    const r = await refresh({
      specsDir: ws.specs,
      outRoot: ws.dir,
      remove: [REMOVED],
      generate: gen.fn,
      stream: sink().stream,
    });
    expect(r.deleted).toEqual([`models/${REMOVED}.json`]);
    expect(readList(ws.specs)).not.toContain(REMOVED);
    expect(existsSync(path.join(ws.specs, 'models', `${REMOVED}.json`))).toBe(false);
    expect(r.report.removed).toEqual([REMOVED]);
    expect(r.report.breaking).toBe(1);
    expect(gen.calls).toHaveLength(1);
  });

  test('a failure while the new trees are built leaves every snapshot file and generated/ byte for byte, with no temporary tree', async () => {
    const ws = workspace();
    const before = { specs: hashTree(ws.specs), generated: hashTree(ws.generated) };
    const gen = fakeGenerate({ 'outside/x.ts': 'a file the write stage must refuse' });
    const err = await refresh({
      ...common(),
      specsDir: ws.specs,
      outRoot: ws.dir,
      all: true,
      add: [ADDED],
      remove: [REMOVED],
      generate: gen.fn,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RefreshError);
    expect((err as RefreshError).restored).toBe(true);
    expect((err as Error).message).toContain('the previous snapshot and generated/ are unchanged');
    expect((err as Error).message).toContain('outside generated/');
    expect(hashTree(ws.specs)).toEqual(before.specs);
    expect(hashTree(ws.generated)).toEqual(before.generated);
    expect(readdirSync(ws.dir).sort()).toEqual(['generated', 'specs']);
  });

  test('a new snapshot that does not generate: nothing written', async () => {
    const ws = workspace();
    const before = hashTree(ws.specs);
    const gen = async (o: GenerateOptions): Promise<GenerateResult> => {
      throw new Error(`cannot generate ${o.check ? 'staged' : 'real'}`);
    };
    const err = await refresh({ ...common(), specsDir: ws.specs, outRoot: ws.dir, add: [ADDED], generate: gen }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(
      /nothing was written: the refreshed snapshot does not generate: cannot generate staged/,
    );
    expect(hashTree(ws.specs)).toEqual(before);
  });

  test('argument errors: unknown --remove, add and remove of one id, an id naming another path', async () => {
    const ws = workspace();
    const opts = { specsDir: ws.specs, outRoot: ws.dir, generate: fakeGenerate().fn, stream: sink().stream };
    await expect(refresh({ ...opts, remove: ['no-such-model'] })).rejects.toThrow(
      /cannot remove no-such-model: it is not listed/,
    );
    await expect(refresh({ ...opts, add: [ADDED], remove: [ADDED] })).rejects.toThrow(/cannot both add and remove/);
    await expect(refresh({ ...opts, add: ['../evil'] })).rejects.toThrow(/invalid model id/);
    await expect(refresh({ ...opts })).rejects.toThrow(/nothing to do/);
  });

  test('a response that echoes the key is refused, and the key is redacted from reasons', async () => {
    const dir = scratchDir();
    const models = path.join(dir, 'models');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(models);
    writeModel(models, { ...readModel(served, CHANGED), description: `leaked ${FAKE_KEY}` });
    const echo = await startServer({ modelsDir: models, users: SERVER_USERS });
    try {
      const ws = workspace();
      const err = (await refresh({
        ...common(),
        baseUrl: echo.url,
        specsDir: ws.specs,
        outRoot: ws.dir,
        add: [CHANGED],
        generate: fakeGenerate().fn,
      }).catch((e: unknown) => e)) as RefreshError;
      expect(err.failures.map((f) => f.id)).toEqual([CHANGED]);
      expect(err.failures[0]!.reason).toContain('contains the API key');
      expect(err.message).not.toContain(FAKE_KEY);
      expect(filesContaining(ws.dir, FAKE_KEY)).toEqual([]);
    } finally {
      await echo.close();
    }
  });
});

test('fetchModels keeps at most --concurrency requests in flight', async () => {
  const ids = readList(path.dirname(served)).slice(0, 24);
  let inFlight = 0;
  let most = 0;
  const counting: typeof fetch = async (input, init) => {
    inFlight++;
    most = Math.max(most, inFlight);
    try {
      await new Promise((r) => setTimeout(r, 5));
      return await fetch(input, init);
    } finally {
      inFlight--;
    }
  };
  const r = await fetchModels(ids, {
    baseUrl: server.url,
    apiKey: FAKE_KEY,
    concurrency: 3,
    progress: 'none',
    fetch: counting,
  });
  expect(r.failures).toEqual([]);
  expect(r.models.size).toBe(24);
  expect(most).toBe(3);
});

test('fetchModels stops at the first 403: the requests in flight are cancelled, no other is sent, one RefreshError', async () => {
  // The local server answers 401 for a wrong key; a 403 needs a server of its own (node:http on 127.0.0.1).
  const { createServer } = await import('node:http');
  let received = 0;
  let answered = 0;
  const forbidden = createServer((req, res) => {
    received++;
    const answer = () => {
      answered++;
      res
        .writeHead(403, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ error: { type: 'forbidden', message: 'Key lacks the models scope' } }));
    };
    // the others are slow to answer, so that cancelling them is observable
    if (received === 1) answer();
    else setTimeout(answer, 5000).unref();
  });
  await new Promise<void>((r) => forbidden.listen(0, '127.0.0.1', r));
  const { port } = forbidden.address() as { port: number };
  try {
    const out = sink();
    const ids = readList(path.dirname(served)).slice(0, 40);
    const err = (await fetchModels(ids, {
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: FAKE_KEY,
      concurrency: 3,
      maxRetries: 2,
      progress: 'lines',
      stream: out.stream,
    }).catch((e: unknown) => e)) as RefreshError;
    expect(err).toBeInstanceOf(RefreshError);
    expect(err.authFailure).toBe(true);
    expect(err.message).toMatch(
      /^the service denied the API key access \(HTTP 403\) when fetching [^:]+: .*Key lacks the models scope.*stopped at the first 403, so no other model was fetched$/,
    );
    expect(err.failures).toHaveLength(1);
    expect(received).toBeLessThanOrEqual(3);
    expect(answered).toBe(1); // the requests in flight were cancelled, not waited for
    expect(out.text()).not.toContain('FAILED');
    expect(err.message + out.text()).not.toContain(FAKE_KEY);
  } finally {
    forbidden.closeAllConnections();
    await new Promise((r) => forbidden.close(r));
  }
});

test('checkBaseUrl: https anywhere, http only to loopback', () => {
  for (const ok of [
    'https://hub.oxen.ai',
    'https://hub.oxen.ai/',
    'http://127.0.0.1:8080',
    'http://127.9.8.7',
    'http://localhost:3000',
    'http://[::1]:9000',
    'HTTP://LOCALHOST',
  ]) {
    expect(() => checkBaseUrl(ok), ok).not.toThrow();
  }
  for (const bad of [
    'http://example.com',
    'http://10.0.0.1',
    'http://127.0.0.1.nip.io',
    'http://localhost.evil.com',
    'http://[::2]',
    'ftp://localhost',
    'not a url',
    'https://user:pw@hub.oxen.ai',
  ]) {
    expect(() => checkBaseUrl(bad), bad).toThrow(RefreshError);
  }
  expect(checkBaseUrl('https://hub.oxen.ai/')).toBe('https://hub.oxen.ai');
});

test('reindentJson keeps literals as sent and matches JSON.stringify layout', () => {
  const sent = '{"b":1.0,"a":[],"c":{"x":"\\u00e9\\"","y":[1,{}]},"10":12345678901234567890}';
  expect(reindentJson(sent)).toBe(
    '{\n  "b": 1.0,\n  "a": [],\n  "c": {\n    "x": "\\u00e9\\"",\n    "y": [\n      1,\n      {}\n    ]\n  },\n  "10": 12345678901234567890\n}',
  );
  const plain = '{"a":[1,2,{"b":null}],"c":"d"}';
  expect(reindentJson(plain)).toBe(JSON.stringify(JSON.parse(plain), null, 2));
});
