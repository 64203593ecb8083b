/**
 * Reading documented defaults, for `test/docs/defaults.test.ts`: the `@default` and `@unit` tags of option
 * interfaces (through the TypeScript compiler), and the `default N` statements of prose next to an option's
 * name, with their quantities in the option's unit (milliseconds, bytes, or a count).
 */
import ts from 'typescript';

/** What a quantity measures: a time (in milliseconds), a size (in bytes), or a plain count. */
export type Kind = 'ms' | 'bytes' | 'count';

/** One property of an option interface, as its doc comment states it. */
export interface DocumentedOption {
  name: string;
  /** The text of `@default`, or undefined without one. */
  default: string | undefined;
  unit: string | undefined;
}

/** An interface's doc tags and its properties' (own properties only, as written). */
export interface DocumentedInterface {
  tags: string[];
  options: DocumentedOption[];
}

const tagText = (tag: ts.JSDocTag): string => (ts.getTextOfJSDocComment(tag.comment) ?? '').trim();

/** The interface `name` of a source file, or undefined when the file has none of that name. */
export function documentedInterface(text: string, name: string): DocumentedInterface | undefined {
  const source = ts.createSourceFile('options.ts', text, ts.ScriptTarget.Latest, true);
  const decl = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  );
  if (!decl) return undefined;
  const options: DocumentedOption[] = [];
  for (const member of decl.members) {
    if (!ts.isPropertySignature(member) || !member.name || !ts.isIdentifier(member.name)) continue;
    const tags = ts.getJSDocTags(member);
    const find = (tag: string) => tags.find((t) => t.tagName.text === tag);
    const d = find('default');
    const u = find('unit');
    options.push({ name: member.name.text, default: d && tagText(d), unit: u && tagText(u) });
  }
  return { tags: ts.getJSDocTags(decl).map((t) => t.tagName.text), options };
}

const UNITS: Record<string, { kind: Kind; factor: number }> = {
  ms: { kind: 'ms', factor: 1 },
  millisecond: { kind: 'ms', factor: 1 },
  milliseconds: { kind: 'ms', factor: 1 },
  s: { kind: 'ms', factor: 1_000 },
  second: { kind: 'ms', factor: 1_000 },
  seconds: { kind: 'ms', factor: 1_000 },
  minute: { kind: 'ms', factor: 60_000 },
  minutes: { kind: 'ms', factor: 60_000 },
  hour: { kind: 'ms', factor: 3_600_000 },
  hours: { kind: 'ms', factor: 3_600_000 },
  byte: { kind: 'bytes', factor: 1 },
  bytes: { kind: 'bytes', factor: 1 },
  KiB: { kind: 'bytes', factor: 1024 },
  MiB: { kind: 'bytes', factor: 1024 * 1024 },
  MB: { kind: 'bytes', factor: 1_000_000 },
};

/**
 * A number as prose writes it (`2`, `10_000`, `10 000`, `10,000`, `1.5`, `one`), then an optional unit. The
 * digit groups after the first are of three digits, so `2, 3` reads as two numbers.
 */
const WORDS: Record<string, number> = { an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, ten: 10, twenty: 20 };
const WORD = Object.keys(WORDS).join('|');

export const QUANTITY = new RegExp(
  String.raw`(?<![\w.])(\d+(?:[ _,]\d{3})*(?:\.\d+)?|${WORD})(?:\s*(${Object.keys(UNITS).join('|')})\b)?`,
  'g',
);

/** "default", then (within 60 characters, not across `;`) a number and the word after it. */
const DEFAULT_STATEMENT = new RegExp(
  String.raw`(?<!by )\bdefaults?\b([^;\d]{0,60}?)(\d+(?:[ _,]\d{3})*(?:\.\d+)?(?:\s*\w+)?|\b(?:${WORD})\s+\w+)`,
);

/** A quantity in `kind`'s unit (milliseconds, bytes), or undefined when its unit is of another kind. */
export function quantityValue(number: string, unit: string | undefined, kind: Kind): number | undefined {
  const n = WORDS[number] ?? Number(number.replace(/[ _,]/g, ''));
  if (unit === undefined) return number in WORDS ? undefined : n;
  const u = UNITS[unit];
  if (!u || u.kind !== kind) return undefined;
  return n * u.factor;
}

