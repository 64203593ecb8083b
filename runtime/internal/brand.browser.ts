/**
 * The browser build's `brand.ts` (the package's `browser` export condition; the swap is
 * `scripts/build/browser.mjs`): a browser bundle holds one build of the package, with no CommonJS copy
 * beside it, so the SDK's error classes are checked by `instanceof` as any class is, and the brand's
 * bytes stay out of every page.
 */

/** Does nothing in a browser build (see `brand.ts` for Node, Deno and Bun). */
export function brandErrors(_classes: object): void {}
