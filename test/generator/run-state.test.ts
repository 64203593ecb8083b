/**
 * Nothing committed into the output root can make the generator act outside it: a journal or lock
 * under the names earlier versions used is refused (nothing moved or deleted, the file kept), a
 * journal in the state folder that names paths outside the root, or reaches outside through a
 * link, is refused, and a target that is a link is replaced as a link (what it points to is kept).
 * The lock says what it waits for and how to break it, takes over a dead run's lock saying so, and
 * a run stopped by SIGINT or SIGTERM removes its new trees, its temporary folder and its lock. An
 * output folder that holds files but no manifest of the generator is refused unless forced.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../generator/cli/exit-codes.ts';
import { withLock } from '../../generator/output/lock.ts';
import { renderManifest } from '../../generator/output/manifest.ts';
import { checkOwnedOutput, packageTarget } from '../../generator/output/target.ts';
import { LEGACY_FILES, rootState } from '../../generator/output/run-state.ts';
import { write } from '../../generator/stages/write.ts';
import { hashTree, runGenerate, stateLeftovers, tempDir } from '../support/index.ts';
import { writeChild } from './helpers.ts';
import { variantFiles } from './fixtures/write-variants.ts';

const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/** A root with the `old` variant written, and beside it a folder `outside` with a file and a folder of its own. */
async function setup(): Promise<{ root: string; outside: string }> {
  const d = tempDir('run-state-test-');
  dirs.push(d);
  const root = path.join(d.dir, 'project');
  const outside = path.join(d.dir, 'outside');
  mkdirSync(path.join(outside, 'keep-dir'), { recursive: true });
  writeFileSync(path.join(outside, 'keep.txt'), 'mine\n');
  writeFileSync(path.join(outside, 'keep-dir', 'hook'), 'also mine\n');
  await write(variantFiles('old'), root);
  return { root, outside };
}

/** A journal of an earlier version's format naming `outside` paths to rename and delete. */
function plantedJournal(root: string, outside: string): string {
  return JSON.stringify({
    phase: 'swapping',
    swaps: [
      { target: path.join(outside, 'keep.txt'), staged: path.join(root, 'evil'), old: path.join(outside, 'gone') },
      { target: path.join(root, '.git-hooks'), staged: path.join(outside, 'keep-dir'), old: path.join(outside, 'x') },
    ],
  });
}

describe('a journal or lock committed into the output root', () => {
  it.each(LEGACY_FILES)('%s: refused by a writing run, nothing moved or deleted', async (name) => {
    const { root, outside } = await setup();
    writeFileSync(path.join(root, 'evil'), 'replacement\n');
    symlinkSync(outside, path.join(root, 'link-out'));
    writeFileSync(path.join(root, name), name.includes('journal') ? plantedJournal(root, outside) : '{"pid":1}');
    const before = { root: hashTree(root), outside: hashTree(outside) };
    await expect(write(variantFiles('new'), root)).rejects.toThrow(
      `${path.join(root, name)} was not written by this generator`,
    );
    expect(hashTree(outside)).toEqual(before.outside);
    expect(hashTree(root)).toEqual(before.root); // the old tree, the planted file kept as it was
    expect(lstatSync(path.join(root, 'link-out')).isSymbolicLink()).toBe(true);
  });

  it('npm run generate refuses it before reading anything (exit 2, the file named)', async () => {
    const { root, outside } = await setup();
    writeFileSync(path.join(root, '.generate-journal.json'), plantedJournal(root, outside));
    const before = { root: hashTree(root), outside: hashTree(outside) };
    const r = await runGenerate(['--out', root, '--specs', path.join(root, 'no-specs')]);
    expect(r.code, r.stderr).toBe(EXIT.failed);
    expect(r.stderr).toContain(`${path.join(root, '.generate-journal.json')} was not written by this generator`);
    expect(r.stderr).toContain('Nothing was moved or deleted');
    expect({ root: hashTree(root), outside: hashTree(outside) }).toEqual(before);
  });
});

describe('a journal in the state folder that reaches outside the root', () => {
  const journal = (root: string, run: string, targets: string[], real: string) =>
    JSON.stringify({ writer: 'oxen-inference-codegen', version: 2, root: real, run, phase: 'swapping', targets });

  it.each([
    ['a parent path', ['../outside/keep.txt']],
    ['an absolute path', ['/etc/passwd']],
    ['a hidden name', ['.git']],
    ['a folder that is a link out of the root', ['link-out/keep.txt']],
  ])('%s: refused before anything is moved', async (_what, targets) => {
    const { root, outside } = await setup();
    symlinkSync(outside, path.join(root, 'link-out'));
    const run = 'abcdef012345';
    writeFileSync(path.join(outside, `.keep.txt.new-${run}`), 'staged\n');
    const state = rootState(root);
    writeFileSync(state.journal, journal(root, run, targets, state.real));
    const before = { root: hashTree(root), outside: hashTree(outside) };
    await expect(write(variantFiles('new'), root)).rejects.toThrow(/is not a journal this generator wrote/);
    expect({ root: hashTree(root), outside: hashTree(outside) }).toEqual(before);
    expect(existsSync(state.journal)).toBe(true); // kept for a person to look at
    rmSync(state.journal);
  });

  it('one for another root, or of another format, is refused the same way', async () => {
    const { root } = await setup();
    const state = rootState(root);
    for (const text of [
      journal(root, 'abcdef012345', ['generated'], '/elsewhere'),
      '{"phase":"swapping"}',
      'not json',
    ]) {
      writeFileSync(state.journal, text);
      await expect(write(variantFiles('new'), root)).rejects.toThrow(/is not a journal this generator wrote/);
    }
    rmSync(state.journal);
    await write(variantFiles('new'), root);
  });
});

