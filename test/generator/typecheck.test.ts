/**
 * Every model of the snapshot generates (generated/ is what `npm run generate` makes, see
 * check.test.ts), and strict `tsc --noEmit` over the project — generated/, runtime/ and test/,
 * including the compiled type tests in test/types/sdk.types.ts — passes.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, run } from '../support/index.ts';

describe('tsc --noEmit (strict) over generated/ and test/', () => {
  it(
    'compiles with no error, including every @ts-expect-error negative case of the type tests',
    { timeout: 240_000 },
    async () => {
      const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const r = await run(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json']);
      const result = { code: r.code, out: r.stdout + r.stderr };
      expect(result.out).toBe('');
      expect(result.code).toBe(0);
    },
  );
});
