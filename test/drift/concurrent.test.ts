/**
 * Two snapshot changes at once (`npm run generate -- --add a` and `-- --add b`, child processes,
 * against the local server): both exit 0 and both models are kept, in `models.json`, as snapshot
 * files and as generated files. Each holds the output root's lock for its whole read-modify-write,
 * so the second reads the first one's snapshot.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { generate } from '../../generator/index.ts';
import {
  cleanupTemp,
  FAKE_KEY,
  readList,
  readModel,
  REPO_SPECS,
  runScript,
  scratchDir,
  SERVER_USERS,
  smallWorkspace,
  writeModel,
} from './helpers.ts';

const BASE = 'flux-2-pro';
const ADDED = ['flux-2-pro-first', 'flux-2-pro-second'];
let server: LocalServer;

beforeAll(async () => {
  const served = scratchDir();
  for (const id of ADDED) writeModel(served, { ...readModel(path.join(REPO_SPECS, 'models'), BASE), id });
  server = await startServer({ modelsDir: served, users: SERVER_USERS });
});
afterAll(async () => {
  await server?.close();
  cleanupTemp();
});

test('two --add at once: both exit 0 and both models are kept', { timeout: 300_000 }, async () => {
  const { dir, specs } = await smallWorkspace([BASE]);

  const add = (id: string) =>
    runScript(
      'generate.ts',
      ['--add', id, '--specs', specs, '--out', dir, '--base-url', server.url],
      { OXEN_API_KEY: FAKE_KEY },
      240_000,
    );
  const [a, b] = await Promise.all([add(ADDED[0]!), add(ADDED[1]!)]);
  expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
  expect(readList(specs)).toEqual([BASE, ...ADDED].sort());
  for (const id of ADDED) {
    expect(existsSync(path.join(specs, 'models', `${id}.json`)), id).toBe(true);
    expect(existsSync(path.join(dir, 'generated', 'models', `${id}.ts`)), id).toBe(true);
  }
  // and the output is what the snapshot generates
  const check = await generate({ specsDir: specs, outRoot: dir, check: true });
  expect([...check.added, ...check.changed, ...check.removed]).toEqual([]);
});
