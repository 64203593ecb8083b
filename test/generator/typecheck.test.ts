/**
 * Every model of the snapshot generates (generated/ is what `npm run generate` makes, see
 * check.test.ts), and the project type-checks strictly: `npm run typecheck` (scripts/typecheck.mjs),
 * TypeScript 7's native compiler over
 * - the whole project (tsconfig.json: generated/, runtime/, generator/, scripts and test/, including the
 *   compiled type tests of test/types/): no error, every @ts-expect-error negative case still an error;
 * - the files that ship without Node.js's types (tsconfig.build.json);
 * - the chat, video and Standard Schema type tests under exactOptionalPropertyTypes and the other
 *   strictest flags a consumer may use (test/types/tsconfig.strict.json): a chat model's own parameter
 *   type is accepted by its function and by chat.completions.create (typed by `stream`), the response's
 *   message goes back into `messages`, and a video takes exactly one of prompt and multi_prompt.
 * `.ci/run` compiles the same projects with TypeScript 5.9 (`npm run typecheck:ts5`), the compiler API's
 * version; in `npm test` TypeScript 5.9 compiles what a consumer compiles (test/package/, test/cli/).
 */
import { expect, it } from 'vitest';
import { REPO_ROOT, run } from '../support/index.ts';

it(
  'npm run typecheck (TypeScript 7) compiles the project, the shipped files and the strictest type tests with no error, including every @ts-expect-error negative case',
  { timeout: 240_000 },
  async () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = await run(npm, ['run', '--silent', 'typecheck', '--', '--pretty', 'false'], {
      cwd: REPO_ROOT,
      timeoutMs: 240_000,
    });
    expect({ code: r.code, out: r.stdout + r.stderr }).toEqual({ code: 0, out: '' });
  },
);
