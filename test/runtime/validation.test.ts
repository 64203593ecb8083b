// Validation without ajv at run time: the generated standalone validators, the mapping of their
// errors to ValidationError issues, and the helpers they import from the runtime
// (runtime/validator-support.ts), checked against the modules ajv itself uses and, for isUrl,
// ajv-formats' regular expression of the `url` format.
import ucs2lengthAjv from 'ajv/dist/runtime/ucs2length.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import fastDeepEqual from 'fast-deep-equal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { snapshotValidators, ValidationError } from '../../index.ts';
import { checkRequest } from '../../runtime/index.ts';
import { equal, isUrl, ucs2length } from '../../runtime/validator-support.ts';
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

describe('isUrl', () => {
  const urlRegex = fullFormats.url as RegExp;
  const text = (chars: string[], max: number) =>
    fc.array(fc.constantFrom(...chars), { maxLength: max }).map((a) => a.join(''));
  const maybe = (arb: fc.Arbitrary<string>) => fc.oneof(fc.constant(''), arb);
  // URL-shaped strings, valid often enough (about one in twelve) and wrong in every part: scheme
  // (case, `ſ` which folds to `s`), user part (spaces, `@`, `/`), labels (hyphens, Unicode spaces,
  // lone surrogates, astral symbols), top-level domain, private and malformed IPv4, port, path.
  const label = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('example', 'a-b', 'x1', 'é', 'ſ', 'K') },
    { weight: 1, arbitrary: text(['a', '0', '-', '\u3000', 'Z', '\ud800'], 4) },
  );
  const tld = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('com', 'io', 'テスト', 'Co') },
    { weight: 1, arbitrary: text(['a', 'é', '1', '\ud800', '\ud83d\ude00'], 3) },
  );
  const octet = fc.oneof(
    fc.integer({ min: 0, max: 260 }).map(String),
    fc.constantFrom('10', '127', '169', '254', '192', '168', '172', '16', '31', '01'),
  );
  const url = fc
    .tuple(
      fc.constantFrom('http://', 'https://', 'ftp://', 'HTTPS://', 'httpſ://', 'http:/', 'file://'),
      maybe(text(['u', ':', '@', '/', ' ', 'p', '\u3000'], 5).map((u) => `${u}@`)),
      fc.oneof(
        fc.tuple(fc.array(label, { maxLength: 3 }), tld).map(([a, t]) => [...a, t].join('.')),
        fc.array(octet, { minLength: 3, maxLength: 5 }).map((a) => a.join('.')),
      ),
      maybe(fc.oneof(fc.integer({ min: 0, max: 999_999 }).map(String), text(['1', 'a'], 3)).map((p) => `:${p}`)),
      maybe(text(['/', 'a', '@', ' ', '?', '#', '\u3000', ':'], 6).map((p) => `/${p}`)),
      maybe(maybe(text(['@', ':', '/', ' ', '.', '-', '\u3000', 'x', '\n'], 2))),
    )
    .map((parts) => parts.join(''));

  it("answers as ajv-formats' regular expression for the url format", () => {
    for (const [s, want] of [
      ['http://example.com', true],
      ['https://user:pass@example.com:8080/p?q=1#f', true],
      ['http://a@b@example.com/x@y', true],
      ['http://例え.テスト', true],
      ['http://1.1.1.1:80/x', true],
      ['http://10.0.0.1', false],
      ['http://192.168.0.1', false],
      ['http://-a.com', false],
      ['http://a--b.com', false],
      ['http://a.b', false],
      ['ftp://x.yz/ ', false],
      ['http://example.com:1', false],
      ['mailto:a@example.com', false],
    ] as const) {
      expect(urlRegex.test(s), s).toBe(want);
      expect(isUrl(s), s).toBe(want);
    }
    fc.assert(
      fc.property(url, (s) => isUrl(s) === urlRegex.test(s)),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 24 }),
        (s) => isUrl(`http://${s}`) === urlRegex.test(`http://${s}`),
      ),
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
