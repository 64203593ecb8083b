/**
 * The packed package under Deno and Bun (pinned versions, installed on first use into `.tmp/runtimes/`:
 * test/support/tools.ts), with Node as the reference: one script (`fixtures/runtimes.mjs`) makes an image
 * call and saves it, runs the queue with `onEnqueued`, and follows an enqueued generation from a second
 * client, against the local server, and shows an error with `util.inspect` (none of the runtimes matches
 * the `browser` export condition: each gets the build with the inspect hook). One pack and one install
 * serve the three runtimes.
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { FILE_BYTES } from '../../fake-service/state.ts';
import { run, tempDir } from '../support/index.ts';
import { installedRuntime } from '../support/tools.ts';
import { FIXTURES, installTarball, packPackage } from './helpers.ts';

const TEST_TIMEOUT_MS = 180_000;

let root: ReturnType<typeof tempDir> | undefined;
let server: LocalServer;
let project: string;
const bins: Record<string, string> = { node: process.execPath };

beforeAll(async () => {
  root = tempDir('inference-sdk-runtimes-');
  server = await startServer({ workerDelayMs: 20 });
  const why = 'test/package/runtimes.test.ts';
  const [pack, deno, bun] = await Promise.all([
    packPackage(root.dir),
    installedRuntime('deno', why),
    installedRuntime('bun', why),
  ]);
  Object.assign(bins, { deno, bun });
  project = path.join(root.dir, 'project');
  await installTarball(project, pack.tarball);
  copyFileSync(path.join(FIXTURES, 'runtimes.mjs'), path.join(project, 'runtimes.mjs'));
}, 900_000);

afterAll(async () => {
  await server?.close();
  root?.remove();
});

const RUNTIMES: Array<{ name: string; command: () => string; args: string[] }> = [
  { name: 'node', command: () => bins['node']!, args: ['runtimes.mjs'] },
  // Deno resolves the package from the project's node_modules (a package.json is present).
  {
    name: 'deno',
    command: () => bins['deno']!,
    args: ['run', '--allow-net=127.0.0.1', '--allow-read', '--allow-write', '--allow-env', 'runtimes.mjs'],
  },
  { name: 'bun', command: () => bins['bun']!, args: ['runtimes.mjs'] },
];

describe('the packed package in each runtime', () => {
  test.each(RUNTIMES)(
    '$name: an image call saved to disk, queue.run with onEnqueued, follow from a new client, and an inspected error',
    async ({ name, command, args }) => {
      expect(existsSync(command()), `${command()} is missing`).toBe(true);
      const outDir = path.join(root!.dir, 'out');
      // Once the script's second client has asked for a held generation (queue.follow's first check), it fails.
      const failFollowed = setInterval(() => {
        for (const g of server.queue.list()) {
          const id = String(g['generation_id']);
          if (String(g['prompt']).includes('[hold]') && server.count('GET', `/api/ai/queue/${id}`) > 0)
            server.queue.complete(id, 'failed', 'held, then failed');
        }
      }, 20);
      const result = await run(command(), [...args, server.url, outDir], {
        cwd: project,
        env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
        timeoutMs: 120_000,
      });
      clearInterval(failFollowed);
      expect(result.code, `${name} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
      const seen = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as {
        runtime: string;
        image: { path: string; size: number; contentType: string };
        run: string[];
        persisted: number;
        follow: string[];
        error: { name: string; hasInspectHook: boolean; inspected: string };
      };
      expect(seen.runtime).toBe(name);
      expect(seen.image).toEqual({
        path: `${outDir}/${name}-fox.png`,
        size: FILE_BYTES.image.length,
        contentType: 'image/png',
      });
      expect(readFileSync(seen.image.path).equals(FILE_BYTES.image)).toBe(true);
      expect(seen.run).toEqual(['succeeded', 'succeeded']);
      expect(seen.persisted).toBe(2);
      expect(seen.follow).toEqual(['failed']);
      expect(seen.error).toMatchObject({ name: 'NotFoundError', hasInspectHook: true });
      expect(seen.error.inspected).toMatch(/status: 404/);
    },
    TEST_TIMEOUT_MS,
  );
});
