/**
 * The packed package under Deno and Bun (pinned versions, installed on first use into `.tmp/runtimes/`:
 * test/support/tools.ts), with Node as the reference: one script (`fixtures/runtimes.mjs`) makes an image
 * call and saves it, runs the queue with `onEnqueued`, and follows an enqueued generation from a second
 * client, against the local server, and shows an error with `util.inspect` (none of the runtimes matches
 * the `browser` export condition: each gets the build with the inspect hook).
 *
 * And as Cloudflare Workers on workerd (pinned, installed the same way; `workerd.ts`): two workers bundled
 * from the installed package with esbuild as wrangler bundles them (the `workerd`, `worker` and `browser`
 * conditions, unminified), one of per-model imports (an image call, queue runs over the event stream, and
 * `createProxyHandler`), one of the root `Client` with code splitting. Their sizes are printed (the README's
 * "Cloudflare Workers" section quotes them) and held to ceilings.
 *
 * One pack and one install serve every runtime.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, version as esbuildVersion } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { FILE_BYTES } from '../../fake-service/state.ts';
import { run, tempDir } from '../support/index.ts';
import { installedRuntime } from '../support/tools.ts';
import { FIXTURES } from './helpers.ts';
import { linkInstalled } from '../support/packed.ts';
import { startWorkerd, type RunningWorkerd } from './workerd.ts';

const TEST_TIMEOUT_MS = 180_000;

let root: ReturnType<typeof tempDir> | undefined;
let server: LocalServer;
let project: string;
const bins: Record<string, string> = { node: process.execPath };

beforeAll(async () => {
  root = tempDir('inference-sdk-runtimes-');
  server = await startServer({ workerDelayMs: 20 });
  const why = 'test/package/runtimes.test.ts';
  project = path.join(root.dir, 'project');
  const [, deno, bun, workerd] = await Promise.all([
    linkInstalled(project, 'sdk', { name: 'consumers', version: '0.0.0', private: true }),
    installedRuntime('deno', why),
    installedRuntime('bun', why),
    installedRuntime('workerd', why),
  ]);
  Object.assign(bins, { deno, bun, workerd });
  for (const file of ['runtimes.mjs', 'worker-models.mjs', 'worker-client.mjs'])
    copyFileSync(path.join(FIXTURES, file), path.join(project, file));
}, 900_000);

afterAll(async () => {
  await workerd?.close();
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
      // Once the script's second client follows a held generation (its event stream is the second connection,
      // or it reads the generation), the generation fails.
      const failFollowed = setInterval(() => {
        for (const g of server.queue.list()) {
          const id = String(g['generation_id']);
          const followed = server.count('GET', '/api/events') >= 2 || server.count('GET', `/api/ai/queue/${id}`) > 0;
          if (String(g['prompt']).includes('[hold]') && followed)
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

/** A worker's bundle: its modules (the entry first, names relative to its folder) and their sizes in bytes. */
interface WorkerBundle {
  dir: string;
  modules: string[];
  bytes: number;
  gzipBytes: number;
  entryBytes: number;
}

/**
 * Bundles `<project>/<entry>` as wrangler does by default (esbuild, ES module, the `workerd`, `worker` and
 * `browser` conditions, not minified) into `<project>/<out>/`, with code splitting when asked.
 */
async function bundleWorker(entry: string, out: string, splitting: boolean): Promise<WorkerBundle> {
  const dir = path.join(project, out);
  mkdirSync(dir, { recursive: true });
  const { metafile } = await build({
    absWorkingDir: project,
    entryPoints: { worker: path.join(project, entry) },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    splitting,
    outdir: dir,
    metafile: true,
    logLevel: 'error',
  });
  const files = Object.keys(metafile.outputs).map((f) => path.relative(dir, path.resolve(project, f)));
  const modules = ['worker.js', ...files.filter((f) => f !== 'worker.js')];
  const sizes = modules.map((m) => readFileSync(path.join(dir, m)));
  return {
    dir,
    modules,
    bytes: sizes.reduce((n, b) => n + b.length, 0),
    gzipBytes: sizes.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0),
    entryBytes: sizes[0]!.length,
  };
}

