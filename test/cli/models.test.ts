/**
 * `oxen-inference-codegen models [--search text] [--json]` (generator/cli/models.ts), in process
 * against the local server's catalog: each model with its type, output and whether the user's
 * snapshot has it; the search; the JSON output; control characters of the service's text never
 * printed raw; the key never printed; a failure (wrong key, no key) exits 2 and writes nothing.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../generator/cli/index.ts';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { REPO_ROOT, tempDir } from '../support/index.ts';
import { EXIT } from '../../generator/cli/exit-codes.ts';

const KEY = 'sk-FAKE-models-4b1d9c2e7a';
const tmp = tempDir('codegen-models-');
const modelsDir = path.join(tmp.dir, 'served');
const out = path.join(tmp.dir, 'oxen-models');
let server: LocalServer;

const copy = (id: string) =>
  writeFileSync(
    path.join(modelsDir, `${id}.json`),
    readFileSync(path.join(REPO_ROOT, 'specs', 'models', `${id}.json`)),
  );

beforeAll(async () => {
  mkdirSync(modelsDir, { recursive: true });
  for (const id of ['flux-2-pro', 'gpt-4o-mini', 'google-veo-3-1']) copy(id);
  // a hostile catalog entry: escape sequences in its id and display name
  writeFileSync(
    path.join(modelsDir, 'evil.json'),
    JSON.stringify({
      id: 'evil\u001b]52;c;aGk=\u0007\u009b31m',
      object: 'model',
      display_name: 'x\u001b[2J',
      endpoint: '/images/generate',
    }),
  );
  mkdirSync(path.join(out, 'specs'), { recursive: true });
  writeFileSync(path.join(out, 'specs', 'models.json'), JSON.stringify(['flux-2-pro']));
  server = await startServer({ modelsDir, users: { [KEY]: { user: 'alice' } } });
});
afterAll(async () => {
  await server?.close();
  tmp.remove();
});

/** Runs the CLI in process with `env` set for the call. @returns exit code, stdout, stderr. */
async function cli(args: string[], env: Record<string, string | undefined>) {
  const saved = { OXEN_API_KEY: process.env['OXEN_API_KEY'], OXEN_BASE_URL: process.env['OXEN_BASE_URL'] };
  const text = { stdout: '', stderr: '' };
  const sink = (k: 'stdout' | 'stderr') =>
    new Writable({ write: (c: Buffer, _e, cb) => ((text[k] += c.toString()), cb()) });
  for (const [k, v] of Object.entries(env))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  try {
    const code = await main([...args, '--out', out], { stdout: sink('stdout'), stderr: sink('stderr') });
    return { code, ...text };
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}
const withServer = () => ({ OXEN_API_KEY: KEY, OXEN_BASE_URL: server.url });

describe('models', () => {
  it('lists the catalog: id, type, output, whether the snapshot has it', async () => {
    const r = await cli(['models'], withServer());
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^4 models listed by http:\/\/127\.0\.0\.1:\d+; IN SNAPSHOT: in .*oxen-models\/specs\/models\.json/,
    );
    expect(lines[1]).toMatch(/^ID +TYPE +OUTPUT +IN SNAPSHOT$/);
    const row = (id: string) => lines.find((l) => l.startsWith(`${id} `))?.split(/ {2,}/);
    expect(row('flux-2-pro')).toEqual(['flux-2-pro', 'base', 'image', 'yes']);
    expect(row('gpt-4o-mini')).toEqual(['gpt-4o-mini', 'base', 'text', 'no']);
    expect(row('google-veo-3-1')).toEqual(['google-veo-3-1', 'base', 'video', 'no']);
    expect(server.count('GET', '/api/ai/models')).toBeGreaterThanOrEqual(1);
  });

  it('--search asks the service to search, and shows what it found', async () => {
    const start = server.requests.length;
    const r = await cli(['models', '--search', 'veo'], withServer());
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.slice(start).map((q) => q.path)).toEqual(['/api/ai/models/search']);
    expect(r.stdout).toMatch(/^1 model found for "veo" by /);
    expect(r.stdout).toMatch(/^google-veo-3-1 +base +video +no$/m);
    expect(r.stdout).not.toContain('flux-2-pro');
  });

  it('--json: the list as data, parseable, with in_snapshot', async () => {
    const r = await cli(['models', '--json'], withServer());
    expect(r.code, r.stderr).toBe(0);
    const parsed = JSON.parse(r.stdout) as { object: string; data: Array<Record<string, unknown>>; skipped: number };
    expect(parsed.object).toBe('list');
    expect(parsed.data.find((m) => m['id'] === 'flux-2-pro')).toEqual({
      id: 'flux-2-pro',
      model_type: 'base',
      output: ['image'],
      endpoint: '/images/edit', // as its snapshot file says
      in_snapshot: true,
    });
    // the escape sequences of the hostile entry survive as data, never as raw control characters
    expect(parsed.data.map((m) => m['id'])).toContain('evil\u001b]52;c;aGk=\u0007\u009b31m');
  });

  it("never prints the service's control characters raw, nor the key", async () => {
    for (const args of [['models'], ['models', '--json'], ['models', '--search', 'evil']]) {
      const r = await cli(args, withServer());
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(r.stdout + r.stderr).not.toContain(KEY);
    }
    expect((await cli(['models'], withServer())).stdout).toContain('evil<U+001B>]52;c;aGk=<U+0007><U+009B>31m');
  });

  it('a wrong key, no key, bad flags: exit 3, one line, nothing written', async () => {
    const before = readdirSync(out, { recursive: true }).sort();
    const wrong = await cli(['models'], { OXEN_API_KEY: 'sk-WRONG-0000', OXEN_BASE_URL: server.url });
    expect(wrong.code).toBe(EXIT.failed);
    expect(wrong.stderr).toMatch(/^oxen-inference-codegen models failed: /);
    expect(wrong.stderr).not.toContain('sk-WRONG-0000');
    const none = await cli(['models'], { OXEN_API_KEY: undefined, OXEN_BASE_URL: server.url });
    expect(none.code).toBe(EXIT.failed);
    expect(none.stderr).toMatch(/OXEN_API_KEY is not set/);
    expect((await cli(['models', 'flux-2-pro'], withServer())).code).toBe(EXIT.failed);
    expect((await cli(['models', '--search', ''], withServer())).code).toBe(EXIT.failed);
    expect((await cli(['generate', '--json'], withServer())).stderr).toMatch(/--json applies only to models/);
    expect(readdirSync(out, { recursive: true }).sort()).toEqual(before);
  });
});
