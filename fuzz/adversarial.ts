/**
 * The "slow validator" check (`fuzz/exercise.ts`): hostile input for a generated validator, made
 * from its model's request schema. For each regular expression of the schema (`pattern`,
 * `patternProperties` keys, a `propertyNames` pattern) and each `format`, strings that make a
 * backtracking matcher slow: a long run of one or two of the characters it is about, then one that
 * breaks the match, placed where the schema applies the check (a property's value, an item, a key).
 * Each input grows from 16 characters to 10 KB and stops as soon as one call takes over 100 ms,
 * so that an exponential matcher is caught at a small size instead of hanging on 10 KB.
 */
import { resolveLocalRef } from '../generator/stages/schema-walk.ts';

/** A validator over 100 ms on one input is slow. */
export const SLOW_MS = 100;
/** The largest input tried, in characters. */
export const MAX_INPUT = 10 * 1024;
/** The lengths each input is tried at, smallest first (fine steps at first: exponential time doubles per character). */
const LENGTHS = [16, 20, 24, 28, 32, 48, 64, 128, 256, 512, 1024, 2048, 4096, MAX_INPUT];

/** Where a check applies, and how a string placed there makes a whole request body. */
interface Site {
  /** `pattern <source>` or `format <name>`. */
  check: string;
  /** A JSON-pointer-like description of the place (`/prompt`, `/options/<key>`). */
  where: string;
  place: (s: string) => unknown;
  strings: HostileString[];
}

interface HostileString {
  prefix: string;
  unit: string;
  tail: string;
}

/** Keyword-free characters that most patterns and formats are about. */
const COMMON = ['a', '1', ' ', '.', '-', '/', ':', '@'];
/** What ends a run so that the match fails (a line feed for `.`). */
const TAILS = ['!', '\u0000', ' ', '\n'];
/** Prefixes that bring a format's matcher to its repeated part. */
const FORMAT_PREFIXES: Record<string, string[]> = {
  url: ['http://', 'ftp://a@', 'http://a.'],
  uri: ['a:', 'a://'],
  'uri-reference': ['', 'a:', '//', '/', '#', '?'],
  iri: ['a:'],
  'iri-reference': ['', '//'],
  'uri-template': ['', '{'],
  email: ['', 'a@', 'a@a.'],
  hostname: ['', 'a.'],
  'idn-hostname': ['', 'a.'],
  ipv4: ['', '1.'],
  ipv6: ['', '::', '1:'],
  date: [''],
  time: ['', '00:00:00.'],
  'date-time': ['', '2020-01-01T00:00:00.'],
  'iso-time': ['', '00:00:00.'],
  'iso-date-time': ['', '2020-01-01T00:00:00.'],
  duration: ['P', 'PT'],
  uuid: ['', 'urn:uuid:'],
  'json-pointer': ['', '/'],
  'json-pointer-uri-fragment': ['#', '#/'],
  'relative-json-pointer': ['0', '0/'],
};
const FORMAT_UNITS = [...COMMON, '%', '::', 'a.', 'a-', '1.', '/@5', 'a@', 'aa.', '{a}', '~0', 'A', '\u00a1', 'a:1'];

/** The characters a regular expression is about: its literal characters, an escape read as a member of its class. */
function patternChars(source: string): string[] {
  const chars = new Set<string>();
  const named: Record<string, string> = { d: '1', w: 'a', s: ' ', D: 'a', W: '!', S: 'a', b: '', B: '' };
  for (let i = 0; i < source.length && chars.size < 12; i++) {
    let c = source[i]!;
    if (c === '\\' && i + 1 < source.length) {
      const e = source[++i]!;
      c = named[e] ?? e;
    } else if ('^$()[]{}|*+?'.includes(c)) continue;
    else if (c === '.') c = 'a';
    if (c !== '') chars.add(c);
  }
  for (const c of COMMON.slice(0, 3)) chars.add(c);
  return [...chars];
}

/** Runs of characters for a pattern: each of its characters, and each pair of them in the order found. */
function patternStrings(source: string): HostileString[] {
  const chars = patternChars(source);
  const units = [...chars];
  for (let i = 0; i + 1 < chars.length; i++) units.push(chars[i]! + chars[i + 1]!);
  return [...new Set(['', literalPrefix(source)])].flatMap((prefix) =>
    units.flatMap((unit) => TAILS.map((tail) => ({ prefix, unit, tail }))),
  );
}

/** The literal text a pattern starts with (after `^`), which brings its matcher to what follows: `^https?://x` -> `http`. */
function literalPrefix(source: string): string {
  let prefix = '';
  for (let i = source.startsWith('^') ? 1 : 0; i < source.length; i++) {
    let c = source[i]!;
    if (c === '\\') {
      c = source[++i] ?? '';
      if (/^[dwsDWSbBpPuxc0-9k]$/.test(c)) break; // a class, an escape of a code point or a reference
    } else if ('^$.()[]{}|*+?'.includes(c)) break;
    if ('*+?{'.includes(source[i + 1] ?? '')) break; // quantified: not always there
    prefix += c;
  }
  return prefix;
}

