// Validation without ajv at run time: the generated standalone validators, the mapping of their
// errors to ValidationError issues, and the two helpers they import from the runtime
// (runtime/validator-support.ts), checked against the modules ajv itself uses.
import ucs2lengthAjv from 'ajv/dist/runtime/ucs2length.js';
import fastDeepEqual from 'fast-deep-equal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { snapshotValidators, ValidationError } from '../../index.ts';
import { checkRequest } from '../../runtime/index.ts';
import { equal, ucs2length } from '../../runtime/validator-support.ts';
import { issuesOf } from '../../runtime/validation.ts';

const ajvLength = ((ucs2lengthAjv as unknown as { default?: (s: string) => number }).default ?? ucs2lengthAjv) as (
  s: string,
) => number;

describe('validator-support', () => {
  it('ucs2length counts code points as ajv does (surrogate pairs once, lone surrogates once each)', () => {
    expect(ucs2length('a😀b')).toBe(3);
    expect(ucs2length('\ud83d')).toBe(1);
    expect(ucs2length('\ude00\ud83d')).toBe(2);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => ucs2length(s) === ajvLength(s)));
  });

  it('equal agrees with fast-deep-equal on JSON values', () => {
    expect(equal({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(equal({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(equal([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(equal(Number.NaN, Number.NaN)).toBe(true);
    expect(equal({ toString: 1 }, { toString: 1 })).toBe(true); // fast-deep-equal throws here
    expect(equal({ valueOf: 1 }, { valueOf: 2 })).toBe(false);
    const reference = (a: unknown, b: unknown): boolean | undefined => {
      try {
        return fastDeepEqual(a, b);
      } catch {
        return undefined; // an own toString/valueOf key: fast-deep-equal cannot compare it
      }
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const want = reference(a, b);
        return (
          (want === undefined || equal(a, b) === want) &&
          equal(a, JSON.parse(JSON.stringify(a)) as unknown) === (reference(a, JSON.parse(JSON.stringify(a))) ?? true)
        );
      }),
    );
  });
});

describe('generated validators', () => {
  it('validate a whole queue body (model schema plus SDK fields); errors map to issues with JSON pointers', async () => {
    const validate = await snapshotValidators('flux-1-dev');
    expect(validate).toBeTypeOf('function');
    expect(() =>
      checkRequest(
        'flux-1-dev',
        { model: 'flux-1-dev', prompt: 'x', response_format: 'url', target_namespace: 'acme', num_generations: 4 },
        validate!,
      ),
    ).not.toThrow();
    let err: unknown;
    try {
      checkRequest(
        'flux-1-dev',
        { model: 'flux-1-dev', aspect_ratio: '5:4', guidnace: 3, num_generations: 9 },
        validate!,
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    const issues = (err as ValidationError).issues;
    expect(issues.map((i) => i.pointer).sort()).toEqual(['/aspect_ratio', '/guidnace', '/num_generations', '/prompt']);
    expect(issues.find((i) => i.pointer === '/prompt')!.message).toBe('is required');
    expect(issues.find((i) => i.pointer === '/guidnace')!.message).toBe('is not a parameter of this model');
    expect(issues.find((i) => i.pointer === '/aspect_ratio')!.message).toMatch(/^must be one of "1:1", "16:9"/);
  });

  it('an unknown model has no validator; pointers escape ~ and /', async () => {
    expect(await snapshotValidators('model-newer-than-snapshot')).toBeUndefined();
    expect(
      issuesOf([{ instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'a/b~c' } }]),
    ).toEqual([{ pointer: '/a~1b~0c', message: 'is not a parameter of this model', keyword: 'additionalProperties' }]);
  });
});
