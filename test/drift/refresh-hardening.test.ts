/**
 * Refresh refuses the key however the answer spells it (a JSON escape hides it from the raw text,
 * not from the parsed strings), refuses a compression bomb as too large, by the byte cap of a
 * model object (decompressed), and commits specs/ and generated/ in one journal that the next run
 * completes after a kill; on a loopback server that sends exactly the bytes given.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { generate } from '../../generator/index.ts';
import { fetchModels, refresh, RefreshError } from '../../generator/refresh/index.ts';
import { commitPlan, stageSnapshot } from '../../generator/refresh/apply.ts';
import { keyInOutput, keyPointer } from '../../generator/refresh/checks.ts';
import { MAX_MODEL_BYTES } from '../../generator/stages/schema-check.ts';
import { withLock } from '../../generator/output/lock.ts';
import { existingRootState } from '../../generator/output/run-state.ts';
import { treeDigest } from '../../generator/output/tree-commit.ts';
import { hashTree, generateArgs, start } from '../support/index.ts';
import {
  cleanupTemp,
  copySpecs,
  FAKE_KEY,
  filesContaining,
  readModel,
  REPO_SPECS,
  scratchDir,
  smallWorkspace,
} from './helpers.ts';

/** Answers for `/api/ai/models/<id>`: body bytes and headers. */
const answers = new Map<string, { body: Buffer; headers: Record<string, string> }>();
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const a = answers.get(decodeURIComponent(req.url!.replace('/api/ai/models/', '')));
    if (!a) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    res.writeHead(200, { 'content-type': 'application/json', ...a.headers }).end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  answers.clear();
  cleanupTemp();
});

const ID = readdirSync(path.join(REPO_SPECS, 'models'))[0]!.replace(/\.json$/, '');
/** The key with its first letter written as a JSON escape: the raw text does not contain the key. */
const ESCAPED = `\\u${FAKE_KEY.charCodeAt(0).toString(16).padStart(4, '0')}${FAKE_KEY.slice(1)}`;

test('a model object carrying the key in a JSON escape is refused, naming the model, never the key; nothing written', async () => {
  const model = readModel(path.join(REPO_SPECS, 'models'), ID);
  const text = JSON.stringify({ ...model, description: 'KEY_HERE' }).replace('KEY_HERE', `see ${ESCAPED}`);
  expect(text).not.toContain(FAKE_KEY);
  answers.set(ID, { body: Buffer.from(text), headers: {} });
  const dir = scratchDir();
  const specs = copySpecs(dir, { generated: true });
  const before = hashTree(dir);
  const err = (await refresh({
    baseUrl: base,
    apiKey: FAKE_KEY,
    progress: 'none',
    specsDir: specs,
    outRoot: dir,
    add: [ID],
    stream: process.stderr,
  }).catch((e: unknown) => e)) as RefreshError;
  expect(err).toBeInstanceOf(RefreshError);
  expect(err.failures).toEqual([
    {
      id: ID,
      reason:
        'the model object contains the API key (in the string at /description); refusing to write it to the snapshot or the generated code',
    },
  ]);
  expect(err.message).toContain(ID);
  expect(`${err.message}${err.stack}`).not.toContain(FAKE_KEY);
  expect(hashTree(dir)).toEqual(before);
  expect(filesContaining(dir, FAKE_KEY)).toEqual([]);
});

test('keyPointer finds the key in parsed strings and keys without naming the key; keyInOutput names the model', () => {
  expect(keyPointer(JSON.parse(`{"a":[1,{"b":"x ${ESCAPED} y"}]}`), FAKE_KEY)).toBe('/a/1/b');
  expect(keyPointer(JSON.parse(`{"a":{"${ESCAPED}":1}}`), FAKE_KEY)).toBe('/a (an object key)');
  expect(keyPointer({ a: 'nothing' }, FAKE_KEY)).toBeUndefined();
  expect(
    keyInOutput(
      new Map([
        ['generated/index.ts', 'x'],
        ['generated/models/m-1.ts', `/** ${FAKE_KEY} */`],
      ]),
      FAKE_KEY,
    ),
  ).toEqual({ file: 'generated/models/m-1.ts', model: 'm-1' });
  expect(keyInOutput(new Map([['generated/MODELS.md', JSON.stringify(FAKE_KEY)]]), FAKE_KEY)).toEqual({
    file: 'generated/MODELS.md',
    model: undefined,
  });
});

