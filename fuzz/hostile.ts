/**
 * Hostile values the families plant into model objects: strings that break out of comments,
 * string literals, template literals, regular expressions, interfaces and Markdown; property names
 * that are not identifiers or that name `Object.prototype` members; model ids outside the
 * documented character set.
 *
 * Injection sentinels. A planted string that would become code if emitted unescaped declares
 * `INJECTED_<n>` and calls `__sentinel(<n>)` after a terminator of the context it targets, e.g. a
 * comment end followed by `export const INJECTED_3 = (globalThis as any).__sentinel(3);` and a
 * comment start. `SENTINEL_IDENTIFIER` matches those two names. The injection check (`fuzz/compile.ts`) reports a
 * case when an Identifier node of the TypeScript AST of its output has one of these names (with
 * unicode escapes decoded, so `\u0049NJECTED_1` counts). Strings, template text, comments and
 * JSDoc are not nodes of that kind, so a sentinel that stayed data is never reported.
 */
import type { Rng } from './rng.ts';

/** The names a sentinel declares or calls; an Identifier with such a name in the output is an injection. */
export const SENTINEL_IDENTIFIER = /^(?:INJECTED_\d+|__sentinel)$/;

/**
 * Sentinel templates: `<n>` is replaced by the sentinel's number. Each targets one context the
 * generator may put data in (block comment or JSDoc, single/double-quoted or template string,
 * line comment, regular expression, interface body, index signature, HTML).
 */
const SENTINEL_TEMPLATES: readonly string[] = [
  'x*/ export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); /*',
  'x*/y*/ } export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); export interface Z { /*',
  '*/ export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); /**',
  "'; export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); '",
  '"; export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); "',
  "\\'; export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); //",
  '`; export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); `',
  '${(globalThis as any).__sentinel(<n>)}',
  '`+(globalThis as any).__sentinel(<n>)+`',
  '\n export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); //',
  '\r export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); //',
  '\u2028 export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); //',
  '\u2029 export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); //',
  '\r\n*/ export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); /*',
  '} export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); export interface Z_<n> { /*',
  ']: string; } export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); interface Q_<n> { [k: string',
  '*\\/ */ export const \\u0049NJECTED_<n> = (globalThis as any).__sentinel(<n>); /*',
  '@default */ export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); /**',
  '/; export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); /',
  'a)/; export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); /(',
  '</script><script>__sentinel(<n>)</script>',
  '--> */ export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); /* <!--',
  '{{{x}}} */ export const INJECTED_<n> = (globalThis as any).__sentinel(<n>); /*',
];

/** What ends a comment, a string, a template or a line. */
const TERMINATORS: readonly string[] = ['*/', "'", '"', '`', '\n', '\r', '\u2028', '\u2029', '}', ']'];

/** Hostile text without a sentinel: comment and string terminators, line breaks, escapes, odd code points. */
export const HOSTILE_FRAGMENTS: readonly string[] = [
  '*/',
  '/*',
  '/**',
  '**/',
  '*\\/',
  '\r',
  '\n',
  '\r\n',
  '\u2028',
  '\u2029',
  '\u0085',
  '`',
  '${',
  '${x}',
  "'",
  '"',
  '\\',
  '\\u',
  '\\x',
  "\\\\'",
  '</script>',
  '<!--',
  '-->',
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u202e',
  '\u200b',
  '😀',
  'é',
  '模型',
  '@param x',
  '@default',
  '{@link x}',
  '{{x}}',
  '{{{x}}}',
  '| a | b |',
  '# heading',
  '%s %d',
  '$&',
  '$1',
  '\t',
  ' ',
  '',
];

