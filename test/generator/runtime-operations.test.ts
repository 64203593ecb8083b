/**
 * runtime/operations.ts as one more output of the run (`GenerateOptions.runtime`): tracked by the
 * manifest (rebuilt when the description's operations change, reused otherwise, rebuilt after a
 * hand edit), and written in the same journaled commit as generated/: a failed or killed run never
 * leaves it half-written, nor generated/ and it from different runs once the next run has
 * completed the journal.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.ts';
import { readManifest } from '../../generator/output/manifest.ts';
import { existingRootState } from '../../generator/output/run-state.ts';
import { RUNTIME_OPERATIONS_FILE } from '../../generator/output/target.ts';
import { write } from '../../generator/stages/write.ts';
import { REPO_ROOT, stateLeftovers, tempDir } from '../support/index.ts';
import { RUNTIME_FILE, variantFiles } from './fixtures/write-variants.ts';
import { tempSpecs, writeChild } from './helpers.ts';

const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/** An operation added to the description (a path parameter, so its table entry lists one). */
const EXTRA_OPERATION = `paths:
  /api/extra/{thing_id}:
    get:
      operationId: extraRetrieve
      summary: An operation of this test only.
      parameters:
        - name: thing_id
          in: path
          required: true
          schema:
            type: string
      responses:
        '200':
          description: ok
`;

describe('runtime/operations.ts through the manifest', () => {
  it(
    "is rebuilt when the description's operations change, reused when nothing changed, rebuilt after a hand edit",
    { timeout: 180_000 },
    async () => {
      const t = await tempSpecs(['flux-2-pro']);
      try {
        await mkdir(path.join(t.root, 'runtime'));
        const file = path.join(t.root, RUNTIME_OPERATIONS_FILE);
        // `label`: the headers name `specs/` as the repository's do, so the text is the repository's
        const options = { specsDir: t.specsDir, outRoot: t.root, runtime: true, label: 'specs' };
        const first = await generate(options);
        expect(first.added).toContain(RUNTIME_OPERATIONS_FILE);
        expect(await readFile(file, 'utf8')).toBe(
          await readFile(path.join(REPO_ROOT, RUNTIME_OPERATIONS_FILE), 'utf8'),
        );
        expect((await readManifest(t.root)).get(RUNTIME_OPERATIONS_FILE)?.content).toMatch(/^[0-9a-f]{64}$/);

        const same = await generate(options);
        expect(same.rebuilt).toEqual([]);
        expect([...same.added, ...same.changed, ...same.removed]).toEqual([]);

        const yaml = path.join(t.specsDir, 'openapi.yaml');
        const text = await readFile(yaml, 'utf8');
        expect(text).toContain('\npaths:\n');
        await writeFile(yaml, text.replace('\npaths:\n', `\n${EXTRA_OPERATION}`));
        const changed = await generate(options);
        expect(changed.rebuilt).toContain(RUNTIME_OPERATIONS_FILE);
        expect(changed.changed).toContain(RUNTIME_OPERATIONS_FILE);
        const now = await readFile(file, 'utf8');
        expect(now).toContain("/** `GET /api/extra/{thing_id}`. */\nexport const extraRetrieve = {\n  method: 'GET',");
        expect(now).toContain(
          "  extraRetrieve: {\n    method: 'GET',\n    path: '/api/extra/{thing_id}',\n    pathParams: ['thing_id'],\n    query: [],\n  },",
        );

        await writeFile(file, `${now}// a hand edit\n`);
        const edited = await generate(options);
        expect(edited.rebuilt).toEqual([RUNTIME_OPERATIONS_FILE]);
        expect(await readFile(file, 'utf8')).toBe(now);

        // by default only a run into this repository produces it: elsewhere it is not an output, and is left alone
        const without = await generate({ specsDir: t.specsDir, outRoot: t.root, label: 'specs' });
        expect(without.files.has(RUNTIME_OPERATIONS_FILE)).toBe(false);
        expect(without.removed).toEqual([]);
        expect(await readFile(file, 'utf8')).toBe(now);
      } finally {
        await t.cleanup();
      }
    },
  );
});