test('a gzip bomb is refused as too large by the byte cap, not as invalid JSON', { timeout: 60_000 }, async () => {
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)); // 64 MiB of spaces: about 64 KiB compressed
  answers.set(ID, { body: bomb, headers: { 'content-encoding': 'gzip' } });
  const r = await fetchModels([ID], {
    baseUrl: base,
    apiKey: FAKE_KEY,
    progress: 'none',
    maxRetries: 0,
    stream: process.stderr,
  });
  expect(r.failures).toEqual([
    {
      id: ID,
      reason: `the answer is too large: over ${MAX_MODEL_BYTES} bytes (decompressed), the most a model object may have`,
    },
  ]);
});

test('an answer just under the cap is read whole and kept as sent', async () => {
  const model = readModel(path.join(REPO_SPECS, 'models'), ID);
  const text = JSON.stringify(model);
  answers.set(ID, { body: gzipSync(Buffer.from(text)), headers: { 'content-encoding': 'gzip' } });
  const r = await fetchModels([ID], { baseUrl: base, apiKey: FAKE_KEY, progress: 'none', stream: process.stderr });
  expect(r.failures).toEqual([]);
  expect(JSON.parse(r.models.get(ID)!.text)).toEqual(model);
});

test.each([
  ['swapping', 'specs/ moved aside, its new tree not yet in place'],
  ['between', 'specs/ new, generated/ old'],
])(
  'a refresh killed at %s (%s): the next plain generate completes both, nothing left behind',
  { timeout: 240_000 },
  async (point) => {
    const added = `${ID}-extra`;
    answers.set(added, {
      body: Buffer.from(JSON.stringify({ ...readModel(path.join(REPO_SPECS, 'models'), ID), id: added })),
      headers: {},
    });
    const { dir, specs } = await smallWorkspace([ID]);
    const child = start(
      process.execPath,
      generateArgs(['--add', added, '--specs', specs, '--out', dir, '--base-url', base]),
      { env: { ...process.env, OXEN_API_KEY: FAKE_KEY, OXEN_GENERATE_TEST_PAUSE: point } },
    );
    await child.waitFor(`generate: paused at ${point}`, { stream: 'stderr', ms: 120_000 });
    child.child.kill('SIGKILL');
    await child.done;
    // the kill left specs/ absent (swapping) or new (between), generated/ old, and the journal
    expect(existsSync(path.join(specs, 'models', `${added}.json`))).toBe(point === 'between');
    expect(existsSync(specs)).toBe(point === 'between');
    expect(existsSync(path.join(dir, 'generated', 'models', `${added}.ts`))).toBe(false);
    expect(existsSync(existingRootState(dir)!.journal)).toBe(true);
    const r = await generate({ specsDir: specs, outRoot: dir });
    expect(r.added.length + r.changed.length + r.removed.length).toBe(0); // the journal's generated/ was already the new one
    expect(existsSync(path.join(dir, 'generated', 'models', `${added}.ts`))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['generated', 'specs']);
    expect(filesContaining(dir, FAKE_KEY)).toEqual([]);
  },
);

test('a specs directory changed by another writer after staging is not overwritten: the commit refuses, nothing moved', async () => {
  const dir = scratchDir();
  const specs = copySpecs(dir, { generated: true });
  const digest = await treeDigest(specs);
  const staged = await stageSnapshot(specs, new Map([['models.json', '[]\n']]), scratchDir());
  writeFileSync(path.join(specs, 'models', 'other-run.json'), '{}');
  const before = hashTree(dir);
  const err = (await withLock(dir, (lock) => commitPlan(lock, specs, staged, new Map(), digest)).catch(
    (e: unknown) => e,
  )) as RefreshError;
  expect(err).toBeInstanceOf(RefreshError);
  expect(err.restored).toBe(true);
  expect(err.message).toMatch(/changed while this refresh ran/);
  expect(hashTree(dir)).toEqual(before);
  expect(readdirSync(dir).sort()).toEqual(['generated', 'specs']);
});

test('a 100,000-value enum in a fetched model is refused by the fetch phase, naming the pointer', async () => {
  const model = readModel(path.join(REPO_SPECS, 'models'), ID);
  const field = model['request_schema'] ? 'request_schema' : 'json_request_schema';
  const schema = model[field] as { properties: Record<string, unknown> };
  schema.properties['huge'] = { type: 'string', enum: Array.from({ length: 100_000 }, (_, i) => `v${i}`) };
  const body = Buffer.from(JSON.stringify(model));
  expect(body.byteLength).toBeLessThan(MAX_MODEL_BYTES); // refused by the enum cap, not the byte cap
  answers.set(ID, { body, headers: {} });
  const r = await fetchModels([ID], { baseUrl: base, apiKey: FAKE_KEY, progress: 'none', stream: process.stderr });
  expect(r.failures).toEqual([
    {
      id: ID,
      reason: `invalid model object at /${field}/properties/huge/enum: an enum of 100000 values: more than the 1000 supported`,
    },
  ]);
});