/** Property names that are not identifiers, name `Object.prototype` members, or look like code. */
export const HOSTILE_KEYS: readonly string[] = [
  '[k: string]',
  '[key: string]: any',
  '__proto__',
  'constructor',
  'toString',
  'prototype',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
  '',
  ' ',
  '0',
  '01',
  '1e3',
  '-1',
  '1.5',
  'NaN',
  'Infinity',
  '9007199254740993',
  'a-b',
  'a b',
  'a.b',
  'a/b',
  'a~b',
  '~1',
  '%25',
  '#',
  '$ref',
  '$schema',
  '$id',
  'type',
  'properties',
  'default',
  'enum',
  'class',
  'function',
  'delete',
  'await',
  'yield',
  'interface',
  'readonly',
  'a?',
  'a!',
  '?',
  "'",
  '"',
  '\\',
  '\n',
  '\r',
  '\u2028',
  '*/',
  '/*',
  '${x}',
  '`',
  '[',
  ']',
  ':',
  ';',
  '{',
  '}',
  'é',
  '😀',
  '\u200b',
  '\ud800',
  'x: string; y',
];

/** Model ids outside the documented character set or length, or that name prototype members. */
export const HOSTILE_IDS: readonly string[] = [
  'a\rb',
  'a\nb',
  'line\u2028sep',
  'a#b',
  'a?b=1',
  'a%20b',
  '%2e%2e',
  'a b',
  ' lead',
  'trail ',
  'модель',
  'é-model',
  '模型',
  '😀',
  '..',
  '.',
  'a..b',
  '.hidden',
  'dot.',
  'a/b',
  '../escape',
  '../../escape',
  'a\\b',
  '/abs',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '3d-gen',
  '1',
  '0',
  '-',
  '_',
  '-lead',
  'a\u0000b',
  'a\tb',
  '',
  'CON',
  'nul',
  'index',
  'manifest',
  'openapi',
  'runtime',
  "a'b",
  'a"b',
  'a`b',
  'a${b}',
  'a*/b',
  'a:b',
  'a|b',
  'a<b>',
];

/** Plants hostile strings and numbers the sentinels of one case. */
export class Planter {
  private count = 0;
  constructor(private readonly rng: Rng) {}

  /** How many sentinels were planted. */
  get planted(): number {
    return this.count;
  }

  /**
   * A string holding a new sentinel: a template, or (40% of the time) one to three comment ends
   * (which catches escaping that handles only the first occurrence), as many closing braces as
   * the comment may sit in, the code, and what reopens the braces and the comment.
   */
  sentinel(): string {
    const n = ++this.count;
    if (this.rng.chance(0.4)) {
      const ends = Array.from({ length: this.rng.pick([1, 2, 2, 2, 3]) }, () =>
        this.rng.chance(0.8) ? '*/' : this.rng.pick(TERMINATORS),
      ).join('y');
      const depth = this.rng.pick([0, 1, 1, 2]);
      const reopen = depth === 0 ? '' : `export interface Z_${n} {${' a: {'.repeat(depth - 1)} `;
      return `x${ends}${' }'.repeat(depth)} export const INJECTED_${n} = (globalThis as any).__sentinel(${n}); ${reopen}/*`;
    }
    return this.rng.pick(SENTINEL_TEMPLATES).replace(/<n>/g, String(n));
  }

  /** A new sentinel in the given template (`<n>` is replaced by its number). */
  numbered(template: string): string {
    const n = ++this.count;
    return template.replace(/<n>/g, String(n));
  }

  /** Hostile text: a sentinel (half the time), or one to three hostile fragments around ordinary words. */
  text(): string {
    if (this.rng.chance(0.5)) return this.sentinel();
    const parts = this.rng.pickMany(HOSTILE_FRAGMENTS, this.rng.int(1, 3));
    return this.rng.chance(0.5) ? `word ${parts.join(' mid ')} end` : parts.join('');
  }

  /** A hostile property name: from `HOSTILE_KEYS`, a sentinel, or hostile text. */
  key(): string {
    const r = this.rng.float();
    if (r < 0.6) return this.rng.pick(HOSTILE_KEYS);
    if (r < 0.8) return this.sentinel();
    if (r < 0.9) return 'k'.repeat(this.rng.logInt(200, 5000));
    return this.text();
  }

  /** A hostile model id. */
  id(): string {
    const r = this.rng.float();
    if (r < 0.7) return this.rng.pick(HOSTILE_IDS);
    if (r < 0.85) return 'm'.repeat(this.rng.int(129, 300)); // over the length limit (246-250 once hit ENAMETOOLONG)
    if (r < 0.95) return `model-${this.rng.pick(HOSTILE_IDS)}-x`;
    return this.sentinel();
  }
}