describe('a target that is a link', () => {
  it('is replaced as a link: what it pointed to is left as it was', async () => {
    const { root, outside } = await setup();
    rmSync(path.join(root, 'generated'), { recursive: true });
    symlinkSync(outside, path.join(root, 'generated'));
    const before = hashTree(outside);
    await write(variantFiles('new'), root);
    expect(lstatSync(path.join(root, 'generated')).isDirectory()).toBe(true);
    expect(readFileSync(path.join(root, 'generated', 'only-new.ts'), 'utf8')).toBe('// only in new\n');
    expect(hashTree(outside)).toEqual(before);
    expect(stateLeftovers(root)).toEqual([]);
  });
});

describe('the lock says what it does', () => {
  it("takes over a dead run's lock, saying so, and removes that run's temporary folder", async () => {
    const { root } = await setup();
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.on('close', r));
    const state = rootState(root);
    const run = '0123456789ab';
    mkdirSync(state.tempOf(run));
    writeFileSync(path.join(state.tempOf(run), 'specs.json'), '[]');
    writeFileSync(state.lock, JSON.stringify({ pid: dead.pid, host: hostname(), run }));
    const lines: string[] = [];
    await withLock(root, () => Promise.resolve(), { waitMs: 0, log: (l) => lines.push(l) });
    expect(lines).toEqual([
      `took over the lock of ${root} from pid ${dead.pid} on this host, which is no longer running (${state.lock})`,
    ]);
    expect(existsSync(state.tempOf(run))).toBe(false);
    expect(stateLeftovers(root)).toEqual([]);
  });

  it("another host's lock: says it cannot check it, how to break it, and gives up after the wait", async () => {
    const { root } = await setup();
    const state = rootState(root);
    writeFileSync(state.lock, JSON.stringify({ pid: 4242, host: 'build-7', started: '2026-01-02T03:04:05.000Z' }));
    const lines: string[] = [];
    const err = (await withLock(root, () => Promise.resolve(), { waitMs: 300, log: (l) => lines.push(l) }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('pid 4242 on host build-7, started 2026-01-02T03:04:05.000Z');
    expect(lines[0]).toContain('whether it still runs cannot be checked from here');
    expect(lines[0]).toContain(`If it is not running, delete ${state.lock} and run again.`);
    expect(err.message).toContain(`delete ${state.lock}`);
    expect(existsSync(state.lock)).toBe(true); // not ours to delete
    rmSync(state.lock);
  });
});

describe('SIGINT and SIGTERM while writing', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: the old tree stays whole; the new tree, the journal and the lock are gone',
    { timeout: 60_000 },
    async (signal) => {
      const { root } = await setup();
      const before = hashTree(root);
      const c = writeChild([root, 'new'], { OXEN_GENERATE_TEST_PAUSE: 'staging' });
      await c.waitFor('generate: paused at staging', { stream: 'stderr', ms: 30_000 });
      expect(readdirSync(root).some((n) => n.startsWith('.generated.new-'))).toBe(true);
      c.child.kill(signal);
      expect((await c.done).signal).toBe(signal);
      expect(hashTree(root)).toEqual(before);
      expect(readdirSync(root)).toEqual(['generated']);
      expect(stateLeftovers(root)).toEqual([]);
    },
  );
});

describe('an output folder the generator did not make (checkOwnedOutput)', () => {
  it('is refused, naming it and --force; a manifest of its own (even with merge-conflict markers) or --force lets it through', async () => {
    const d = tempDir('run-state-owned-');
    dirs.push(d);
    const owned = path.join(d.dir, 'generated');
    mkdirSync(owned);
    writeFileSync(path.join(owned, '.gitkeep'), '');
    await checkOwnedOutput(d.dir, packageTarget, { force: false }); // hidden files only
    writeFileSync(path.join(owned, 'mine.ts'), 'export {};\n');
    await expect(checkOwnedOutput(d.dir, packageTarget, { force: false })).rejects.toThrow(
      `${owned}/ is not empty (mine.ts) and holds no manifest.json of this generator: it would replace files it did not make. Choose a new or empty folder, or pass --force to replace them.`,
    );
    await checkOwnedOutput(d.dir, packageTarget, { force: true });
    const manifest = renderManifest(new Map([['generated/mine.ts', { inputs: 'a', content: 'b' }]]));
    writeFileSync(path.join(owned, 'manifest.json'), `<<<<<<< HEAD\n${manifest}=======\n${manifest}>>>>>>> other\n`);
    await checkOwnedOutput(d.dir, packageTarget, { force: false });
  });
});
