/**
 * The helpers that the generated validators (`generated/validators/<id>.ts`) import from the runtime
 * instead of from ajv: `ucs2length` (for `minLength` / `maxLength`) and `equal` (for `const`,
 * `enum` of objects and `uniqueItems`), with the results of `ajv/dist/runtime/ucs2length` and
 * `fast-deep-equal`, the modules ajv uses; and `isUrl`, the `url` format in linear time (ajv-formats'
 * regular expression for it backtracks: 8.8 s on 128 KB).
 *
 * The entry `oxen-inference-sdk/validator-support` (a user's generated validators import it). Not
 * re-exported by the root nor `./runtime`: the lazily loaded validators import this module, and a bundler
 * puts a module that an entry re-exports and a lazy chunk imports into a chunk loaded with the entry.
 */

/**
 * The length of `s` in Unicode code points (a surrogate pair counts once), as JSON Schema's
 * `minLength` / `maxLength` count it.
 */
export function ucs2length(s: string): number {
  const len = s.length;
  let length = 0;
  let pos = 0;
  while (pos < len) {
    length++;
    const value = s.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      // high surrogate, and there is a next character
      const next = s.charCodeAt(pos);
      if ((next & 0xfc00) === 0xdc00) pos++; // low surrogate
    }
  }
  return length;
}

/**
 * Deep equality of JSON values (and of the objects ajv compares): primitives by `===` (NaN equals
 * NaN), arrays element by element, objects by their own enumerable keys, `Date` and `RegExp` by
 * value: the results of fast-deep-equal, which ajv uses, except that an object with its own
 * `toString` or `valueOf` key (valid JSON) is compared by its keys instead of throwing.
 */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const proto = Object.getPrototypeOf(a) as unknown;
    if (proto !== Object.getPrototypeOf(b)) return false;
    if (Array.isArray(a)) {
      const bb = b as unknown[];
      if (a.length !== bb.length) return false;
      for (let i = a.length; i-- !== 0;) if (!equal(a[i], bb[i])) return false;
      return true;
    }
    if (a instanceof RegExp) return a.source === (b as RegExp).source && a.flags === (b as RegExp).flags;
    if (a instanceof Date) return a.getTime() === (b as Date).getTime();
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const key of ka) if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    for (const key of ka)
      if (!equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
    return true;
  }
  // true if both are NaN, false otherwise
  return a !== a && b !== b;
}

/** `http://`, `https://` or `ftp://`, in any case. */
const URL_SCHEME = /^(?:https?|ftp):\/\//iu;
/** The run of characters a host can hold (labels, `.`, `-`, IPv4 digits), from `lastIndex`. */
const HOST_RUN = /[a-z0-9\u{00a1}-\u{ffff}.-]*/iuy;
/** The digits of a port, from `lastIndex`. */
const PORT_DIGITS = /\d*/y;
/** An IPv4 host the format accepts: first number 1 to 223, last not 0 nor 255, none of 10/8, 127/8, 169.254/16, 192.168/16, 172.16/12. */
const URL_IPV4 =
  /^(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))$/u;
const NOT_LABEL_CHAR = /[^a-z0-9\u{00a1}-\u{ffff}-]/iu;
const NOT_TLD_CHAR = /[^a-z\u{00a1}-\u{ffff}]/iu;
const WHITESPACE = /\s/u;

/**
 * The `url` format (ajv-formats' `url`: http, https or ftp, an optional user part, a public IPv4
 * address or a host name with a top-level domain of two letters or more, an optional port of 2 to 5
 * digits, an optional path without whitespace): the same results as its regular expression, in
 * time linear in the length of `s` (no step matches a regular expression against more than one
 * part of `s`, and the parts tried do not overlap). Generated validators call it for `format: "url"`.
 * @param s the string to check (any length).
 * @returns whether `s` is a url in that sense; never throws.
 */
export function isUrl(s: string): boolean {
  const scheme = URL_SCHEME.exec(s);
  if (!scheme) return false;
  const start = scheme[0].length;
  // Only the host may hold whitespace (some Unicode spaces are host characters): the user part
  // before it has none, nor has the path after it.
  let firstSpace = s.length;
  let lastSpace = -1;
  for (let i = start; i < s.length; i++)
    if (WHITESPACE.test(s[i]!)) {
      if (firstSpace === s.length) firstSpace = i;
      lastSpace = i;
    }
  if (urlAuthority(s, start, lastSpace)) return true;
  // A user part ends at an `@`; the host after it holds none, so the hosts tried do not overlap.
  for (let at = s.indexOf('@', start + 1); at !== -1 && at < firstSpace; at = s.indexOf('@', at + 1))
    if (urlAuthority(s, at + 1, lastSpace)) return true;
  return false;
}

/** Whether `s` from `from` is a host, an optional port and an optional path, to its end. */
function urlAuthority(s: string, from: number, lastSpace: number): boolean {
  HOST_RUN.lastIndex = from;
  const host = HOST_RUN.exec(s)![0];
  if (!urlHost(host)) return false;
  let p = from + host.length;
  if (s[p] === ':') {
    PORT_DIGITS.lastIndex = p + 1;
    const digits = PORT_DIGITS.exec(s)![0].length;
    if (digits < 2 || digits > 5) return false;
    p += 1 + digits;
  }
  return p === s.length || (s[p] === '/' && p > lastSpace);
}

/** A public IPv4 address, or labels (letters, digits, single inner hyphens) and a top-level domain of two letters or more. */
function urlHost(host: string): boolean {
  if (host.length <= 15 && URL_IPV4.test(host)) return true;
  const labels = host.split('.');
  const tld = labels.pop()!;
  if (labels.length === 0 || tld.length < 2 || NOT_TLD_CHAR.test(tld)) return false;
  return labels.every(
    (l) => l !== '' && !l.startsWith('-') && !l.endsWith('-') && !l.includes('--') && !NOT_LABEL_CHAR.test(l),
  );
}
