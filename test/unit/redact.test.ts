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

describe('a secret written with escapes (JSON \\uXXXX, \\/, percent-encoded), in any mix', () => {
  const r = new Redactor([KEY]);
  /** One character of the key as raw, JSON-escaped (with 1 or 2 backslashes), or percent-encoded (either case). */
  const written = (c: string, how: number): string => {
    const hex = c.charCodeAt(0).toString(16);
    return [c, `\\u${hex.padStart(4, '0')}`, `\\\\u${hex.padStart(4, '0')}`, `%${hex}`, `%${hex.toUpperCase()}`][how]!;
  };
  /** The key with each character written as `hows` says. */
  const form = (hows: number[]) => [...KEY].map((c, i) => written(c, hows[i % hows.length]!)).join('');
  /** Text around it that looks like escapes: backslashes, percent signs, hex digits. */
  const around = fc.string({ unit: fc.constantFrom('a', 'u', '0', '7', '\\', '%', ' ', 's', 'k'), maxLength: 12 });
  const hows = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: KEY.length });

  it('is replaced whole, and the text around it is kept', () => {
    fc.assert(
      fc.property(around, hows, around, (before, h, after) => {
        const out = r.text(`${before}|${form(h)}|${after}`);
        expect(out).toContain(`|${REDACTED}|`);
        expect(r.contains(out)).toBe(false);
      }),
    );
  });

  it('leaves no start of it of 4 characters or more at a cut (cutText), wherever the text is cut', () => {
    fc.assert(
      fc.property(hows, fc.nat(), (h, at) => {
        const whole = `x ${form(h)} y`;
        const out = r.cutText(whole.slice(0, at % (whole.length + 1)));
        // Decoded as a reader would, nothing of the key's start of 4 characters or more is left.
        const decoded = out.replace(/\\+u([\da-f]{4})|%([\da-f]{2})/gi, (_, u: string, p: string) =>
          String.fromCharCode(parseInt(u ?? p, 16)),
        );
        for (let k = KEY.length; k >= 4; k--) expect(decoded, `${out}`).not.toContain(KEY.slice(0, k));
      }),
    );
  });
});
