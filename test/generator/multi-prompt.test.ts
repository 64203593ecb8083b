/**
 * The queue validators of video models carry the endpoint's `multi_prompt` (generator/stages/validators.ts):
 * exactly one of `prompt` and `multi_prompt` where the schema requires prompt, not both where prompt is
 * optional, unchanged where the schema declares multi_prompt itself or takes no prompt, and never for
 * image models. Checked on the schema and with the generated validator of a snapshot model.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { queueRequestSchema } from '../../generator/stages/validators.ts';
import { validate as seedance } from '../../generated/validators/bytedance-seedance-2-0-text-to-video.ts';

const compile = (schema: Record<string, unknown>) => new Ajv({ strict: false, allErrors: true }).compile(schema);
const shots = [{ prompt: 'a', duration: 2 }];

describe('queueRequestSchema: multi_prompt of video models', () => {
  const required = {
    type: 'object',
    properties: { prompt: { type: 'string' }, fps: { type: 'integer' } },
    required: ['prompt'],
  };

  it('requires exactly one of prompt and multi_prompt where the schema requires prompt', () => {
    const v = compile(queueRequestSchema(required, true));
    expect(v({ model: 'm', prompt: 'a' })).toBe(true);
    expect(v({ model: 'm', multi_prompt: shots })).toBe(true);
    expect(v({ model: 'm', prompt: 'a', multi_prompt: shots })).toBe(false);
    expect(v({ model: 'm', fps: 24 })).toBe(false);
    expect(v({ model: 'm', multi_prompt: [{ prompt: 'a', duration: 1.5 }] })).toBe(false);
    expect(v({ model: 'm', multi_prompt: [] })).toBe(false);
  });

  it('allows neither but not both where prompt is optional', () => {
    const v = compile(queueRequestSchema({ ...required, required: [] }, true));
    expect(v({ model: 'm', fps: 24 })).toBe(true);
    expect(v({ model: 'm', prompt: 'a', multi_prompt: shots })).toBe(false);
  });

  it('leaves a schema that declares multi_prompt, a model without prompt and image models as they are', () => {
    const own = { type: 'object', properties: { prompt: { type: 'string' }, multi_prompt: { type: 'string' } } };
    expect(queueRequestSchema(own, true)).toEqual(queueRequestSchema(own, false));
    expect(compile(queueRequestSchema(own, true))({ model: 'm', prompt: 'a', multi_prompt: 'x' })).toBe(true);
    const upscaler = { type: 'object', properties: { video: { type: 'string' } } };
    expect(queueRequestSchema(upscaler, true)).not.toHaveProperty('properties.multi_prompt');
    expect(compile(queueRequestSchema(required, false))({ model: 'm', multi_prompt: shots })).toBe(false);
  });

  it('is in the generated validator of a snapshot video model', () => {
    expect(seedance({ model: 'bytedance-seedance-2-0-text-to-video', multi_prompt: shots })).toBe(true);
    expect(seedance({ model: 'bytedance-seedance-2-0-text-to-video', prompt: 'a', multi_prompt: shots })).toBe(false);
    expect(seedance({ model: 'bytedance-seedance-2-0-text-to-video' })).toBe(false);
  });
});