describe('runtime/operations.ts is written with generated/, all or nothing', () => {
  async function root(): Promise<string> {
    const d = tempDir('operations-commit-test-');
    dirs.push(d);
    await mkdir(path.join(d.dir, 'runtime'));
    await write(variantFiles('old', true), d.dir, { outside: [RUNTIME_FILE] });
    return d.dir;
  }
  /** Which variant `generated/` and runtime/operations.ts each are (`a mix` when neither). */
  async function variants(dir: string): Promise<{ generated: string; runtime: string }> {
    const which = async (files: string[]) => {
      for (const v of ['old', 'new']) {
        const want = variantFiles(v, true);
        const texts = await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8').catch(() => undefined)));
        if (files.every((f, i) => texts[i] === want.get(f))) return v;
      }
      return 'a mix';
    };
    const generated = [...variantFiles('old', true).keys()].filter((f) => f.startsWith('generated/models/'));
    return { generated: await which(generated), runtime: await which([RUNTIME_FILE]) };
  }
  /** What is in runtime/ but the file (a staged or old copy), and the root's lock, journal and temporary folders. */
  const leftovers = (dir: string) => [
    ...readdirSync(path.join(dir, 'runtime')).filter((n) => n !== 'operations.ts'),
    ...readdirSync(dir).filter((n) => n !== 'generated' && n !== 'runtime'),
    ...stateLeftovers(dir),
  ];

  for (const failing of [RUNTIME_FILE, 'generated/models/m100.ts'])
    it(`a write that fails (writing ${failing}) changes neither, and leaves no staged file`, async () => {
      const dir = await root();
      // the runtime file is staged beside itself (`.operations.ts.new-<run>`), a generated one inside the staged tree
      const fails = (f: string) =>
        failing === RUNTIME_FILE
          ? path.basename(f).startsWith('.operations.ts.new-')
          : f.endsWith(`${path.sep}${path.basename(failing)}`);
      const fs = {
        writeFile: async (f: string, text: string) => {
          if (fails(f)) throw new Error(`no space left writing ${failing}`);
          await writeFile(f, text);
        },
      };
      await expect(write(variantFiles('new', true), dir, { outside: [RUNTIME_FILE], fs })).rejects.toThrow(
        /no space left/,
      );
      expect(await variants(dir)).toEqual({ generated: 'old', runtime: 'old' });
      expect(leftovers(dir)).toEqual([]);
    });

  /** A child writing variant `new` with runtime/operations.ts, stopped at `pause` and killed. */
  async function killedAt(dir: string, pause: 'staging' | 'between'): Promise<void> {
    const c = writeChild([dir, 'new', 'runtime'], { OXEN_GENERATE_TEST_PAUSE: pause });
    await c.waitFor('generate: paused at', { stream: 'stderr', ms: 120_000 });
    c.child.kill('SIGKILL');
    expect((await c.done).signal).toBe('SIGKILL');
  }

  it(
    'kill -9 while the new files are written: both stay old and whole; the next run cleans up and writes both',
    { timeout: 60_000 },
    async () => {
      const dir = await root();
      await killedAt(dir, 'staging');
      expect(await variants(dir)).toEqual({ generated: 'old', runtime: 'old' });
      await write(variantFiles('new', true), dir, { outside: [RUNTIME_FILE] });
      expect(await variants(dir)).toEqual({ generated: 'new', runtime: 'new' });
      expect(leftovers(dir)).toEqual([]);
    },
  );

  it(
    'kill -9 after generated/ is swapped, before runtime/operations.ts: it is whole (old); the next run rolls forward first',
    { timeout: 60_000 },
    async () => {
      const dir = await root();
      await killedAt(dir, 'between');
      expect(await variants(dir)).toEqual({ generated: 'new', runtime: 'old' });
      expect(existsSync(existingRootState(dir)!.journal)).toBe(true);
      // the next run (writing the old variant again) completes the journal, then compares with both new
      const r = await write(variantFiles('old', true), dir, { outside: [RUNTIME_FILE] });
      expect(r.changed).toContain(RUNTIME_FILE);
      expect(await variants(dir)).toEqual({ generated: 'old', runtime: 'old' });
      expect(leftovers(dir)).toEqual([]);
    },
  );
});
