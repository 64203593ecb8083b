/**
 * Every model of the snapshot generates (generated/ is what `npm run generate` makes, see
 * check.test.ts), and strict `tsc --noEmit` over the project — generated/, runtime/ and test/,
 * including the compiled type tests in test/types/sdk.types.ts — passes.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../generator/index.ts';

describe('tsc --noEmit (strict) over generated/ and test/', () => {
  it(
    'compiles with no error, including every @ts-expect-error negative case of the type tests',
    { timeout: 240_000 },
    async () => {
      const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const result = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json'], {
        cwd: REPO_ROOT,
        maxBuffer: 64 << 20,
      }).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
      );
      expect(result.out).toBe('');
      expect(result.code).toBe(0);
    },
  );
});
