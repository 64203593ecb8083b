/**
 * The write stage replaces generated/ whole: two runs at once leave one complete tree (never a mix,
 * never missing files), a run killed with SIGKILL mid-write leaves the old tree (or, mid-swap, a
 * journal in the state folder) that the next plain run completes or cleans, with no temporary file
 * left, one stopped by SIGINT or SIGTERM cleans up itself, and an up-to-date run takes no lock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withLock } from '../../generator/output/lock.ts';
import { existingRootState, rootState } from '../../generator/output/run-state.ts';
import { write } from '../../generator/stages/write.ts';
import { stateLeftovers, tempDir, type RunResult } from '../support/index.ts';
import { writeChild } from './helpers.ts';
import { variantFiles } from './fixtures/write-variants.ts';

const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
async function tempRoot(): Promise<string> {
  const d = tempDir('tree-commit-test-');
  dirs.push(d);
  return d.dir;
}

/** The tree under `<root>/generated` as path -> text. */
async function tree(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const dir = path.join(root, 'generated');
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    out.set(path.relative(root, full).split(path.sep).join('/'), await readFile(full, 'utf8'));
  }
  return out;
}

/** Which variant the tree is exactly, or a description of the mix. */
async function whichVariant(root: string, variants: string[]): Promise<string> {
  const t = await tree(root);
  for (const v of variants) {
    const want = variantFiles(v);
    if (t.size === want.size && [...want].every(([f, text]) => t.get(f) === text)) return v;
  }
  return `a mix of ${t.size} files`;
}

/** Entries of the root other than generated/ (temporary trees), and the root's lock, journal and temporary folders. */
function leftovers(root: string): string[] {
  return [...readdirSync(root).filter((n) => n !== 'generated'), ...stateLeftovers(root)];
}

function child(
  root: string,
  variant: string,
  env: Record<string, string> = {},
): { proc: ChildProcess; done: Promise<RunResult>; paused: () => Promise<unknown> } {
  const c = writeChild([root, variant], env);
  return {
    proc: c.child,
    done: c.done,
    paused: () => c.waitFor('generate: paused at', { stream: 'stderr', ms: 120_000 }),
  };
}

describe('two runs at once', () => {
  it(
    'every file changing: each run exits 0 and the tree is exactly one of the two, over several trials',
    { timeout: 180_000 },
    async () => {
      for (let trial = 0; trial < 4; trial++) {
        const root = await tempRoot();
        await write(variantFiles('old'), root);
        const [a, b] = [child(root, 'a'), child(root, 'b')];
        const [ra, rb] = await Promise.all([a.done, b.done]);
        expect([ra.code, rb.code], ra.stderr + rb.stderr).toEqual([0, 0]);
        expect(['a', 'b']).toContain(await whichVariant(root, ['a', 'b']));
        expect(leftovers(root)).toEqual([]);
      }
    },
  );

  it('in one process too: the second write waits for the first, both complete', async () => {
    const root = await tempRoot();
    await write(variantFiles('old'), root);
    await Promise.all([write(variantFiles('a'), root), write(variantFiles('b'), root)]);
    expect(['a', 'b']).toContain(await whichVariant(root, ['a', 'b']));
    expect(leftovers(root)).toEqual([]);
  });
});

describe('kill -9 during the write stage', () => {
  it(
    'while the new tree is written: the old tree stays whole; the next plain run cleans up and writes',
    { timeout: 60_000 },
    async () => {
      const root = await tempRoot();
      await write(variantFiles('old'), root);
      const c = child(root, 'new', { OXEN_GENERATE_TEST_PAUSE: 'staging' });
      await c.paused();
      c.proc.kill('SIGKILL');
      expect((await c.done).signal).toBe('SIGKILL');
      expect(await whichVariant(root, ['old'])).toBe('old');
      expect(leftovers(root).length).toBeGreaterThan(0); // the half-written tree and the journal
      await write(variantFiles('new'), root);
      expect(await whichVariant(root, ['new'])).toBe('new');
      expect(leftovers(root)).toEqual([]);
    },
  );

  it(
    'between the two renames of the swap: the next plain run completes the new tree first',
    { timeout: 60_000 },
    async () => {
      const root = await tempRoot();
      await write(variantFiles('old'), root);
      const c = child(root, 'new', { OXEN_GENERATE_TEST_PAUSE: 'swapping' });
      await c.paused();
      c.proc.kill('SIGKILL');
      await c.done;
      expect(existsSync(existingRootState(root)!.journal)).toBe(true);
      expect(existsSync(path.join(root, 'generated'))).toBe(false); // moved aside; never a mix
      // the next run (writing the old variant again) first rolls the journal forward, then writes
      const r = await write(variantFiles('old'), root);
      expect(r.added).toContain('generated/only-old.ts'); // compared with the completed new tree
      expect(r.removed).toEqual(['generated/only-new.ts']);
      expect(await whichVariant(root, ['old'])).toBe('old');
      expect(leftovers(root)).toEqual([]);
    },
  );

  it('an up-to-date run after the kill still completes the journal', { timeout: 60_000 }, async () => {
    const root = await tempRoot();
    await write(variantFiles('old'), root);
    const c = child(root, 'new', { OXEN_GENERATE_TEST_PAUSE: 'swapping' });
    await c.paused();
    c.proc.kill('SIGKILL');
    await c.done;
    await write(variantFiles('new'), root);
    expect(await whichVariant(root, ['new'])).toBe('new');
    expect(leftovers(root)).toEqual([]);
  });
});

describe('the lock', () => {
  it('a stale lock (its pid is not alive) is broken', async () => {
    const root = await tempRoot();
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.on('close', r));
    const { hostname } = await import('node:os');
    await writeFile(rootState(root).lock, JSON.stringify({ pid: dead.pid, host: hostname() }));
    await write(variantFiles('a'), root, { lockWaitMs: 0 });
    expect(await whichVariant(root, ['a'])).toBe('a');
    expect(leftovers(root)).toEqual([]);
  });

  it('a live lock is waited for, and named when the wait runs out', async () => {
    const root = await tempRoot();
    let release: () => void = () => undefined;
    const held = withLock(root, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    await expect(write(variantFiles('a'), root, { lockWaitMs: 100 })).rejects.toThrow(
      new RegExp(
        `another run holds the lock of .* \\(pid ${process.pid} on this host, started [^)]*\\); waited 100 ms\\. If it is not running, delete .*\\.lock and run again`,
      ),
    );
    expect(existsSync(path.join(root, 'generated'))).toBe(false);
    const waiting = write(variantFiles('a'), root);
    release();
    await held;
    await waiting;
    expect(await whichVariant(root, ['a'])).toBe('a');
  });

  it('an up-to-date run takes no lock (it does not wait for a held one)', async () => {
    const root = await tempRoot();
    await write(variantFiles('a'), root);
    let release: () => void = () => undefined;
    const held = withLock(root, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    const r = await write(variantFiles('a'), root, { lockWaitMs: 0 });
    expect(r.unchanged).toBe(variantFiles('a').size);
    release();
    await held;
  });
});
