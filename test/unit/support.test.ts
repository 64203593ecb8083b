/**
 * The shared test helpers (test/support/, its runner from scripts/lib/process.ts): what tests rely
 * on when they assert on a child process, a wait, a file tree or a TypeScript compile.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashTree, REPO_ROOT, run, start, tempDir, until } from '../support/index.ts';
import { tscProject } from '../support/tsc.ts';

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

describe('tscProject (TypeScript compiles in the worker)', () => {
  const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const project = path.join(work.dir, 'ts-project');
  const write = (files: Record<string, string>) => {
    mkdirSync(project, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(project, name), text);
  };
  const compileBoth = async () => {
    const child = await run(process.execPath, [tsc, '-p', project, '--pretty', 'false'], { cwd: project });
    const inWorker = tscProject(project, {}, project);
    return {
      child: { code: child.code, out: child.stdout + child.stderr },
      inWorker: { code: inWorker.code, out: inWorker.stdout },
    };
  };

  it(
    'prints what a tsc process prints and exits as it does: semantic errors, syntax errors, none',
    { timeout: 240_000 },
    async () => {
      write({
        'tsconfig.json': JSON.stringify({
          compilerOptions: {
            strict: true,
            module: 'NodeNext',
            target: 'ES2022',
            outDir: 'build',
            // the smallest lib that compiles this: the compiles are about the output, not the lib
            lib: ['ES5'],
            types: [],
          },
          include: ['*.ts'],
        }),
        'a.ts': "const x: number = 'a';\nexport const y = x.toFixed();\nimport { z } from './b.js';\nexport { z };\n",
        'b.ts': 'export const q: string = 1;\n',
      });
      const semantic = await compileBoth();
      expect(semantic.child.out).toMatch(/^a\.ts\(1,7\): error TS2322: /);
      expect(semantic.child.out.split('\n').filter(Boolean)).toHaveLength(3);
      expect(semantic.inWorker).toEqual(semantic.child);
      // --noEmit prints and exits the same
      const noEmit = tscProject(project, { noEmit: true }, project);
      expect({ code: noEmit.code, out: noEmit.stdout }).toEqual(semantic.child);

      write({ 'b.ts': 'export const q: string = ;\n' }); // a syntax error: the semantic ones are not reported
      const syntax = await compileBoth();
      expect(syntax.child.out).toMatch(/^b\.ts\(1,26\): error TS1109: /);
      expect(syntax.inWorker).toEqual(syntax.child);

      write({ 'a.ts': 'export const x: number = 1;\n', 'b.ts': "export const q: string = '';\n" });
      const clean = tscProject(project, {}, project);
      expect({ code: clean.code, out: clean.stdout }).toEqual({ code: 0, out: '' });
    },
  );
});
