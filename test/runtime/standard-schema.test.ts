// The generated models' Standard Schema objects (`<camel>QueueSchema`, built by `standardSchemaFor`):
// `~standard.validate` gives the issues `queue.enqueue` would throw, with paths of keys and array indexes;
// `~standard.jsonSchema` gives the schema the validator was compiled from, in draft-07 and 2020-12, and
// that schema (read by ajv, each draft by its own ajv class) accepts and rejects what the compiled
// validator does, for every generated model.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createTransport, SDKError, standardSchemaFor, ValidationError } from '../../runtime/index.ts';
import type { CompiledValidator, StandardQueueSchema } from '../../runtime/index.ts';
import { flux2ProEnqueue, flux2ProQueueSchema } from '../../generated/models/flux-2-pro.ts';
import { bytedanceSeedance20TextToVideoQueueSchema } from '../../generated/models/bytedance-seedance-2-0-text-to-video.ts';
import { REPO_ROOT } from '../support/index.ts';
import { compileValidator, rejectionOf } from './helpers.ts';

const std = flux2ProQueueSchema['~standard'];

describe('validate', () => {
  it('returns a valid value as it was given, synchronously', () => {
    const body = { prompt: 'a fox', aspect_ratio: '16:9', num_generations: 2 };
    const result = std.validate(body);
    expect(result).not.toBeInstanceOf(Promise);
    expect(result.issues).toBeUndefined();
    expect((result as { value: unknown }).value).toBe(body);
    expect(std.version).toBe(1);
    expect(std.vendor).toBe('oxen-inference-sdk');
  });

  it('lists every problem with its path: keys as strings, array indexes as numbers', () => {
    const result = std.validate({ aspect_ratio: '2:1', input_image: ['a', 3], extra: true, num_generations: 5 });
    expect(result.issues).toEqual(
      expect.arrayContaining([
        { message: 'is required', path: ['prompt'] },
        { message: 'is not a parameter of this model', path: ['extra'] },
        { message: 'must be string', path: ['input_image', 1] },
        {
          message: 'must be one of "1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "match_input_image"',
          path: ['aspect_ratio'],
        },
        { message: 'must be <= 4', path: ['num_generations'] },
      ]),
    );
    expect(result.issues).toHaveLength(5);
  });

  it('gives the issues that queue.enqueue throws for the same body (nothing sent)', async () => {
    const body = { prompt: 7, aspect_ratio: 'wide', input_image: ['ok', null] };
    // port 9 (discard): a request would fail with a connection error, not a ValidationError
    const transport = createTransport({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    const err = await rejectionOf(flux2ProEnqueue(transport, body as never));
    expect(err).toBeInstanceOf(ValidationError);
    const thrown = (err as ValidationError).issues.map((i) => ({
      message: i.message,
      path: i.pointer
        .split('/')
        .slice(1)
        .map((k) => (/^\d+$/.test(k) ? Number(k) : k)),
    }));
    expect(std.validate(body).issues).toEqual(thrown);
  });

  it('reports a body that is not an object at the empty path', () => {
    for (const value of [null, 'prompt', [{ prompt: 'x' }], 3])
      expect(std.validate(value).issues).toEqual([{ message: 'must be object', path: [] }]);
  });

  it("words a video model's prompt / multi_prompt rule, and paths into multi_prompt's items", () => {
    const v = bytedanceSeedance20TextToVideoQueueSchema['~standard'];
    expect(v.validate({ prompt: 'a', multi_prompt: [{ prompt: 'b', duration: 5 }] }).issues).toEqual([
      {
        message: 'cannot be given together with prompt: give exactly one of prompt and multi_prompt',
        path: ['multi_prompt'],
      },
    ]);
    expect(v.validate({}).issues).toEqual([
      { message: 'is required (or multi_prompt instead: exactly one of prompt and multi_prompt)', path: ['prompt'] },
    ]);
    expect(v.validate({ multi_prompt: [{ prompt: 'b', duration: 5 }, { prompt: 'c' }] }).issues).toEqual([
      { message: 'is required', path: ['multi_prompt', 1, 'duration'] },
    ]);
    expect(v.validate({ multi_prompt: [{ prompt: 'b', duration: 5 }] }).issues).toBeUndefined();
  });

  it('unescapes pointer tokens (~1, ~0) and keeps a numeric key of an object a string', () => {
    const schema = {
      type: 'object',
      properties: {
        'a/b~c': { type: 'string' },
        '0': { type: 'object', properties: { '1': { type: 'integer' } } },
        list: { type: 'array', items: { type: 'object', properties: { '2': { type: 'boolean' } } } },
      },
      additionalProperties: false,
    };
    const s = standardSchemaFor<Record<string, unknown>>(compileValidator(schema), schema, 'test-model');
    const result = s['~standard'].validate({ 'a/b~c': 1, '0': { '1': 'x' }, list: [{}, { '2': 'no' }] });
    expect(result.issues).toEqual(
      expect.arrayContaining([
        { message: 'must be string', path: ['a/b~c'] },
        { message: 'must be integer', path: ['0', '1'] },
        { message: 'must be boolean', path: ['list', 1, '2'] },
      ]),
    );
    expect(result.issues).toHaveLength(3);
  });

  it('passes on an exception of the validator itself', () => {
    const broken = (() => {
      throw new TypeError('broken validator');
    }) as unknown as CompiledValidator;
    const s = standardSchemaFor(broken, {}, 'test-model');
    expect(() => s['~standard'].validate({})).toThrow('broken validator');
  });
});

describe('jsonSchema', () => {
  it('gives the schema for draft-07 and draft 2020-12, input and output alike, with $schema', () => {
    const d7 = std.jsonSchema.input({ target: 'draft-07' });
    const d2020 = std.jsonSchema.input({ target: 'draft-2020-12' });
    expect(d7['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(d2020['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(std.jsonSchema.output({ target: 'draft-07' })).toEqual(d7);
    expect(std.jsonSchema.output({ target: 'draft-2020-12' })).toEqual(d2020);
    // the model's schema with its annotations, the SDK's queue fields, closed
    const properties = d7['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['aspect_ratio']).toMatchObject({
      default: '16:9',
      description: 'Aspect ratio for the generated image',
    });
    expect(properties['num_generations']).toEqual({ type: 'integer', minimum: 1, maximum: 4 });
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(['model', 'response_format', 'target_namespace']));
    expect(d7['required']).toEqual(['prompt']);
    expect(d7['additionalProperties']).toBe(false);
  });

  it('returns a fresh object each call: editing one (as the AI SDK does) changes no later one', () => {
    const a = std.jsonSchema.input({ target: 'draft-07' });
    const before = structuredClone(a);
    (a['properties'] as Record<string, Record<string, unknown>>)['prompt']!['type'] = 'number';
    a['required'] = [];
    const b = std.jsonSchema.input({ target: 'draft-07' });
    expect(b).not.toBe(a);
    expect(b).toEqual(before);
  });

  it('throws SDKError naming the model and the supported targets for another target', () => {
    for (const target of ['openapi-3.0', 'draft-04', '']) {
      let thrown: unknown;
      try {
        std.jsonSchema.input({ target });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(SDKError);
      expect(String((thrown as Error).message)).toContain('flux-2-pro');
      expect(String((thrown as Error).message)).toContain('"draft-07" and "draft-2020-12"');
    }
  });

  it('uses the draft 2020-12 form when one is given', () => {
    const d7 = {
      type: 'object',
      definitions: { a: { type: 'string' } },
      properties: { x: { $ref: '#/definitions/a' } },
    };
    const d2020 = { type: 'object', $defs: { a: { type: 'string' } }, properties: { x: { $ref: '#/$defs/a' } } };
    const s = standardSchemaFor(compileValidator(d7), d7, 'test-model', d2020);
    expect(s['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      ...d2020,
    });
    expect(s['~standard'].jsonSchema.input({ target: 'draft-07' })).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      ...d7,
    });
  });
});

/** A value for a schema: its first enum value, or one of its type (a URL for `format: uri`). */
function sample(schema: unknown): unknown {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (Array.isArray(s['enum'])) return s['enum'][0];
  if ('const' in s) return s['const'];
  const type = Array.isArray(s['type']) ? s['type'][0] : s['type'];
  if (type === 'string') return s['format'] === 'uri' ? 'https://example.com/a.png' : 'text';
  if (type === 'integer' || type === 'number')
    return typeof s['minimum'] === 'number' ? s['minimum'] : typeof s['maximum'] === 'number' ? s['maximum'] : 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [sample(s['items'])];
  if (type === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of (s['required'] as string[] | undefined) ?? [])
      out[key] = sample((s['properties'] as Record<string, unknown>)[key]);
    return out;
  }
  return null;
}

