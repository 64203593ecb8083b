/**
 * The generator's CLI from the packed tarballs, against what a pull request or the service can
 * put in front of it: a journal or lock planted in `<out>` or the project root (naming paths outside
 * it, through a link) changes nothing outside `<out>`; a file edited together with its hash in
 * `manifest.json` fails `generate --check`; two `add`s at once keep both models; control characters
 * from the service or a model are never printed or written raw; `--out` refuses a folder it did not
 * make unless `--force`; Windows device names are mapped; a stopped `add` leaves no temporary file.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { hash } from '../../generator/output/manifest.ts';
import { existingRootState } from '../../generator/output/run-state.ts';
import { hashTree, REPO_ROOT, stateLeftovers, tempDir } from '../support/index.ts';
import { codegen, installBoth, treeHash } from './support.ts';
import { EXIT } from '../../generator/cli/exit-codes.ts';

const KEY = 'test-key'; // the local server's default key
const tmp = tempDir('inference-sdk-cli-safety-');
const project = path.join(tmp.dir, 'project');
const out = path.join(project, 'oxen-models');
const outside = path.join(tmp.dir, 'outside');
let server: LocalServer;
let hostile: Server;
let hostileUrl = '';

/** A control-character salad: an OSC 52 clipboard write, a screen clear, a title change, C1 CSI, NUL, a bidi override. */
const EVIL = '\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J\u001b]0;owned\u0007\u009b31m\u0000\u202e';
const RAW = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

const flux = () =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'specs', 'models', 'flux-2-pro.json'), 'utf8')) as Record<
    string,
    unknown
  > & { json_request_schema: { properties: Record<string, unknown> } };
/** A saved model-details file for `add --from`. */
function saved(id: string, edit: (m: ReturnType<typeof flux>) => void = () => undefined): string {
  const m = { ...flux(), id, display_name: id };
  edit(m);
  const file = path.join(tmp.dir, `${id}.json`);
  writeFileSync(file, JSON.stringify(m, null, 2));
  return file;
}
const withServer = () => ({ OXEN_API_KEY: KEY, OXEN_BASE_URL: server.url });

