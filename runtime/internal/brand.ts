/**
 * `instanceof` across copies of this package in one program: Node loads the ES module build and the
 * CommonJS build side by side when one part of a program imports the package and another requires it
 * (and Deno and Bun likewise), and then each copy has its own error classes. Each class of the SDK's
 * errors is branded with its name (a `Symbol.for` key, shared by every copy), and `instanceof` one of
 * them is also true of an error whose prototype chain holds a prototype of another copy branded with
 * that name: `err instanceof APIError` whichever copy threw it.
 *
 * Browser builds use `brand.browser.ts` instead (the package's `browser` export condition; the swap is
 * `scripts/build/browser.mjs`): a browser bundle has one build of the package, no CommonJS copy beside it.
 */

/** The brand's key, the same in every copy of the package. */
const BRAND: unique symbol = Symbol.for('oxen-inference-sdk.error');

interface Branded {
  [BRAND]?: string;
}

/**
 * `instanceof` of a branded class (`this`): the prototype chain of `value` holds this class's prototype, or
 * a prototype branded with the same name (a class of another copy). A class that extends a branded one
 * without being branded itself (a user's subclass) is checked as usual: by its own prototype only.
 */
function hasInstance(this: { prototype: Branded }, value: unknown): boolean {
  const own = Object.hasOwn(this.prototype, BRAND) ? this.prototype[BRAND] : undefined;
  if (value === null || value === undefined) return false;
  for (
    let p = Object.getPrototypeOf(value) as Branded | null;
    p !== null;
    p = Object.getPrototypeOf(p) as Branded | null
  )
    if (p === this.prototype || (own !== undefined && p[BRAND] === own)) return true;
  return false;
}

/**
 * Brands each class of `classes` with its key (the class's name, as its instances' `name`), and gives it
 * the `instanceof` check above (`Symbol.hasInstance`, which its subclasses inherit). Defined off the class
 * bodies, so that the declarations have no symbol-keyed member.
 */
export function brandErrors(classes: Readonly<Record<string, abstract new (...args: never) => Error>>): void {
  for (const [name, errorClass] of Object.entries(classes)) {
    Object.defineProperty(errorClass.prototype, BRAND, { value: name });
    Object.defineProperty(errorClass, Symbol.hasInstance, { value: hasInstance });
  }
}
