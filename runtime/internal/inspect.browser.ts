/**
 * The browser build's `inspect.ts` (the package's `browser` export condition; the swap is
 * `scripts/build/browser.mjs`): a browser has no `util.inspect`, and its console shows an error's
 * own fields, so the SDK's errors get no inspect hook there. Their class, fields and `toJSON()` are
 * the same in every build.
 */

/** Does nothing: browsers have no `util.inspect` (see `inspect.ts` for the hook of Node, Deno and Bun). */
export function defineInspect(_prototype: object): void {}
