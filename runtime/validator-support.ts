/**
 * The two helpers that ajv's standalone validators normally `require` at run time, written here
 * so that the generated validators (`generated/validators/<id>.ts`) import them from the runtime
 * instead of from ajv: `ucs2length` (for `minLength` / `maxLength`) and `equal` (for `const`,
 * `enum` of objects and `uniqueItems`). Same results as `ajv/dist/runtime/ucs2length` and
 * `fast-deep-equal`, the modules ajv uses.
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
