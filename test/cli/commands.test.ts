// The shared commands (generator/cli/commands.ts), in process: what they print, the files --report
// writes, and the code of the one table (generator/cli/exit-codes.ts) for each outcome.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  reportFilesProblem,
  runGenerate,
  runSnapshotChange,
  type CommandTarget,
  type SnapshotChange,
} from '../../generator/cli/commands.ts';
import { EXIT } from '../../generator/cli/exit-codes.ts';
import { diffSnapshots } from '../../generator/drift/index.ts';
import type { Snapshot } from '../../generator/drift/types.ts';
import type { GenerateResult } from '../../generator/index.ts';
import { RefreshError } from '../../generator/refresh/checks.ts';
import { tempDir } from '../support/index.ts';

const target: CommandTarget = {
  tool: 'oxen-inference-codegen',
  outPrefix: 'oxen-models/',
  into: 'oxen-models',
  specsPrefix: 'oxen-models/specs/',
  rerun: 'oxen-inference-codegen generate',
  removeCommand: (ids) => `oxen-inference-codegen remove ${ids.join(' ')}`,
};

function capture() {
  const lines = { out: [] as string[], err: [] as string[] };
  return { lines, io: { out: (l: string) => void lines.out.push(l), err: (l: string) => void lines.err.push(l) } };
}

/** A generate result of one model whose four files were all added. */
const oneModel = {
  models: 1,
  added: ['models/a.ts', 'validators/a.ts', 'index.ts', 'manifest.json'],
  changed: [],
  removed: [],
  unchanged: 0,
  notes: [],
  files: new Map(),
  rebuilt: [],
} as unknown as GenerateResult;

const snap = (ids: string[]): Snapshot => ({
  label: 'specs',
  ids,
  models: new Map(ids.map((id) => [id, { id, request_schema: { type: 'object', properties: {} } }])),
});

/** A refresh that kept `gone` (no longer served) and fetched `kept`. */
function refreshResult(): Awaited<ReturnType<SnapshotChange['run']>> {
  return {
    baseUrl: 'http://127.0.0.1:1',
    fetched: ['gone', 'kept'],
    added: [],
    removed: [],
    notServed: ['gone'],
    written: [],
    deleted: [],
    generate: { ...oneModel, models: 2, added: [], unchanged: 6 },
    report: diffSnapshots(snap(['gone', 'kept']), snap(['gone', 'kept']), { notServed: ['gone'] }),
  };
}

describe('runSnapshotChange', () => {
  test('add: counts and nouns right (1 model, 1 snapshot file, 4 files), exit 0', async () => {
    const { lines, io } = capture();
    const code = await runSnapshotChange(
      target,
      {
        command: 'add',
        refresh: false,
        reports: [],
        redact: (t) => t,
        run: async () => ({
          ...refreshResult(),
          fetched: ['a'],
          added: ['a'],
          notServed: [],
          written: ['models.json'],
          generate: oneModel,
        }),
      },
      io,
    );
    expect(code).toBe(EXIT.ok);
    const text = lines.out.join('\n');
    expect(text).toMatch(
      /^add: 1 model fetched from http:\/\/127\.0\.0\.1:1, added a; 1 snapshot file written, 0 deleted/,
    );
    expect(text).toContain('generated 1 model into oxen-models (files: 4 added, 0 changed, 0 removed, 0 unchanged)');
    expect(text).not.toMatch(/1 models|file\(s\)/);
  });

  test('refresh keeping a model no longer served: exit 2, and --report files (Markdown, JSON) name it', async () => {
    const tmp = tempDir('commands-');
    const [md, json] = [path.join(tmp.dir, 'drift.md'), path.join(tmp.dir, 'drift.json')];
    const { lines, io } = capture();
    const code = await runSnapshotChange(
      target,
      { command: 'refresh', refresh: true, reports: [md, json], redact: (t) => t, run: async () => refreshResult() },
      io,
    );
    expect(code).toBe(EXIT.breaking);
    expect(lines.out.join('\n')).toContain(
      'no longer served (HTTP 404), kept in oxen-models/specs until removed: gone (`oxen-inference-codegen remove gone`)',
    );
    expect(readFileSync(md, 'utf8')).toMatch(/^\*\*Schema drift: 1 breaking, 0 compatible/);
    expect(readFileSync(md, 'utf8')).toContain('no longer served');
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ breaking: 1, removed: ['gone'] });
    tmp.remove();
  });

  test('a failed change: exit 3, one line naming the command, no doubled "nothing was written"', async () => {
    const { lines, io } = capture();
    const code = await runSnapshotChange(
      target,
      {
        command: 'refresh',
        refresh: true,
        reports: [],
        redact: (t) => t,
        run: () => Promise.reject(new RefreshError('refresh failed, nothing was written: 1 of 2 models failed')),
      },
      io,
    );
    expect(code).toBe(EXIT.failed);
    expect(lines.err).toEqual(['oxen-inference-codegen refresh failed, nothing was written: 1 of 2 models failed']);
  });
});

