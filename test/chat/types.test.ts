/**
 * The chat and video type tests (test/types/chat.types.ts) compile under exactOptionalPropertyTypes and
 * the other strictest flags (test/types/tsconfig.strict.json), with every @ts-expect-error negative
 * still an error: a chat model's own parameter type is accepted by its function and by
 * chat.completions.create (typed by `stream`), the response's message goes back into `messages`, and a
 * video takes exactly one of prompt and multi_prompt.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, run } from '../support/index.ts';

describe('chat and video types under exactOptionalPropertyTypes', () => {
  it('compiles with no error', { timeout: 240_000 }, async () => {
    const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = await run(process.execPath, [tsc, '--noEmit', '-p', 'test/types/tsconfig.strict.json']);
    const result = { code: r.code, out: r.stdout + r.stderr };
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  });
});
