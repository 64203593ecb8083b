/**
 * The naming rule and the endpoint classification, on real ids and models of the snapshot; file
 * names for ids that Windows reserves.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify } from '../../generator/stages/classify.ts';
import { generate, REPO_ROOT } from '../../generator/index.ts';
import { load } from '../../generator/stages/load.ts';
import { modelNames, nameModels } from '../../generator/stages/name.ts';
import { SpecError } from '../../generator/errors.ts';
import { fixtureModel, tempSpecs } from './helpers.ts';

describe('modelNames', () => {
  it.each([
    ['flux-2-pro', 'Flux2Pro', 'flux2Pro'],
    ['black-forest-labs-flux-2-klein-4b', 'BlackForestLabsFlux2Klein4b', 'blackForestLabsFlux2Klein4b'],
    ['happyhorse-1.0-video-edit', 'Happyhorse1_0VideoEdit', 'happyhorse1_0VideoEdit'],
    ['ltx-2-3-pro-22b-IC-LoRA-Union-Control', 'Ltx23Pro22bICLoRAUnionControl', 'ltx23Pro22bICLoRAUnionControl'],
    ['o1', 'O1', 'o1'],
    ['3d-gen', 'Model3dGen', 'model3dGen'],
  ])('%s -> %s / %s', (id, pascal, camel) => {
    expect(modelNames(id)).toEqual({ pascal, camel, params: `${pascal}Params`, schema: `${camel}Schema` });
  });

  it('keeps ids apart that differ by a dot or a dash', () => {
    expect(modelNames('happyhorse-1.0').pascal).not.toBe(modelNames('happyhorse-1-0').pascal);
  });

  it('rejects a real collision and ids equal but for case, naming both', () => {
    const m = (id: string) => ({ id, file: `specs/models/${id}.json` });
    expect(() => nameModels([m('a-b'), m('a_b')], 'specs/models.json')).toThrow(SpecError);
    expect(() => nameModels([m('a-b'), m('a_b')], 'specs/models.json')).toThrow(
      /"a-b" and "a_b" both convert to the identifier AB/,
    );
    expect(() => nameModels([m('Foo'), m('foo')], 'specs/models.json')).toThrow(/"Foo" and "foo"/);
  });
});

describe('classify', async () => {
  const specs = await load({ specsDir: path.join(REPO_ROOT, 'specs') });
  const { models } = classify(specs.models, specs.openapi);
  const endpoints = (id: string) => models.find((m) => m.id === id)!.endpoints;
  it.each([
    ['flux-1-dev', ['images.generate', 'queue']],
    ['flux-2-pro', ['images.generate', 'images.edit', 'queue']],
    ['flux-kontext-dev', ['images.edit', 'queue']],
    ['topazlabs-image-upscale', ['images.edit', 'queue']],
    ['google-veo-3-1', ['videos.generate', 'queue']],
    ['topazlabs-video-upscale', ['videos.generate', 'queue']],
    ['gpt-4o-mini', ['chat']],
    ['bytedance-seed-audio-1-0', []],
    ['gpt-audio', []],
  ])('%s is served by %j', (id, expected) => {
    expect(endpoints(id)).toEqual(expected);
  });
});

describe('file names Windows reserves', () => {
  it('models named CON and AUX.model get the stems CON~ and AUX~.model everywhere: snapshot, files, imports, reference', async () => {
    const t = await tempSpecs(['flux-2-pro']);
    try {
      for (const id of ['CON', 'AUX.model']) {
        const file = path.join(t.specsDir, 'models', `${id.replace(/^(CON|AUX)/, '$1~')}.json`);
        await writeFile(
          file,
          JSON.stringify(fixtureModel(id, { type: 'object', properties: { prompt: { type: 'string' } } })),
        );
      }
      await writeFile(path.join(t.specsDir, 'models.json'), JSON.stringify(['AUX.model', 'CON', 'flux-2-pro']));
      const r = await generate({ specsDir: t.specsDir, outRoot: t.root });
      const names = [...r.files.keys()];
      expect(names).toEqual(
        expect.arrayContaining([
          'generated/models/CON~.ts',
          'generated/params/CON~.ts',
          'generated/validators/CON~.ts',
          'generated/models/AUX~.model.ts',
          'generated/validators/AUX~.model.ts',
        ]),
      );
      for (const n of names) expect(n, n).not.toMatch(/\/(con|aux)(\.[^/]*)?$/i);
      const index = r.files.get('generated/index.ts')!;
      expect(index).toContain("'./params/CON~.ts'");
      expect(r.files.get('generated/validator-table.ts')).toContain("'./validators/AUX~.model.ts'");
      expect(r.files.get('generated/models/CON~.ts')).toContain("'../validators/CON~.ts'");
      expect(r.files.get('generated/MODELS.md')).toContain('oxen-inference-sdk/models/AUX~.model');
      expect(await readFile(path.join(t.root, 'generated', 'models', 'CON~.ts'), 'utf8')).toBe(
        r.files.get('generated/models/CON~.ts'),
      );
      // the snapshot file is read under the same name: the plain id is not looked for
      await rm(path.join(t.specsDir, 'models', 'CON~.json'));
      await expect(generate({ specsDir: t.specsDir, outRoot: t.root, check: true })).rejects.toThrow(/CON~\.json/);
    } finally {
      await t.cleanup();
    }
  }, 120_000);
});