beforeAll(async () => {
  const served = path.join(tmp.dir, 'served');
  mkdirSync(served, { recursive: true });
  for (const id of ['acme-first', 'acme-second', 'acme-base'])
    writeFileSync(path.join(served, `${id}.json`), JSON.stringify({ ...flux(), id }, null, 2));
  mkdirSync(path.join(outside, 'keep-dir'), { recursive: true });
  writeFileSync(path.join(outside, 'victim.txt'), 'the user file\n');
  writeFileSync(path.join(outside, 'keep-dir', 'data'), 'more\n');
  hostile = createServer((_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `bad model ${EVIL}` }));
  });
  await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as { port: number }).port}`;
  const [, s] = await Promise.all([installBoth(project), startServer({ modelsDir: served })]);
  server = s;
  mkdirSync(path.join(project, '.git', 'hooks'), { recursive: true });
  const first = await codegen(project, ['add', 'acme-base'], withServer());
  if (first.code !== 0) throw new Error(`the first add failed: ${first.stderr}`);
}, 900_000);

afterAll(async () => {
  await server?.close();
  await new Promise<void>((r) => (hostile ? hostile.close(() => r()) : r()));
  tmp.remove();
});

describe('a journal or lock planted by a commit', () => {
  /** An earlier version's journal: replace a file outside, install a git hook, put a link to outside in place of models/. */
  function plant(dir: string): void {
    writeFileSync(path.join(dir, 'evil.txt'), 'replaced\n');
    writeFileSync(path.join(dir, 'hook.sh'), '#!/bin/sh\necho owned\n');
    symlinkSync(outside, path.join(dir, 'staged-link'));
    writeFileSync(
      path.join(dir, '.generate-journal.json'),
      JSON.stringify({
        phase: 'swapping',
        swaps: [
          {
            target: path.join(outside, 'victim.txt'),
            staged: path.join(dir, 'evil.txt'),
            old: path.join(outside, 'x'),
          },
          {
            target: path.join(project, '.git', 'hooks', 'pre-commit'),
            staged: path.join(dir, 'hook.sh'),
            old: path.join(dir, 'y'),
          },
          {
            target: path.join(out, 'models'),
            staged: path.join(dir, 'staged-link'),
            old: path.join(outside, 'keep-dir'),
          },
        ],
      }),
    );
  }
  const unplant = (dir: string) => {
    for (const f of ['evil.txt', 'hook.sh', 'staged-link', '.generate-journal.json']) rmSync(path.join(dir, f));
  };

  test('in <out>: generate, add, remove and refresh refuse it, naming it; nothing outside <out> changes', async () => {
    plant(out);
    const before = { out: treeHash(out), outside: hashTree(outside) };
    const runs = {
      generate: await codegen(project, ['generate']),
      add: await codegen(project, ['add', '--from', saved('acme-planted')]),
      remove: await codegen(project, ['remove', 'acme-base']),
      refresh: await codegen(project, ['refresh'], withServer()),
    };
    for (const [command, r] of Object.entries(runs)) {
      expect(r.code, `${command}: ${r.stdout}${r.stderr}`).toBe(EXIT.failed);
      expect(r.stderr, command).toContain(
        `${path.join(out, '.generate-journal.json')} was not written by this generator`,
      );
    }
    expect(hashTree(outside)).toEqual(before.outside);
    expect(existsSync(path.join(project, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(treeHash(out)).toBe(before.out);
    unplant(out);
  });

  test('a lock under the old name in <out> is refused the same way; one in the project root is never read', async () => {
    writeFileSync(path.join(out, '.generate.lock'), JSON.stringify({ pid: 1, host: 'ci' }));
    const locked = await codegen(project, ['generate']);
    expect(locked.code).toBe(EXIT.failed);
    expect(locked.stderr).toContain(`${path.join(out, '.generate.lock')} was not written by this generator`);
    rmSync(path.join(out, '.generate.lock'));
    plant(project);
    const before = hashTree(outside);
    const r = await codegen(project, ['add', '--from', saved('acme-root-planted')]);
    expect(r.code, r.stderr).toBe(0);
    expect(hashTree(outside)).toEqual(before);
    expect(existsSync(path.join(project, '.git', 'hooks', 'pre-commit'))).toBe(false);
    unplant(project);
  });

  test('a folder of <out> that is a link to outside is replaced as a link; what it points to is kept', async () => {
    rmSync(path.join(out, 'validators'), { recursive: true });
    symlinkSync(outside, path.join(out, 'validators'));
    const before = hashTree(outside);
    const r = await codegen(project, ['generate']);
    expect(r.code, r.stderr).toBe(0);
    expect(hashTree(outside)).toEqual(before);
    expect(existsSync(path.join(out, 'validators', 'acme-base.ts'))).toBe(true);
    expect((await codegen(project, ['generate', '--check'])).code).toBe(0);
  });
});

test('code injected into a generated file with its hash updated in manifest.json fails generate --check', async () => {
  const file = 'models/acme-base.ts';
  const injected = `${readFileSync(path.join(out, file), 'utf8')}void fetch('https://evil.example/');\n`;
  writeFileSync(path.join(out, file), injected);
  const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as {
    files: Record<string, { content: string }>;
  };
  manifest.files[file]!.content = hash(injected);
  writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const machine of ['this one', 'a fresh CI runner']) {
    if (machine !== 'this one') rmSync(existingRootState(out)!.built, { force: true });
    const r = await codegen(project, ['generate', '--check']);
    expect(r.code, `${machine}: ${r.stdout}${r.stderr}`).toBe(1);
    expect(r.stderr).toContain(`changed  oxen-models/${file}`);
  }
  rmSync(path.join(out, file));
  expect((await codegen(project, ['generate'])).code).toBe(0);
  expect((await codegen(project, ['generate', '--check'])).code).toBe(0);
});

test('two adds at once both exit 0 and keep their models', async () => {
  const [a, b] = await Promise.all([
    codegen(project, ['add', 'acme-first'], withServer()),
    codegen(project, ['add', 'acme-second'], withServer()),
  ]);
  expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
  const ids = JSON.parse(readFileSync(path.join(out, 'specs', 'models.json'), 'utf8')) as string[];
  expect(ids).toEqual(expect.arrayContaining(['acme-first', 'acme-second', 'acme-base']));
  for (const id of ['acme-first', 'acme-second'])
    expect(existsSync(path.join(out, 'models', `${id}.ts`)), id).toBe(true);
  expect((await codegen(project, ['generate', '--check'])).code).toBe(0);
});

describe('control characters from the service or a model', () => {
  test('a failure reason from the service is printed with them shown, never raw; a new --out is not made', async () => {
    const r = await codegen(project, ['add', 'acme-x', '--retries', '0', '--out', 'never-made'], {
      OXEN_API_KEY: KEY,
      OXEN_BASE_URL: hostileUrl,
    });
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain('bad model <U+001B>]52;c;');
    expect(RAW.exec(r.stdout + r.stderr)?.[0]).toBeUndefined();
    expect(existsSync(path.join(project, 'never-made'))).toBe(false);
  });

  test('a refused property name in a JSON pointer is printed with them shown; nothing written', async () => {
    const before = treeHash(out);
    const file = saved('acme-evil-name', (m) => {
      m.json_request_schema.properties[`x${EVIL}`] = { $ref: 'https://evil.example/s.json' };
    });
    const r = await codegen(project, ['add', '--from', file]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain('<U+001B>]52;c;');
    expect(RAW.exec(r.stdout + r.stderr)?.[0]).toBeUndefined();
    expect(treeHash(out)).toBe(before);
  });

  test('descriptions carrying them generate files without them (no NUL byte), and print nothing raw', async () => {
    const file = saved('acme-evil-text', (m) => {
      m['description'] = `evil ${EVIL}`;
      m.json_request_schema.properties['prompt'] = { type: 'string', description: `p ${EVIL}`, enum: [`v ${EVIL}`] };
    });
    const r = await codegen(project, ['add', '--from', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(RAW.exec(r.stdout + r.stderr)?.[0]).toBeUndefined();
    for (const f of ['models/acme-evil-text.ts', 'validators/acme-evil-text.ts', 'index.ts']) {
      const bytes = readFileSync(path.join(out, f));
      expect(bytes.includes(0), f).toBe(false);
      expect(RAW.exec(bytes.toString('utf8'))?.[0], f).toBeUndefined();
    }
    expect(readFileSync(path.join(out, 'models', 'acme-evil-text.ts'), 'utf8')).toContain('<U+001B>]52;c;');
  });
});

describe('--out', () => {
  test('refuses a non-empty folder without its manifest, naming --force; --force writes into it', async () => {
    const mine = path.join(project, 'src');
    mkdirSync(path.join(mine, 'models'), { recursive: true });
    writeFileSync(path.join(mine, 'models', 'user.ts'), 'export const mine = 1;\n');
    writeFileSync(path.join(mine, 'index.ts'), 'export * from "./models/user.js";\n');
    const before = treeHash(mine);
    for (const args of [['add', '--from', saved('acme-out')], ['generate']]) {
      const r = await codegen(project, [...args, '--out', 'src']);
      expect(r.code, r.stderr).toBe(EXIT.failed);
      expect(r.stderr).toContain(
        `${mine} is not empty (index.ts, models) and holds no manifest.json of this generator`,
      );
      expect(r.stderr).toContain('--force');
      expect(treeHash(mine)).toBe(before);
    }
    const forced = await codegen(project, ['add', '--from', saved('acme-out'), '--out', 'src', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(path.join(mine, 'models', 'acme-out.ts'))).toBe(true);
    expect((await codegen(project, ['generate', '--out', 'src'])).code).toBe(0); // its manifest is there now
  });

  test('accepts a folder holding only a snapshot (specs/) and hidden files', async () => {
    const fresh = path.join(project, 'fresh');
    mkdirSync(fresh);
    writeFileSync(path.join(fresh, '.gitignore'), 'models/\n');
    cpSync(path.join(out, 'specs'), path.join(fresh, 'specs'), { recursive: true });
    const r = await codegen(project, ['generate', '--out', 'fresh']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(fresh, 'index.ts'))).toBe(true);
  });
});

test('a model named AUX.model gets the file stem AUX~.model, and the output checks', async () => {
  const r = await codegen(project, ['add', '--from', saved('AUX.model')]);
  expect(r.code, r.stderr).toBe(0);
  for (const f of ['specs/models/AUX~.model.json', 'models/AUX~.model.ts', 'validators/AUX~.model.ts'])
    expect(existsSync(path.join(out, f)), f).toBe(true);
  for (const folder of ['models', 'validators'])
    expect(readdirSync(path.join(out, folder)).filter((n) => /^aux\./i.test(n))).toEqual([]);
  // the validator table names the validator's module
  expect(readFileSync(path.join(out, 'validator-table.ts'), 'utf8')).toContain('./validators/AUX~.model.js');
  expect((await codegen(project, ['generate', '--check'])).code).toBe(0);
});

describe('an add stopped while it writes', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: <out> as it was; no staged snapshot, new tree, journal or lock left',
    async (signal) => {
      const before = treeHash(out);
      const child = spawn(
        path.join(project, 'node_modules', '.bin', 'oxen-inference-codegen'),
        ['add', '--from', saved(`acme-${signal.toLowerCase()}`)],
        {
          cwd: project,
          env: { ...process.env, OXEN_GENERATE_TEST_PAUSE: 'staging' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no pause: ${stderr}`)), 120_000);
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (stderr.includes('generate: paused at staging')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      expect(stateLeftovers(out).length).toBeGreaterThan(0); // the lock, the journal, the staged snapshot
      child.kill(signal);
      const [, exitSignal] = await new Promise<[number | null, string | null]>((r) =>
        child.on('close', (code, sig) => r([code, sig])),
      );
      expect(exitSignal).toBe(signal);
      expect(treeHash(out)).toBe(before);
      expect(readdirSync(out).filter((n) => n.startsWith('.'))).toEqual([]);
      expect(stateLeftovers(out)).toEqual([]);
    },
  );
});
