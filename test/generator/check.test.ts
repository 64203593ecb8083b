/** `npm run generate -- --check` writes nothing and exits 1 listing every file that would change. */
import { execFile } from 'node:child_process';
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generate, REPO_ROOT } from '../../generator/index.ts';
import { hashTree, tempSpecs } from './helpers.ts';

const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', ...args], { cwd: REPO_ROOT }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('generate --check', () => {
  it('passes on the committed generated/ (it is what the generator makes from specs/)', { timeout: 60_000 }, async () => {
    const r = await generate({ check: true });
    expect({ added: r.added, changed: r.changed, removed: r.removed }).toEqual({ added: [], changed: [], removed: [] });
  });

  // the first generate below fills the output cache: a hand edit must still be found (cache.ts reuses a file only when its bytes hash to the cached output)
  it('exits 1 listing every changed, missing and stale file, and writes nothing', { timeout: 90_000 }, async () => {
    const t = await tempSpecs(['flux-2-pro', 'gpt-4o-mini', 'google-veo-3-1']);
    try {
      await generate({ specsDir: t.specsDir, outRoot: t.root });
      const g = path.join(t.root, 'generated');
      await appendFile(path.join(g, 'models/flux-2-pro.ts'), '// hand edit\n');
      await rm(path.join(g, 'models/gpt-4o-mini.ts'));
      await mkdir(path.join(g, 'models'), { recursive: true });
      await writeFile(path.join(g, 'models/stale-model.ts'), 'export {};\n');
      const before = await hashTree(g);
      const r = await run(['--check', '--specs', t.specsDir, '--out', t.root]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('changed  generated/models/flux-2-pro.ts');
      expect(r.stderr).toContain('added    generated/models/gpt-4o-mini.ts');
      expect(r.stderr).toContain('removed  generated/models/stale-model.ts');
      expect(r.stderr).toContain('3 file(s) would change');
      expect(await hashTree(g)).toEqual(before);
      // a plain run repairs it, after which --check exits 0
      const fix = await run(['--specs', t.specsDir, '--out', t.root]);
      expect(fix.code).toBe(0);
      const ok = await run(['--check', '--specs', t.specsDir, '--out', t.root]);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain('up to date');
    } finally {
      await t.cleanup();
    }
  });
});
