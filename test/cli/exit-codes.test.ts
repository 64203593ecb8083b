// One exit-code table (generator/cli/exit-codes.ts): every command header and doc that documents the
// commands' exit codes quotes its text, and none says a failure or a usage error exits otherwise.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { EXIT, EXIT_CODES_TEXT } from '../../generator/cli/exit-codes.ts';
import { REPO_ROOT } from '../support/index.ts';

/** Where the commands' exit codes are documented. */
const DOCUMENTED = [
  'scripts/generate.ts',
  'scripts/drift.ts',
  'generator/cli/index.ts',
  'docs/drift.md',
  'docs/codegen.md',
  'docs/development.md',
];

/** The file's text as prose: comment markers and Markdown emphasis dropped, whitespace collapsed. */
function prose(file: string): string {
  return readFileSync(path.join(REPO_ROOT, file), 'utf8')
    .replace(/^\s*(\/\*\*|\*\/|\*|\/\/)/gm, ' ')
    .replace(/\*\*/g, '')
    .replace(/\s+/g, ' ');
}

test('the table: codes 0 to 3, one text naming each in order', () => {
  expect(Object.values(EXIT)).toEqual([0, 1, 2, 3]);
  expect(EXIT_CODES_TEXT).toMatch(/^Exit codes: 0 [^;]+; 1 [^;]+; 2 [^;]+; 3 [^;]+\.$/);
});

test.each(DOCUMENTED)('%s quotes the table', (file) => {
  expect(prose(file)).toContain(EXIT_CODES_TEXT);
});

test.each(DOCUMENTED)('%s gives a failure or a usage error no other code', (file) => {
  const text = prose(file);
  const claims = [
    ...text.matchAll(/\bexits? (?:code )?(\d):? (?:a |when |it )*(?:failure|failed|usage error)/gi),
    ...text.matchAll(/\bexit code (\d): [^.;|]{0,60}\bfailed/gi),
    ...text.matchAll(/\b(fail\w*|usage error)[^.;|(]{0,60}\(exit (\d)\)/gi),
  ].map((m) => ({ text: m[0], code: Number(/\d/.exec(m[0])![0]) }));
  for (const claim of claims) expect(claim.code, claim.text).toBe(EXIT.failed);
  for (const m of text.matchAll(/\bexits? (?:code )?(\d)\b/gi))
    expect(Object.values(EXIT) as number[], m[0]).toContain(Number(m[1]));
});

test('the CLI usage ends with the table', async () => {
  const { main } = await import('../../generator/cli/index.ts');
  let text = '';
  const sink = { write: (s: string) => ((text += s), true) } as unknown as NodeJS.WritableStream;
  expect(await main(['--help'], { stdout: sink, stderr: sink })).toBe(EXIT.ok);
  expect(text.trimEnd().endsWith(EXIT_CODES_TEXT)).toBe(true);
  expect(await main(['nope'], { stdout: sink, stderr: sink })).toBe(EXIT.failed);
});
