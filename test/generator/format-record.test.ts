/**
 * The record of how texts were formatted (`generator/index.ts`, `formattedBefore`): a rebuilt file
 * whose unformatted text, prettier version and options are those this machine formatted before, and
 * whose bytes on disk are what it formatted them into, is taken from disk without running prettier
 * (as after a change to the generator that leaves most texts as they were). A file whose bytes
 * differ is formatted again. `OXEN_GENERATE_OFF=inputs` rebuilds every file, as such a change does.
 */
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.ts';
import { JobQueue } from '../../generator/stages/job-queue.ts';
import { tempSpecs } from './helpers.ts';
import { REPO_ROOT } from '../support/index.ts';

const before = process.env['OXEN_GENERATE_OFF'];
afterEach(() => {
  if (before === undefined) delete process.env['OXEN_GENERATE_OFF'];
  else process.env['OXEN_GENERATE_OFF'] = before;
});

describe('the record of formatted texts', () => {
  it(
    'skips prettier for a rebuilt text it formatted before, and formats a file edited on disk again',
    {
      timeout: 120_000,
    },
    async () => {
      const t = await tempSpecs(['flux-2-pro', 'gpt-4o-mini']);
      try {
        await generate({ specsDir: t.specsDir, outRoot: t.root });
        // the index is laid out by the generator but for the statements it leaves to prettier (its class: layout.test.ts)
        const index = path.join(t.root, 'generated/index.ts');
        const made = await readFile(index, 'utf8');

        // every file rebuilt (its inputs not reused), every text as before: prettier does not run
        process.env['OXEN_GENERATE_OFF'] = 'inputs';
        const quiet = new JobQueue(REPO_ROOT);
        const again = await generate({ specsDir: t.specsDir, outRoot: t.root, jobs: quiet });
        await quiet.close();
        expect(again.rebuilt).toContain('generated/models/flux-2-pro.ts');
        expect(again.rebuilt.length).toBe(again.files.size - 1); // all but the manifest
        expect(quiet.spent.format).toBe(0);
        expect({ added: again.added, changed: again.changed, removed: again.removed }).toEqual({
          added: [],
          changed: [],
          removed: [],
        });

        // bytes on disk other than the recorded ones: formatted again, and the file repaired
        await appendFile(index, '// hand edit\n');
        const busy = new JobQueue(REPO_ROOT);
        const repaired = await generate({ specsDir: t.specsDir, outRoot: t.root, jobs: busy });
        await busy.close();
        expect(busy.spent.format).toBeGreaterThan(0);
        expect(repaired.changed).toEqual(['generated/index.ts']);
        expect(await readFile(index, 'utf8')).toBe(made);
      } finally {
        await t.cleanup();
      }
    },
  );
});