/** The quantities of a piece of text, each in `kind`'s unit (quantities of another kind left out). */
export function quantities(text: string, kind: Kind): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(QUANTITY)) {
    if (m[1]! in WORDS && m[2] === undefined) continue;
    const v = quantityValue(m[1]!, m[2], kind);
    if (v !== undefined) out.push(v);
  }
  return out;
}

/**
 * The defaults that `text` states for an option mentioned as `mention` (a backticked name, or a command's
 * `--flag`): in the text from the mention to the next mention of any of `others` (or a blank line, at most
 * 400 characters), the first quantity after the word "default" (within 60 characters, not across `;`), the
 * quantity before "by default", a quantity right after the name (`NAME`: N) or right before it in parentheses
 * (N (`NAME`)), and both sides of every `N = M` restatement (`1 200 000 = 20 minutes`).
 */
export function statedDefaults(
  text: string,
  mention: string,
  others: readonly string[],
  kind: Kind,
): { value: number; at: number; quote: string }[] {
  const out: { value: number; at: number; quote: string }[] = [];
  // A value, then the name in parentheses: 20 minutes (`DEFAULT_TIMEOUTS_MS.videos`)
  const before = new RegExp(
    String.raw`(\d+(?:[ _,]\d{3})*(?:\.\d+)?(?:\s*\w+)?)\s*\(${mention.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    'g',
  );
  for (const m of text.matchAll(before)) {
    const q = [...m[1]!.matchAll(QUANTITY)][0];
    const v = q && quantityValue(q[1]!, q[2], kind);
    if (v !== undefined) out.push({ value: v, at: m.index, quote: m[0] });
  }
  for (let at = text.indexOf(mention); at >= 0; at = text.indexOf(mention, at + 1)) {
    const after = text[at + mention.length] ?? '';
    if (mention.startsWith('--') && /[\w-]/.test(after)) continue;
    let end = Math.min(text.length, at + mention.length + 400);
    // a blank line, or a doc comment's next tag (`@default` there speaks of another option)
    const blank = text.slice(at, end).search(/\n\s*\n|\n\s*\*\s*\n|\n\s*\*\s*@/);
    if (blank > 0) end = at + blank;
    for (const other of others) {
      if (other === mention || other.startsWith(mention) || mention.startsWith(other)) continue;
      const i = text.indexOf(other, at + mention.length);
      if (i >= 0 && i < end) end = i;
    }
    const window = text.slice(at + mention.length, end);
    const quote = text.slice(at, end).replace(/\s+/g, ' ');
    const push = (q: string | undefined, unit?: string) => {
      const m = q === undefined ? undefined : [...q.matchAll(QUANTITY)][0];
      const v = m && quantityValue(m[1]!, unit ?? m[2], kind);
      if (v !== undefined) out.push({ value: v, at, quote });
    };
    const def = DEFAULT_STATEMENT.exec(window);
    if (def) push(def[2]);
    // A constant's name, then its value: `DEFAULT_TIMEOUTS_MS`: 1 200 000, `INPUT_MAX_BYTES.input_image`, 10,000,000 bytes
    const named = /^[\s,:=]{1,4}(\d+(?:[ _,]\d{3})*(?:\.\d+)?(?:\s*\w+)?)/.exec(window);
    if (named) push(named[1]);
    const by = /(\d+(?:[ _,]\d{3})*(?:\.\d+)?(?:\s*\w+)?)\s+by default/.exec(window);
    if (by) push(by[1]);
    for (const eq of window.matchAll(/(\d+(?:[ _,]\d{3})*)\s*=\s*(\d+(?:\.\d+)?\s*\w+)/g)) {
      push(eq[1]);
      push(eq[2]);
    }
  }
  return out;
}

/** Each `N (M unit)` of a text whose two sides differ (`600_000 (10 minutes)` agrees, `600_000 (5 minutes)` not). */
export function inconsistentRestatements(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\w.])(\d{1,3}(?:[_,]\d{3})+|\d{4,})\s*\((\d+(?:\.\d+)?)\s*(\w+)/g)) {
    const unit = UNITS[m[3]!];
    if (!unit || unit.factor === 1) continue;
    const left = Number(m[1]!.replace(/[_,]/g, ''));
    if (left !== Number(m[2]) * unit.factor) out.push(m[0]);
  }
  return out;
}
