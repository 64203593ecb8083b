// The JSON Schemas of a model's Standard Schema object (generator/stages/json-schema-drafts.ts): the
// queue body schema with annotations, and its draft 2020-12 form, which accepts and rejects what the
// draft-07 one does (each read by its own ajv class) for the keywords the drafts spell differently.
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { queueJsonSchemas, toDraft2020 } from '../../generator/stages/json-schema-drafts.ts';
import { queueRequestSchema } from '../../generator/stages/validators.ts';

/** A draft-07 schema with every keyword the drafts spell differently, and references through them. */
const DRAFT07: Record<string, unknown> = {
  type: 'object',
  definitions: {
    size: { type: 'integer', minimum: 1 },
    pair: { type: 'array', items: [{ type: 'string' }, { $ref: '#/definitions/size' }], additionalItems: false },
  },
  properties: {
    // a property named like a keyword is a name, not a keyword
    definitions: { type: 'string' },
    items: { $ref: '#/definitions/pair' },
    tuple: { type: 'array', items: [{ type: 'boolean' }], additionalItems: { type: 'number' } },
    list: { type: 'array', items: { type: 'string' }, additionalItems: { type: 'number' } },
    first: { $ref: '#/properties/tuple/items/0' },
    rest: { $ref: '#/properties/tuple/additionalItems' },
    a: { type: 'string' },
    b: { type: 'string' },
    c: { type: 'object', properties: { d: { type: 'string' } } },
  },
  dependencies: { a: ['b'], c: { required: ['b'] } },
  additionalProperties: false,
};

describe('toDraft2020', () => {
  it('renames definitions, tuple items, additionalItems and dependencies, and rewrites the references', () => {
    const converted = toDraft2020(DRAFT07);
    expect(converted).toEqual({
      type: 'object',
      $defs: {
        size: { type: 'integer', minimum: 1 },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { $ref: '#/$defs/size' }], items: false },
      },
      properties: {
        definitions: { type: 'string' },
        items: { $ref: '#/$defs/pair' },
        tuple: { type: 'array', prefixItems: [{ type: 'boolean' }], items: { type: 'number' } },
        list: { type: 'array', items: { type: 'string' } },
        first: { $ref: '#/properties/tuple/prefixItems/0' },
        rest: { $ref: '#/properties/tuple/items' },
        a: { type: 'string' },
        b: { type: 'string' },
        c: { type: 'object', properties: { d: { type: 'string' } } },
      },
      dependentRequired: { a: ['b'] },
      dependentSchemas: { c: { required: ['b'] } },
      additionalProperties: false,
    });
    // the input is not changed
    expect((DRAFT07['properties'] as Record<string, Record<string, unknown>>)['first']).toEqual({
      $ref: '#/properties/tuple/items/0',
    });
  });

  it('accepts and rejects what the draft-07 schema does', () => {
    const check7 = new Ajv({ strict: false }).compile(DRAFT07);
    const check2020 = new Ajv2020({ strict: false }).compile(toDraft2020(DRAFT07));
    const values: unknown[] = [
      {},
      { items: ['x', 2] },
      { items: ['x', 0] },
      { items: ['x', 2, 3] },
      { tuple: [true, 1, 2] },
      { tuple: [true, 'no'] },
      { list: ['a', 'b'] },
      { list: ['a', 1] },
      { first: false },
      { first: 'no' },
      { rest: 2 },
      { rest: 'no' },
      { a: 'x' },
      { a: 'x', b: 'y' },
      { c: {} },
      { c: {}, b: 'y' },
      { definitions: 'x' },
      { definitions: 1 },
    ];
    const results = values.map((v) => [check7(v), check2020(v)]);
    for (const [i, [d7, d2020]] of results.entries()) expect(d2020, JSON.stringify(values[i])).toBe(d7);
    // both outcomes occur, so the comparison means something
    expect(new Set(results.map(([d7]) => d7))).toEqual(new Set([true, false]));
  });

  it('keeps a schema that has $defs beside definitions as it is', () => {
    const schema = {
      definitions: { a: { type: 'string' } },
      $defs: { b: { type: 'string' } },
      $ref: '#/definitions/a',
    };
    expect(toDraft2020(schema)).toEqual(schema);
  });
});

describe('queueJsonSchemas', () => {
  const model = {
    type: 'object',
    properties: {
      prompt: { type: 'string', description: 'What to draw', 'x-order': 0 },
      size: { enum: ['s', 'm'], default: 's', title: 'Size' },
    },
    required: ['prompt'],
    $schema: 'http://json-schema.org/draft-07/schema#',
  };

  it('is the compiled schema with the annotations kept: no 2020-12 form when only $schema would differ', () => {
    const schemas = queueJsonSchemas(model, false);
    expect(schemas.draft2020).toBeUndefined();
    const props = schemas.draft07['properties'] as Record<string, Record<string, unknown>>;
    expect(props['prompt']).toEqual({ type: 'string', description: 'What to draw', 'x-order': 0 });
    expect(props['size']).toEqual({ enum: ['s', 'm'], default: 's', title: 'Size' });
    expect(schemas.draft07['$schema']).toBeUndefined();
    // without the annotations, exactly the schema the validator is compiled from
    const compiled = queueRequestSchema(model, false);
    const stripped = structuredClone(schemas.draft07) as { properties: Record<string, Record<string, unknown>> };
    for (const p of Object.values(stripped.properties))
      for (const k of ['description', 'x-order', 'default', 'title']) delete p[k];
    expect(stripped).toEqual(compiled);
  });

  it('gives a 2020-12 form when the schema uses a keyword the drafts spell differently', () => {
    const schemas = queueJsonSchemas(
      { ...model, definitions: { p: { type: 'string' } }, properties: { prompt: { $ref: '#/definitions/p' } } },
      false,
    );
    expect(schemas.draft2020?.['$defs']).toEqual({ p: { type: 'string' } });
    expect((schemas.draft2020?.['properties'] as Record<string, unknown>)['prompt']).toEqual({ $ref: '#/$defs/p' });
    expect(schemas.draft07['definitions']).toEqual({ p: { type: 'string' } });
  });
});
