/**
 * `issuesOf`: validator errors (ajv's shape) mapped to the SDK's issues, each located by the JSON
 * pointer of the offending, missing or extra property, with the messages users read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { issuesOf, type ValidatorErrorObject } from '../../runtime/validation.ts';

const error = (e: Partial<ValidatorErrorObject> & { keyword: string }): ValidatorErrorObject => ({
  instancePath: '',
  schemaPath: '#',
  params: {},
  ...e,
});

describe('issuesOf', () => {
  it('points a missing property at itself and says it is required', () => {
    expect(issuesOf([error({ keyword: 'required', params: { missingProperty: 'prompt' }, message: 'x' })])).toEqual([
      { pointer: '/prompt', message: 'is required', keyword: 'required' },
    ]);
  });

  it('points an unknown property at itself and says it is not a parameter of this model', () => {
    expect(
      issuesOf([
        error({ keyword: 'additionalProperties', instancePath: '/meta', params: { additionalProperty: 'x' } }),
      ]),
    ).toEqual([{ pointer: '/meta/x', message: 'is not a parameter of this model', keyword: 'additionalProperties' }]);
  });

  it('escapes `~` and `/` in property names as RFC 6901 says', () => {
    const [issue] = issuesOf([error({ keyword: 'required', params: { missingProperty: 'a/b~c' } })]);
    expect(issue?.pointer).toBe('/a~1b~0c');
  });

  it('lists the allowed values of an enum as JSON', () => {
    expect(
      issuesOf([
        error({
          keyword: 'enum',
          instancePath: '/fps',
          params: { allowedValues: ['16:9', 29.97, null] },
          message: 'm',
        }),
      ]),
    ).toEqual([{ pointer: '/fps', message: 'must be one of "16:9", 29.97, null', keyword: 'enum' }]);
  });

  it("keeps the validator's message for other keywords, and says `is invalid` when there is none", () => {
    expect(
      issuesOf([
        error({ keyword: 'maximum', instancePath: '/steps', message: 'must be <= 50' }),
        error({ keyword: 'type', instancePath: '/seed' }),
      ]),
    ).toEqual([
      { pointer: '/steps', message: 'must be <= 50', keyword: 'maximum' },
      { pointer: '/seed', message: 'is invalid', keyword: 'type' },
    ]);
  });

  it('gives no issue for no errors', () => {
    expect(issuesOf(null)).toEqual([]);
    expect(issuesOf(undefined)).toEqual([]);
    expect(issuesOf([])).toEqual([]);
  });

  it('drops duplicates (same pointer and message) and keeps the first order otherwise', () => {
    const arbError = fc.record({
      keyword: fc.constantFrom('required', 'additionalProperties', 'enum', 'type', 'maximum'),
      instancePath: fc.constantFrom('', '/a', '/a/0'),
      schemaPath: fc.constant('#'),
      params: fc.record({
        missingProperty: fc.constantFrom('p', 'q~/'),
        additionalProperty: fc.constantFrom('x', 'y'),
        allowedValues: fc.constantFrom(['a'], [1, 2]),
      }),
      message: fc.option(fc.constantFrom('m1', 'm2'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(arbError, { maxLength: 12 }), (errors) => {
        const issues = issuesOf(errors);
        const keys = issues.map((i) => `${i.pointer}\u0000${i.message}`);
        expect(new Set(keys).size).toBe(keys.length);
        expect(issues.length).toBeLessThanOrEqual(errors.length);
        expect(issuesOf([...errors, ...errors])).toEqual(issues);
        for (const i of issues) expect(i.pointer === '' || i.pointer.startsWith('/')).toBe(true);
      }),
    );
  });
});
