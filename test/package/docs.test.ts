/**
 * The API reference (`npm run docs`, TypeDoc with typedoc.json) builds from the docstrings with zero
 * warnings: typedoc.json sets `treatWarningsAsErrors`, so a warning fails the build. Written to a
 * temporary directory, not docs/api/.
 */
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { afterAll, expect, test } from 'vitest';
import { REPO_ROOT, run, tempDir } from '../support/index.ts';

const out = tempDir('inference-sdk-docs-');
afterAll(() => out.remove());

test('TypeDoc builds the API reference with no warning', { timeout: 180_000 }, async () => {
  const typedoc = path.join(REPO_ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');
  const result = await run(process.execPath, [typedoc, '--out', out.dir], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const problems = (result.stdout + result.stderr).split('\n').filter((line) => /\[(warning|error)\]/.test(line));
  expect(problems.join('\n')).toBe('');
  expect(result.code).toBe(0);
  expect(readdirSync(out.dir)).toContain('index.html');
});
