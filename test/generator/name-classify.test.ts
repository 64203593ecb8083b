/** The naming rule and the endpoint classification, on real ids and models of the snapshot. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify } from '../../generator/stages/classify.ts';
import { REPO_ROOT } from '../../generator/index.ts';
import { load } from '../../generator/stages/load.ts';
import { modelNames, nameModels } from '../../generator/stages/name.ts';
import { SpecError } from '../../generator/errors.ts';

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
