/**
 * Part of the layout (`./index.ts`): prettier's printing of literals and keys as text (its
 * `printNumber`, `printString` with `singleQuote`), and the tests the layout's rules share.
 */
import type { ts as TS } from 'ts-morph';
import type { builders as Builders } from 'prettier/doc';
import type { Ts } from '../printer.ts';

export type Doc = Builders.Doc;
export type B = typeof Builders;

/** A character outside ASCII (prettier measures such text by its display width). */
export const NON_ASCII = /[\u0080-\u{10ffff}]/u;

/** ES5 identifier names of ASCII (prettier unquotes a key that is one). */
export const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** prettier's `printNumber`. */
export function printNumber(raw: string): string {
  if (raw.length === 1) return raw;
  return raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(?=\d)/, '$1$2')
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, '$1')
    .replace(/^([+-])?\./, '$10.')
    .replace(/(\.\d+?)0+(?=e|$)/, '$1')
    .replace(/\.(?=e|$)/, '');
}

/** prettier's `printString` with `singleQuote` (a JavaScript string literal's text in either quote). */
export function printString(raw: string): string {
  const content = raw.slice(1, -1);
  let single = 0;
  let double = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === 39) single++;
    else if (c === 34) double++;
  }
  const quote = single > double ? '"' : "'";
  if (raw[0] === quote) return raw;
  const other = quote === '"' ? "'" : '"';
  const body = content.replace(/\\(["'\\])|(["'])/g, (match, escaped: string | undefined, unescaped: string) => {
    if (escaped) return escaped === other ? other : match;
    return unescaped === quote ? `\\${unescaped}` : unescaped;
  });
  return quote + body + quote;
}

/** The literal's source text when `node` is a string literal (`printer.ts`' `stringNode` is an identifier holding one). */
export function stringText(ts: Ts, node: TS.Node): string | undefined {
  if (ts.isStringLiteral(node))
    return (node as { singleQuote?: boolean }).singleQuote ? `'${node.text}'` : JSON.stringify(node.text);
  if (ts.isIdentifier(node)) {
    const t = node.text;
    if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0]) return t;
  }
  return undefined;
}

/** The text of a JSON string literal's value (escape.ts writes `stringLiteral` with JSON's escapes, and `\u2028`, `\u2029`, `<\/`). */
export function stringValue(raw: string): string | undefined {
  if (raw[0] === "'" && !raw.includes('\\')) return raw.slice(1, -1);
  if (raw[0] !== '"') return undefined;
  try {
    return JSON.parse(raw.replace(/<\\\//g, '</')) as string;
  } catch {
    return undefined;
  }
}
