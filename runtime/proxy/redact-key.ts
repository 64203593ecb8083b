/**
 * The proxy's redaction of its key in whatever form a service's answer carries it. The handler's
 * `Redactor` (`redact.ts`) knows the key raw, as `JSON.stringify` writes it and as
 * `encodeURIComponent` writes it; a service may also echo it with other escapes a JSON reader
 * decodes all the same (`\u0073k-…`, `\/`, escapes mixed with plain characters, an escape level per
 * nesting of JSON in JSON) or percent-encoded in lower or upper case, and the page that reads the
 * answer decodes those too. So every character of the key is matched in each of its forms. The
 * runtime's own errors need no such matching: they keep a JSON body parsed, and parsing decodes it.
 * Internal: not exported from the package.
 */
import { MIN_SECRET_CHARS, REDACTED, Redactor } from '../redact.ts';

/** Escape levels matched (`\u0073`, `\\u0073`, ...): one per JSON text nested in a JSON string. */
const MAX_ESCAPE_LEVEL = 16;
/** Percent-encodings matched beyond the first (`%73`, `%2573`, ...). */
const MAX_REENCODING = 4;
/** JSON's short escapes but `\\` (a backslash is matched as a run of backslashes, whatever its level). */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '/': '\\/',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};

/**
 * Regular-expression source of an escape's backslashes, taken all at once (a lookahead and a
 * back-reference make an atomic group): a long run of backslashes is never re-split, so matching
 * stays linear. `group` numbers the capturing groups of the whole expression.
 */
function backslashes(group: { n: number }): string {
  group.n++;
  return `(?=(\\\\{1,${MAX_ESCAPE_LEVEL}}))\\${group.n}`;
}

/** A hexadecimal number of `digits` digits, either case. */
function hex(value: number, digits: number): string {
  return [...value.toString(16).padStart(digits, '0')]
    .map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
    .join('');
}

/** One character (a code point) in each form: raw, JSON-escaped at any level, percent-encoded. */
function charForms(ch: string, group: { n: number }): string {
  const forms = ch === '\\' ? [`\\\\{1,${MAX_ESCAPE_LEVEL + 1}}`] : [ch.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')];
  const short = SHORT_ESCAPES[ch];
  if (short !== undefined) forms.push(`${backslashes(group)}${short}`);
  // \uXXXX for each UTF-16 code unit (a surrogate pair for a code point beyond U+FFFF)
  const units = [...Array(ch.length).keys()].map((i) => `${backslashes(group)}u${hex(ch.charCodeAt(i), 4)}`);
  forms.push(units.join(''));
  const bytes = new TextEncoder().encode(ch);
  forms.push([...bytes].map((b) => `%(?:25){0,${MAX_REENCODING}}${hex(b, 2)}`).join(''));
  return `(?:${forms.join('|')})`;
}

/**
 * The key's redaction: `text` for a whole text, `cutText` for a text cut at its end (a body read
 * up to a limit), where the key's start left before the cut, in any form, is replaced as well.
 * Both end with the key's `Redactor` (its raw and standard forms; `Redactor.cutText`).
 */
export interface KeyRedaction {
  text(text: string): string;
  cutText(text: string): string;
}

/** The redaction of `secret` in every form (see the module comment). */
export function keyRedaction(secret: string): KeyRedaction {
  const redactor = new Redactor([secret]);
  if (secret.length < MIN_SECRET_CHARS) return { text: (t) => redactor.text(t), cutText: (t) => redactor.cutText(t) };
  const group = { n: 0 };
  const chars = [...secret].map((c) => charForms(c, group));
  // Bounded repetitions only, and each character's forms start differently: matching is linear in the text.
  const whole = new RegExp(chars.join(''), 'g');
  // At the very end of a cut text: the key's first characters (one at least), then possibly an escape cut short.
  const partialEscape = `(?:\\\\{1,${MAX_ESCAPE_LEVEL}}(?:u[0-9a-fA-F]{0,3})?|%(?:25){0,${MAX_REENCODING}}[0-9a-fA-F]?)`;
  const prefix = new RegExp(`${chars.reduceRight((inner, c) => `${c}(?:${inner})?`, '')}${partialEscape}?$`);
  // The longest form of a character: a surrogate pair escaped at the deepest level, or four bytes re-encoded.
  const longestForm = Math.max(2 * (MAX_ESCAPE_LEVEL + 5), 4 * (3 + 2 * MAX_REENCODING));
  const tailChars = (chars.length + 1) * longestForm;
  return {
    text: (t) => redactor.text(t.replace(whole, REDACTED)),
    cutText(t) {
      const out = t.replace(whole, REDACTED);
      const from = Math.max(0, out.length - tailChars);
      const tail = out.slice(from).replace(prefix, REDACTED);
      return redactor.cutText(out.slice(0, from) + tail);
    },
  };
}
