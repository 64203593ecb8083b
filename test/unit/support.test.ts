/**
 * The shared test helpers (test/support/, its runner from scripts/lib/process.ts): what tests rely
 * on when they assert on a child process, a wait or a file tree.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashTree, run, start, tempDir, until } from '../support/index.ts';

const node = (code: string) => [process.execPath, ['-e', code]] as const;
const work = tempDir('support-test-');
afterAll(() => work.remove());

describe('run and start', () => {
  it('collects stdout, stderr and the exit code, whole characters included', async () => {
    const r = await run(...node("process.stdout.write('a\\u00e9'); process.stderr.write('b'); process.exit(3)"));
    expect(r).toEqual({ code: 3, signal: null, stdout: 'aé', stderr: 'b', timedOut: false });
  });

  it('kills a child past its timeout and says so', async () => {
    const r = await run(...node('setInterval(() => {}, 1000)'), { timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
  });

  it('waitFor resolves once the output holds the pattern, and rejects when the child ends first', async () => {
    const c = start(...node("console.log('ready'); setTimeout(() => {}, 200)"));
    expect(await c.waitFor('ready', { stream: 'stdout' })).toContain('ready');
    await c.done;
    const d = start(...node("console.log('other')"));
    await expect(d.waitFor(/never/)).rejects.toThrow(/ended before/);
  });
});

describe('until', () => {
  it('resolves when the condition holds, and fails after its time with the detail', async () => {
    let n = 0;
    await until(() => ++n > 3);
    await expect(
      until(
        () => false,
        20,
        () => 'state x',
      ),
    ).rejects.toThrow(/in 20 ms: state x/);
  });
});

describe('hashTree', () => {
  it('is {} for a missing directory and changes with any byte or name', () => {
    expect(hashTree(path.join(work.dir, 'absent'))).toEqual({});
    const dir = path.join(work.dir, 'tree');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'sub', 'a.txt'), 'x');
    const before = hashTree(dir);
    expect(Object.keys(before)).toEqual([path.join('sub', 'a.txt')]);
    writeFileSync(path.join(dir, 'sub', 'a.txt'), 'y');
    expect(hashTree(dir)).not.toEqual(before);
  });
});