describe('runGenerate', () => {
  test('--check with one difference: exit 1, "1 file would change"; up to date: exit 0', async () => {
    const differs = capture();
    const one = { ...oneModel, added: ['models/a.ts'] };
    expect(await runGenerate(target, true, async () => ({ result: one }), differs.io)).toBe(EXIT.changed);
    expect(differs.lines.err[0]).toMatch(/^oxen-inference-codegen generate --check: 1 file would change; run/);
    expect(differs.lines.err[0]).toContain('  added    oxen-models/models/a.ts');
    const same = capture();
    const none = { ...oneModel, added: [], unchanged: 4 } as GenerateResult;
    expect(await runGenerate(target, true, async () => ({ result: none }), same.io)).toBe(EXIT.ok);
    expect(same.lines.out[0]).toMatch(
      /^oxen-inference-codegen generate --check: oxen-models is up to date \(1 model, /,
    );
  });

  test('a failure: exit 3, nothing was written', async () => {
    const { lines, io } = capture();
    expect(await runGenerate(target, false, () => Promise.reject(new Error('bad')), io)).toBe(EXIT.failed);
    expect(lines.err).toEqual(['oxen-inference-codegen generate failed, nothing was written: bad']);
  });
});

describe('reportFilesProblem (checked before a refresh runs, so a report that cannot be written changes nothing)', () => {
  test('a missing folder, a folder named as the file, and writable files', () => {
    const t = tempDir('inference-sdk-report-');
    try {
      mkdirSync(path.join(t.dir, 'a-folder'));
      writeFileSync(path.join(t.dir, 'old.md'), 'old\n');
      expect(reportFilesProblem([path.join(t.dir, 'new.md'), path.join(t.dir, 'old.md')])).toBeUndefined();
      expect(reportFilesProblem([path.join(t.dir, 'nowhere', 'r.md')])).toBe(
        `--report ${path.join(t.dir, 'nowhere', 'r.md')}: its folder does not exist`,
      );
      expect(reportFilesProblem([path.join(t.dir, 'old.md'), path.join(t.dir, 'a-folder')])).toBe(
        `--report ${path.join(t.dir, 'a-folder')}: it exists and is not a file`,
      );
    } finally {
      t.remove();
    }
  });

  // root may write anywhere, so a read-only folder is refused only for other users
  test.skipIf(process.getuid?.() === 0)('a folder or file that is not writable', () => {
    const t = tempDir('inference-sdk-report-');
    const locked = path.join(t.dir, 'locked');
    try {
      mkdirSync(locked);
      writeFileSync(path.join(t.dir, 'ro.md'), 'old\n');
      chmodSync(path.join(t.dir, 'ro.md'), 0o444);
      chmodSync(locked, 0o555);
      expect(reportFilesProblem([path.join(locked, 'r.md')])).toBe(
        `--report ${path.join(locked, 'r.md')}: its folder is not writable`,
      );
      expect(reportFilesProblem([path.join(t.dir, 'ro.md')])).toBe(
        `--report ${path.join(t.dir, 'ro.md')}: it is not writable`,
      );
    } finally {
      chmodSync(locked, 0o755);
      t.remove();
    }
  });
});
