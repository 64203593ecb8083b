/** Determinism: two runs give byte-identical output, and the generator never changes its inputs. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate, REPO_ROOT } from '../../generator/index.ts';
import { load } from '../../generator/stages/load.ts';
import { classify } from '../../generator/stages/classify.ts';
import { tempSpecs } from './helpers.ts';
import { hashTree } from '../support/index.ts';

describe('determinism', () => {
  it(
    'two runs into two fresh output roots give byte-identical trees, and the specs are unchanged',
    { timeout: 120_000 },
    async () => {
      const t = await tempSpecs();
      try {
        const before = hashTree(t.specsDir);
        const a = path.join(t.root, 'a');
        const b = path.join(t.root, 'b');
        const first = await generate({ specsDir: t.specsDir, outRoot: a });
        await generate({ specsDir: t.specsDir, outRoot: b });
        // the generator laid out every model and parameter module, the index modules and the description's
        // types itself (stages/layout/; prettier's verdict on them: startup.test.ts' prettier --check of generated/)
        const modules = first.rebuilt.filter((f) => /^generated\/(models|params)\//.test(f));
        expect(modules.length).toBe(2 * first.models);
        expect(first.laidOut).toEqual(
          ['generated/index.ts', 'generated/openapi.ts', 'generated/validator-table.ts', ...modules].sort(),
        );
        const ha = hashTree(a);
        const validators = Object.keys(ha).filter((f) => f.startsWith('generated/validators/')).length;
        expect(validators).toBeGreaterThan(50); // the queue models with a schema
        // 111 model modules, 111 parameter modules, their validators, index.ts, validator-table.ts, openapi.ts, MODELS.md and manifest.json
        expect(Object.keys(ha).length).toBe(111 * 2 + validators + 5);
        expect(hashTree(b)).toEqual(ha);
        expect(hashTree(t.specsDir)).toEqual(before);
      } finally {
        await t.cleanup();
      }
    },
  );

  it('freezes what it loads, so no stage can mutate its inputs', async () => {
    const specs = await load({ specsDir: path.join(REPO_ROOT, 'specs') });
    const flux = specs.models.find((m) => m.id === 'flux-2-pro')!;
    expect(Object.isFrozen(flux.schema)).toBe(true);
    expect(Object.isFrozen((flux.schema!['properties'] as Record<string, object>)['aspect_ratio'])).toBe(true);
    expect(() => {
      (flux.schema as Record<string, unknown>)['additionalProperties'] = false;
    }).toThrow(TypeError);
    const snapshot = JSON.stringify(specs.models.map((m) => m.raw));
    classify(specs.models, specs.openapi);
    expect(JSON.stringify(specs.models.map((m) => m.raw))).toBe(snapshot);
    // the loaded object is the file as stored
    expect(flux.raw).toEqual(JSON.parse(await readFile(path.join(REPO_ROOT, 'specs/models/flux-2-pro.json'), 'utf8')));
  });
});
