/**
 * Every model of the snapshot generates (generated/ is what `npm run generate` makes, see
 * check.test.ts), and strict `tsc --noEmit` over the project — generated/, runtime/ and test/,
 * including the compiled type tests in test/types/sdk.types.ts — passes. The chat, video and Standard
 * Schema type tests (test/types/chat.types.ts, standard-schema.types.ts) compile again under
 * exactOptionalPropertyTypes and the other strictest flags a consumer may use
 * (test/types/tsconfig.strict.json), with every @ts-expect-error negative still an error: a chat model's
 * own parameter type is accepted by its function and by chat.completions.create (typed by `stream`),
 * the response's message goes back into `messages`, and a video takes exactly one of prompt and
 * multi_prompt. Both compile in this worker (test/support/tsc.ts), sharing a cache of their own: the
 * second reuses the first's parsed runtime/, generated/ and declaration files, and the worker keeps none
 * of them after this file.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/index.ts';
import { sourceFileCache, tscProject, type SourceFileCache } from '../support/tsc.ts';

let cache: SourceFileCache | undefined = sourceFileCache([
  ...['runtime', 'generated', 'index.ts'].map((p) => path.join(REPO_ROOT, p)),
  path.join('node_modules', 'typescript', 'lib', ''),
  path.join('node_modules', '@types', ''),
]);
afterAll(() => {
  cache = undefined;
});

describe('tsc --noEmit (strict) over generated/ and test/', () => {
  it.for([
    ['compiles with no error, including every @ts-expect-error negative case of the type tests', 'tsconfig.json'],
    [
      'compiles the chat, video and Standard Schema type tests under exactOptionalPropertyTypes',
      'test/types/tsconfig.strict.json',
    ],
  ] as const)('%s', { timeout: 240_000 }, ([, config]) => {
    const r = tscProject(config, { noEmit: true }, REPO_ROOT, cache);
    expect({ code: r.code, out: r.stdout }).toEqual({ code: 0, out: '' });
  });
});
