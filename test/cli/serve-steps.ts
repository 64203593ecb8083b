/**
 * `oxen-inference-codegen serve` as users run it, registered by cli.test.ts on its project (both
 * tarballs installed, its `oxen-models/` made by the steps before): the README's offline test run
 * verbatim with vitest against the served snapshot, `--queue-mode 0.224.2`, `--api-key`, a user's
 * model replacing the package's, and the usage errors.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT, run, start } from '../support/index.ts';
import { STRICT_FLAGS_OWN_DECLARATIONS } from '../package/helpers.ts';
import { codegen, tsc } from './support.ts';
import { EXIT } from '../../generator/cli/exit-codes.ts';

/** The README's example test: the one ```mts block of its "Testing your application offline" section. */
export function readmeOfflineTest(readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')): string {
  const section = readme.split(/^## Testing your application offline$/m)[1]?.split(/^## /m)[0];
  const blocks = [...(section ?? '').matchAll(/^```mts\n([^]*?)^```$/gm)].map((m) => m[1]!);
  if (blocks.length !== 1)
    throw new Error(`README.md: "Testing your application offline" has ${blocks.length} mts blocks, not 1`);
  return blocks[0]!;
}

/** Links a package of the repository's node_modules into `project` (a test tool the user would install). */
function linkDevPackage(project: string, name: string): void {
  const target = path.join(project, 'node_modules', name);
  if (existsSync(target)) return;
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, 'node_modules', name), target, 'dir');
}

/** Registers the serve tests; `fixture(id)` is a model object the package lacks, under that id. */
export function serveTests(ctx: { project: () => string; fixture: (id: string) => Record<string, unknown> }): void {
  const bin = () => path.join(ctx.project(), 'node_modules', 'oxen-inference-codegen', 'dist', 'cli.js');
  const serve = (args: string[]) =>
    start(process.execPath, [bin(), 'serve', '--port', '0', ...args], { cwd: ctx.project() });
  const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:[1-9]\d*)\n/;

  describe('oxen-inference-codegen serve', () => {
    test('ships the package models it serves', () => {
      const ids = JSON.parse(readFileSync(path.join(REPO_ROOT, 'specs', 'models.json'), 'utf8')) as string[];
      const served = path.join(ctx.project(), 'node_modules', 'oxen-inference-codegen', 'dist', 'specs', 'models');
      expect(ids.filter((id) => !existsSync(path.join(served, `${id}.json`)))).toEqual([]);
    });

    test("the README's offline test passes against a model the user added (vitest, strictest TypeScript)", async () => {
      const project = ctx.project();
      const file = path.join(project, 'brand-new-model.json');
      writeFileSync(file, JSON.stringify(ctx.fixture('brand-new-model'), null, 2));
      const add = await codegen(project, ['add', '--from', file]);
      expect(add.code, add.stderr).toBe(0);
      // the application's own test tools
      for (const name of ['vitest', '@types/node']) linkDevPackage(project, name);
      mkdirSync(path.join(project, 'tests'), { recursive: true });
      writeFileSync(path.join(project, 'tests', 'offline.test.mts'), readmeOfflineTest());
      const config = path.join(project, 'tsconfig.offline.json');
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: {
            ...STRICT_FLAGS_OWN_DECLARATIONS,
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            types: ['node'],
          },
          include: ['tests/offline.test.mts', 'oxen-models/**/*.ts'],
        }),
      );
      const compiled = await tsc(config);
      expect(compiled.stdout + compiled.stderr).toBe('');
      const vitest = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
      const r = await run(process.execPath, [vitest, 'run', 'tests/offline.test.mts', '--reporter', 'default'], {
        cwd: project,
        env: { ...process.env, NO_COLOR: '1', CI: '1' },
        timeoutMs: 120_000,
      });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Tests\s+1 passed \(1\)/);
    }, 180_000);

    test('--queue-mode 0.224.2 and --api-key are honoured; the user snapshot replaces a package model', async () => {
      const server = serve(['--queue-mode', '0.224.2', '--api-key', 'only-this-key-123']);
      try {
        const out = await server.waitFor(LISTENING, { stream: 'stdout', ms: 30_000 });
        const url = LISTENING.exec(out)![1]!;
        const post = (key: string) =>
          fetch(`${url}/api/ai/queue`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ model: 'brand-new-model', prompt: 'a fox [hold]' }),
          });
        const ok = await post('only-this-key-123');
        expect(ok.status).toBe(200);
        expect(((await ok.json()) as { generations: Array<{ status: string }> }).generations[0]!.status).toBe(
          'processing',
        );
        expect((await post('any-other-key')).status).toBe(401);
        // flux-2-pro of the user's snapshot (one more parameter, added by the steps before) is the one served
        const flux = (await (
          await fetch(`${url}/api/ai/models/flux-2-pro`, { headers: { Authorization: 'Bearer only-this-key-123' } })
        ).json()) as { json_request_schema: { properties: Record<string, unknown> } };
        expect(Object.keys(flux.json_request_schema.properties)).toContain('sharpness');
      } finally {
        server.child.kill('SIGTERM');
      }
      const done = await server.done;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/); // its only line on stdout
      expect(done.stdout + done.stderr).not.toContain('only-this-key-123');
    }, 60_000);

    test.each([
      [['serve', '--bogus'], "Unknown option '--bogus'"],
      [['serve', '--failure-rate', '2'], '--failure-rate needs a number from 0 to 1, got "2"'],
      [['serve', '--queue-mode', 'tomorrow'], '--queue-mode needs today or 0.224.2, got tomorrow'],
      [['serve', 'flux-2-pro'], 'takes no model ids'],
      [['serve', '--check'], '--check does not apply to serve'],
      [['add', 'x', '--port', '1'], '--port applies only to serve'],
      // a key given with --api-key is redacted wherever it would be printed
      [['serve', 'leaked-key-4567', '--api-key', 'leaked-key-4567'], 'takes no model ids (got [REDACTED])'],
    ])('a usage error (%j): exit 3 with the usage line', async (args, problem) => {
      const r = await codegen(ctx.project(), args);
      expect(r.code).toBe(EXIT.failed);
      expect(r.stderr).toContain(problem);
      expect(r.stderr).toMatch(/^usage: oxen-inference-codegen <add\|remove\|generate\|refresh\|models\|serve>/m);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toContain('leaked-key-4567');
    });
  });
}