function formatStrings(format: string): HostileString[] {
  return (FORMAT_PREFIXES[format] ?? ['']).flatMap((prefix) =>
    FORMAT_UNITS.flatMap((unit) => TAILS.map((tail) => ({ prefix, unit, tail }))),
  );
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object with this one own key (also `__proto__`). */
function one(key: string, value: unknown): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  return o;
}

/**
 * The places of `schema` (a model's request schema) where a regular expression or a format checks
 * a string, each distinct check once (the first place met, breadth first). Iterative, and follows
 * local `$ref`s a bounded number of times.
 */
export function checkSites(schema: unknown): Site[] {
  const sites = new Map<string, Site>();
  const add = (check: string, where: string, place: (s: string) => unknown, strings: () => HostileString[]) => {
    if (!sites.has(check)) sites.set(check, { check, where, place, strings: strings() });
  };
  const queue: Array<{ node: unknown; where: string; place: (s: unknown) => unknown; refs: number }> = [
    { node: schema, where: '', place: (s) => s, refs: 0 },
  ];
  // breadth first, in the schema's order: each check is placed where it is first met (bounded: a
  // fan-out of $refs could list many more places than the schema has nodes)
  for (let i = 0; i < queue.length && i < 5_000 && queue.length < 100_000; i++) {
    const { node, where, place, refs } = queue[i]!;
    if (!isMap(node)) continue;
    if (typeof node['pattern'] === 'string') {
      const p = node['pattern'];
      add(`pattern ${JSON.stringify(p)}`, where, place, () => patternStrings(p));
    }
    if (typeof node['format'] === 'string') {
      const f = node['format'];
      add(`format ${JSON.stringify(f)}`, where, place, () => formatStrings(f));
    }
    if (typeof node['$ref'] === 'string' && refs < 20) {
      let target: unknown;
      try {
        target = resolveLocalRef(schema, node['$ref']);
      } catch {
        target = undefined;
      }
      queue.push({ node: target, where, place, refs: refs + 1 });
    }
    if (isMap(node['patternProperties']))
      for (const k of Object.keys(node['patternProperties']))
        add(
          `pattern ${JSON.stringify(k)}`,
          `${where}/<key>`,
          (s) => place(one(s, null)),
          () => patternStrings(k),
        );
    if (isMap(node['propertyNames']))
      queue.push({
        node: node['propertyNames'],
        where: `${where}/<key>`,
        place: (s) => place(one(s as string, null)),
        refs,
      });
    if (isMap(node['properties']))
      for (const [name, sub] of Object.entries(node['properties']))
        queue.push({ node: sub, where: `${where}/${name}`, place: (s) => place(one(name, s)), refs });
    if (isMap(node['additionalProperties']))
      queue.push({
        node: node['additionalProperties'],
        where: `${where}/<other>`,
        place: (s) => place(one('zz_other', s)),
        refs,
      });
    if (isMap(node['items'])) queue.push({ node: node['items'], where: `${where}/0`, place: (s) => place([s]), refs });
    else if (Array.isArray(node['items']))
      node['items'].forEach((sub, j) =>
        queue.push({ node: sub, where: `${where}/${j}`, place: (s) => place([...Array<null>(j).fill(null), s]), refs }),
      );
    for (const k of ['allOf', 'anyOf', 'oneOf'])
      if (Array.isArray(node[k])) for (const sub of node[k] as unknown[]) queue.push({ node: sub, where, place, refs });
    for (const k of ['not', 'if', 'then', 'else']) queue.push({ node: node[k], where, place, refs });
  }
  return [...sites.values()];
}

/** Milliseconds of one call. */
function timed(validate: (d: unknown) => unknown, body: unknown): number {
  const t0 = performance.now();
  validate(body);
  return performance.now() - t0;
}

/**
 * Why `validate` is slow on a hostile input built from `schema`, one line per check, or [] when
 * every input of up to `MAX_INPUT` characters takes at most `SLOW_MS`. A call over the limit
 * but under 1 s is timed twice more and the fastest counts (a pause of the machine is not the validator's).
 */
export function slowInputs(validate: (d: unknown) => unknown, schema: unknown): string[] {
  const out: string[] = [];
  for (const site of checkSites(schema)) {
    search: for (const { prefix, unit, tail } of site.strings) {
      for (const n of LENGTHS) {
        const s = (prefix + unit.repeat(Math.ceil(n / unit.length))).slice(0, n - tail.length) + tail;
        const body = site.place(s);
        let ms = timed(validate, body);
        if (ms > SLOW_MS && ms < 1_000) ms = Math.min(ms, timed(validate, body), timed(validate, body));
        if (ms > SLOW_MS) {
          out.push(
            `${Math.round(ms)} ms on ${s.length} characters at ${site.where || '/'} (${site.check}): ${JSON.stringify(prefix)} + ${JSON.stringify(unit)} repeated + ${JSON.stringify(tail)}`,
          );
          break search;
        }
      }
    }
  }
  return out;
}
