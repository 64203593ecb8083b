/**
 * Every model of the snapshot generates (generated/ is what `npm run generate` makes, see
 * check.test.ts), and the project type-checks strictly:
 * - `npm run typecheck`, TypeScript 7 (the native compiler, `@typescript/native`) over the whole project
 *   (tsconfig.json: generated/, runtime/, generator/, scripts and test/, including the compiled type
 *   tests in test/types/): no error, every @ts-expect-error negative case still an error;
 * - the type tests again with TypeScript 5.9 (the compiler API's version, the one ts-morph, TypeDoc and
 *   API Extractor run, and the oldest a consumer is tested with): under the project's flags
 *   (test/types/tsconfig.json), and the chat, video and Standard Schema ones under
 *   exactOptionalPropertyTypes and the other strictest flags a consumer may use
 *   (test/types/tsconfig.strict.json). A chat model's own parameter type is accepted by its function and
 *   by chat.completions.create (typed by `stream`), the response's message goes back into `messages`,
 *   and a video takes exactly one of prompt and multi_prompt.
 * The two 5.9 compiles run in this worker (test/support/tsc.ts) sharing a cache of their own: the second
 * reuses the first's parsed runtime/, generated/ and declaration files, and the worker keeps none of
 * them after this file. `.ci/run` also runs `npm run typecheck:ts5` (TypeScript 5.9 over the project).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, run } from '../support/index.ts';
import { sourceFileCache, tscProject, type SourceFileCache } from '../support/tsc.ts';

let cache: SourceFileCache | undefined = sourceFileCache([
  ...['runtime', 'generated', 'index.ts'].map((p) => path.join(REPO_ROOT, p)),
  path.join('node_modules', 'typescript', 'lib', ''),
  path.join('node_modules', '@types', ''),
]);
afterAll(() => {
  cache = undefined;
});

describe('the project type-checks (strict)', () => {
  it(
    'npm run typecheck (TypeScript 7) compiles the project with no error, including every @ts-expect-error negative case of the type tests',
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

  it.for([
    ['TypeScript 5.9 compiles every type test under the project flags', 'test/types/tsconfig.json'],
    [
      'TypeScript 5.9 compiles the chat, video and Standard Schema type tests under exactOptionalPropertyTypes',
      'test/types/tsconfig.strict.json',
    ],
  ] as const)('%s', { timeout: 240_000 }, ([, config]) => {
    const r = tscProject(config, { noEmit: true }, REPO_ROOT, cache);
    expect({ code: r.code, out: r.stdout }).toEqual({ code: 0, out: '' });
  });
});
