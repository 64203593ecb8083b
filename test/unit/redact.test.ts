/**
 * The redactor's text functions (runtime/redact.ts): a secret never survives in any of its forms,
 * and a text cut at its end loses the start of a secret too (`cutText`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../runtime/redact.ts';

const KEY = 'sk-live-0123456789abcdef';

describe('Redactor.text', () => {
  it('replaces the raw, JSON-escaped and URI-encoded forms, and the key without its auth scheme', () => {
    const r = new Redactor(['Bearer tok"en/1234']);
    expect(r.text('a Bearer tok"en/1234 b')).toBe(`a ${REDACTED} b`);
    expect(r.text('{"h":"tok\\"en/1234"}')).toBe(`{"h":"${REDACTED}"}`);
    expect(r.text('?k=tok%22en%2F1234')).toBe(`?k=${REDACTED}`);
  });

  it('ignores secrets shorter than 4 characters and leaves text without a secret as it is', () => {
    const r = new Redactor(['abc', undefined]);
    expect(r.empty).toBe(true);
    expect(r.text('abc abc')).toBe('abc abc');
  });
});

describe('Redactor.cutText', () => {
  const r = new Redactor([KEY]);

  it('replaces a trailing start of the secret', () => {
    expect(r.cutText('error: sk-live-01')).toBe(`error: ${REDACTED}`);
    expect(r.cutText(`${KEY} then s`)).toBe(`${REDACTED} then ${REDACTED}`);
    expect(r.cutText('nothing here')).toBe('nothing here');
  });

  it('leaves no secret and no start of one, wherever the text is cut', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 's', 'k', '-', ' ', '"'), maxLength: 20 });
    fc.assert(
      fc.property(text, text, fc.nat(), (before, after, at) => {
        const whole = `${before}${KEY}${after}`;
        const cut = whole.slice(0, at % (whole.length + 1));
        const out = r.cutText(cut);
        expect(out).not.toContain(KEY);
        for (let k = KEY.length - 1; k >= 3; k--) expect(out.endsWith(KEY.slice(0, k)), `${cut} -> ${out}`).toBe(false);
      }),
    );
  });
});