let workerd: RunningWorkerd | undefined;

describe('Cloudflare Workers (workerd)', () => {
  const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  let bundles: { models: WorkerBundle; client: WorkerBundle; clientUnsplit: WorkerBundle };

  beforeAll(async () => {
    const [models, client, clientUnsplit] = await Promise.all([
      bundleWorker('worker-models.mjs', 'worker-models', false),
      bundleWorker('worker-client.mjs', 'worker-client', true),
      bundleWorker('worker-client.mjs', 'worker-client-unsplit', false),
    ]);
    bundles = { models, client, clientUnsplit };
    console.log(
      `worker bundles (esbuild ${esbuildVersion}, unminified, gzip -9 in brackets): per-model imports ${kB(models.bytes)} (${kB(models.gzipBytes)}); ` +
        `root Client ${kB(clientUnsplit.bytes)} (${kB(clientUnsplit.gzipBytes)}); root Client with splitting: entry ${kB(client.entryBytes)}, ` +
        `${client.modules.length} modules, ${kB(client.bytes)} in all`,
    );
    const bindings = { OXEN_API_KEY: 'test-key', OXEN_BASE_URL: server.url };
    workerd = await startWorkerd(bins['workerd']!, project, [
      { name: 'models', modules: models.modules.map((m) => `worker-models/${m}`), bindings },
      { name: 'client', modules: client.modules.map((m) => `worker-client/${m}`), bindings },
    ]);
  }, 120_000);

  const get = async (url: string, init?: RequestInit) => {
    const response = await fetch(url, init);
    const text = await response.text();
    expect(response.status, `${url}: ${text}\n${workerd?.stderr() ?? ''}`).toBe(200);
    return JSON.parse(text) as unknown;
  };

  test('per-model imports: an image call, two concurrent queue runs over the event stream, createProxyHandler adding the key', async () => {
    const { models } = workerd!.urls;
    expect(await get(`${models}/image`)).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//) });
    const streamsBefore = server.count('GET', '/api/events');
    const runs = await Promise.all([get(`${models}/run`), get(`${models}/run`)]);
    for (const outcomes of runs)
      expect(outcomes).toEqual([
        { status: 'succeeded', url: 'string' },
        { status: 'succeeded', url: 'string' },
      ]);
    expect(server.count('GET', '/api/events')).toBeGreaterThan(streamsBefore);
    // a browser's call, sent with no key: the worker's proxy adds it
    const proxied = (await get(`${models}/api/oxen/api/ai/images/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'flux-1-dev', prompt: 'a fox' }),
    })) as { images: unknown[] };
    expect(proxied.images).toHaveLength(1);
    expect(JSON.stringify(proxied)).not.toContain('test-key');
  });

  test('the root Client with code splitting: queue.run, and the model validator loaded on demand refusing a body', async () => {
    const { client } = workerd!.urls;
    expect(await get(`${client}/`)).toEqual(['succeeded']);
    expect(await get(`${client}/invalid`)).toEqual({ name: 'ValidationError', pointers: ['/aspect_ratio'] });
  });

  test('what keeps a bundle small: per-model imports, or code splitting with the root Client', () => {
    // ceilings about 1.4 times what was measured (per-model 139 kB; split entry 16 kB of 1.24 MB in all)
    expect(bundles.models.bytes).toBeLessThan(200_000);
    expect(bundles.client.entryBytes).toBeLessThan(25_000);
    // without splitting, every model's validator is in the one module
    expect(bundles.clientUnsplit.modules).toHaveLength(1);
    expect(bundles.clientUnsplit.bytes).toBeGreaterThan(5 * bundles.models.bytes);
  });
});
