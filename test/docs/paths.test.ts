// Docs that cannot go stale: every repository path named in a comment (hand-written and generated code), in
// the Markdown (README.md, ARCHITECTURE.md, docs/, each folder's README.md, generated/MODELS.md), in the
// templates and in CI's scripts exists; no committed file names a path of one machine.
// CHANGELOG.md is not checked for paths: it records each change as it was made, naming files as they were
// then; it is checked for machine paths like every other file.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/index.ts';
import { MACHINE_PATH, listRepository, machinePaths, missingPaths, namesIn, withoutCodeBlocks } from './repo-paths.ts';

const files = listRepository(REPO_ROOT).filter((f) => !f.endsWith('/'));
const NAMING = /\.(?:[jt]s|[mc][jt]s|md|hbs)$|^\.ci\/run$|^\.github\/workflows\/.*\.ya?ml$/;
// api-report/ is API Extractor's account of dist/'s declarations; test/docs/fixtures/ holds stale names on purpose.
const named = files.filter(
  (f) => NAMING.test(f) && f !== 'CHANGELOG.md' && !f.startsWith('api-report/') && !f.startsWith('test/docs/fixtures/'),
);
const TEXT = /\.(?:[jt]s|[mc][jt]s|md|hbs|json|ya?ml|html|css|txt)$|^\.ci\/run$|^\.[\w-]+$|^LICENSE$/;

describe('repository paths named in comments and docs', () => {
  it('every named path exists', () => {
    const missing = missingPaths(REPO_ROOT, named).map((m) => `${m.file}:${m.line}: ${m.name}`);
    expect(missing).toEqual([]);
  });

  it('covers the generated files, the templates and the Markdown', () => {
    for (const f of ['generated/validators/flux-2-pro.ts', 'templates/header.hbs', 'README.md', 'docs/design.md'])
      expect(named).toContain(f);
  });

  it('finds a stale name, and passes over placeholders, globs, URLs, code blocks and other projects', () => {
    const names = (text: string) => namesIn(text).map((n) => n.name);
    expect(names('see `runtime/queue-run.ts` and chat-stream.ts, `generator/stages/`')).toEqual([
      'runtime/queue-run.ts',
      'chat-stream.ts',
      'generator/stages/',
    ]);
    expect(names('`models/<id>.ts`, `*.ts`, https://x.dev/a/b.ts, `.d.ts`, `./chunks/...cjs`')).toEqual([]);
    expect(withoutCodeBlocks('a\n```ts\nimport x from "./y/z.ts";\n```\nb')).toBe('a\n\n\n\nb');
    const found = missingPaths(REPO_ROOT, ['test/docs/fixtures/stale-names.ts']).map((m) => [m.line, m.name]);
    expect(found).toEqual([
      [2, 'runtime/queue-run.ts'],
      [2, 'chat-stream.ts'],
      [4, 'stages/no-such-stage.ts'],
    ]);
  });
});

describe('machine paths', () => {
  it('no committed file names a path of one machine', () => {
    const text = files.filter((f) => TEXT.test(path.posix.basename(f)) || TEXT.test(f));
    expect(text.length).toBeGreaterThan(500);
    expect(machinePaths(REPO_ROOT, text).map((m) => `${m.file}:${m.line}: ${m.name}`)).toEqual([]);
  });

  it('rejects each kind of machine path, and accepts the temporary folder named alone', () => {
    // Joined at run time, so that this file does not name them.
    const bad = [
      ['/wo', 'rk/wt/x.ts'],
      ['/ho', 'me/dev/x'],
      ['/Us', 'ers/dev/x'],
      ['/t', 'mp/oxen-run/a.json'],
    ];
    for (const [a, b] of bad) expect(MACHINE_PATH.test(`see ${a}${b} here`), `${a}${b}`).toBe(true);
    // the temporary folder alone, split as above so that this file names no machine path itself
    const tmpAlone = ['/t', 'mp/'].join('');
    const homeInUrl = ['https://example.com/ho', 'me/x/'].join('');
    for (const ok of ['os.tmpdir()', tmpAlone, 'node_modules/.tmp/x', homeInUrl])
      expect(MACHINE_PATH.test(ok), ok).toBe(false);
  });
});
