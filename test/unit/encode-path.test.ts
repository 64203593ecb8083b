/**
 * `encodePath` (runtime/internal/http.ts): a value sent as one path segment stays one segment, and
 * a value that is or decodes to `.`, `..` or nothing is refused before anything is sent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SDKError } from '../../runtime/errors.ts';
import { encodePath } from '../../runtime/internal/operation.ts';

describe('encodePath', () => {
  it('encodes every character that would end or change the segment', () => {
    expect(encodePath('gen_123')).toBe('gen_123');
    expect(encodePath('a/b?c#d')).toBe('a%2Fb%3Fc%23d');
    expect(encodePath('%zz')).toBe('%25zz');
  });

  it.each(['', '.', '..', '%2e', '%2E%2E', '%252e%252e', '.%2e'])('refuses %j, naming the parameter', (v) => {
    expect(() => encodePath(v, 'generation_id')).toThrow(SDKError);
    expect(() => encodePath(v, 'generation_id')).toThrow(/generation_id must not be empty, "\." or "\.\."/);
  });

  it('refuses a value that is not a string', () => {
    expect(() => encodePath(null as unknown as string, 'generation_id')).toThrow(
      /generation_id must be a string, got null/,
    );
    expect(() => encodePath(7 as unknown as string)).toThrow(/path parameter must be a string, got number/);
  });

  it('keeps any other well-formed text as exactly one segment that decodes back to it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => {
        let seg: string;
        try {
          seg = encodePath(s);
        } catch (e) {
          expect(e).toBeInstanceOf(SDKError);
          return;
        }
        expect(seg).not.toMatch(/[/?#]/);
        expect(decodeURIComponent(seg)).toBe(s);
        expect(new URL(`http://h/a/${seg}/b`).pathname.split('/')).toHaveLength(4);
      }),
    );
  });
});