/** Bodies around a model's schema: its required fields, each property sampled or of a wrong type, an extra one. */
function bodies(schema: Record<string, unknown>): unknown[] {
  const base = sample(schema) as Record<string, unknown>;
  const out: unknown[] = [base, {}, { ...base, not_a_parameter: 1 }, 'text', null];
  for (const [key, sub] of Object.entries(schema['properties'] as Record<string, unknown>)) {
    out.push({ ...base, [key]: sample(sub) });
    out.push({ ...base, [key]: { wrong: true } });
    out.push({ ...base, [key]: 'not-a-value' });
    out.push({ ...base, [key]: -1.5 });
  }
  return out;
}

describe('every generated model', () => {
  const dir = path.join(REPO_ROOT, 'generated', 'models');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  const ajv7 = new Ajv({ strict: false, allErrors: true });
  const ajv2020 = new Ajv2020({ strict: false, allErrors: true });
  // the validators check `uri` with ajv-formats' fast form; the samples are valid or invalid under any form
  for (const ajv of [ajv7, ajv2020]) ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:[^\s]*$/i);

  it('with a compiled validator exports <camel>QueueSchema, whose JSON Schema accepts what its validator accepts', async () => {
    const validators = new Set(readdirSync(path.join(REPO_ROOT, 'generated', 'validators')));
    let checked = 0;
    for (const file of files) {
      if (!validators.has(file)) {
        // no validator (a chat model, or no schema): no Standard Schema object either
        expect(readFileSync(path.join(dir, file), 'utf8'), file).not.toContain('QueueSchema');
        continue;
      }
      const mod = (await import(path.join(dir, file))) as Record<string, unknown>;
      const entries = Object.entries(mod).filter(([name]) => name.endsWith('QueueSchema'));
      expect(entries.length, file).toBe(1);
      const { validate } = (await import(path.join(REPO_ROOT, 'generated', 'validators', file))) as {
        validate: CompiledValidator;
      };
      const schema = (entries[0]![1] as StandardQueueSchema<unknown>)['~standard'];
      const d7 = schema.jsonSchema.input({ target: 'draft-07' });
      const d2020 = schema.jsonSchema.input({ target: 'draft-2020-12' });
      const check7 = ajv7.compile(d7);
      const check2020 = ajv2020.compile(d2020);
      for (const body of bodies(d7)) {
        const expected = validate(body);
        const where = `${file}: ${JSON.stringify(body)}`;
        expect(check7(body), `draft-07, ${where}`).toBe(expected);
        expect(check2020(body), `draft 2020-12, ${where}`).toBe(expected);
        expect(schema.validate(body).issues === undefined, where).toBe(expected);
      }
      checked++;
    }
    expect(checked).toBe(validators.size);
  }, 120_000);
});
