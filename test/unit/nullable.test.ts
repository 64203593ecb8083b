/**
 * OpenAPI 3.0's `nullable: true` as draft-07 (generator/stages/nullable.ts), the one rule the types
 * and the validators share: null joins the types and the values; a node without `type` (beside
 * `$ref` or `anyOf`, or alone) admits null through `anyOf`, where ajv's own keyword would refuse to
 * compile; the queue validator built from it admits null exactly where the rule says.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { draftNullable } from '../../generator/stages/nullable.ts';
import { queueRequestSchema } from '../../generator/stages/validators.ts';

describe('draftNullable', () => {
  it.each([
    [{ type: 'string', nullable: true }, { type: ['string', 'null'] }],
    [{ type: ['integer', 'null'], nullable: true }, { type: ['integer', 'null'] }],
    [
      { type: 'string', enum: ['a', 'b'], nullable: true },
      { type: ['string', 'null'], enum: ['a', 'b', null] },
    ],
    [{ enum: [1, 2], nullable: true }, { enum: [1, 2, null] }],
    [{ const: 'x', nullable: true }, { enum: ['x', null] }],
    [{ $ref: '#/definitions/a', nullable: true }, { anyOf: [{ $ref: '#/definitions/a' }, { type: 'null' }] }],
    [{ anyOf: [{ type: 'string' }], nullable: true }, { anyOf: [{ anyOf: [{ type: 'string' }] }, { type: 'null' }] }],
    [{ type: 'string', nullable: false }, { type: 'string' }],
    [{ type: 'string', nullable: 'yes' }, { type: 'string' }],
  ])('%j -> %j', (node, plain) => {
    expect(draftNullable(node)).toEqual(plain);
  });

  it('leaves a node without nullable as it is (the same object)', () => {
    const node = { type: 'string' };
    expect(draftNullable(node)).toBe(node);
  });
});

describe('the queue validator of a schema with nullable', () => {
  const schema = {
    type: 'object',
    definitions: { size: { type: 'string', enum: ['s', 'm'] } },
    properties: {
      size: { $ref: '#/definitions/size', nullable: true },
      mode: { anyOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
      tags: { type: 'array', items: { type: 'string', nullable: true }, maxItems: 2, nullable: true },
      style: { type: 'string', enum: ['a', 'b'], nullable: true, 'x-hidden': true },
      name: { type: 'string' },
    },
  };
  // strict: ajv refuses unknown keywords, so no `nullable` or `x-*` key reaches it
  const validate = new Ajv({ strict: true }).compile(queueRequestSchema(schema));

  it.each([
    [{ size: null, mode: null, tags: null, style: null }, true],
    [{ size: 'm', mode: 3, tags: ['a', null], style: 'b' }, true],
    [{ size: 'l' }, false],
    [{ tags: ['a', 'b', 'c'] }, false],
    [{ style: 'c' }, false],
    [{ name: null }, false],
  ])('%j: %s', (body, valid) => {
    expect(validate(body)).toBe(valid);
  });
});
