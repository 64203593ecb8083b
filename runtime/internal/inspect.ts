/**
 * The `util.inspect` form of the SDK's errors (Node, and Deno and Bun, which honour the same symbol):
 * `console.log(err)` shows the stack, then the redacted details of `toJSON` (never the raw headers
 * nor the raw cause).
 *
 * Browser builds use `inspect.browser.ts` instead (the package's `browser` export condition; the
 * swap is `scripts/build/browser.mjs`): a browser has no `util.inspect`, and its console shows an
 * error's own fields.
 */

/** What the hook reads of an error: its `toJSON` (redacted, bounded data) and its stack. */
interface InspectableError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string | undefined;
  toJSON(): Record<string, unknown>;
}

/**
 * Defines `Symbol.for('nodejs.util.inspect.custom')` on `prototype` (the SDK's base error class):
 * the stack, then the fields of `toJSON()` besides `name` and `message`, through the caller's
 * `inspect` (at depth 3), or as JSON when none is given. Defined off the class body so that the
 * declarations need no symbol-keyed member.
 */
export function defineInspect(prototype: InspectableError): void {
  Object.defineProperty(prototype, Symbol.for('nodejs.util.inspect.custom'), {
    value: function inspectError(
      this: InspectableError,
      _depth: number,
      options: object | undefined,
      inspect?: (value: unknown, options?: object) => string,
    ): string {
      const { name: _n, message: _m, ...rest } = this.toJSON();
      const head = this.stack ?? `${this.name}: ${this.message}`;
      if (Object.keys(rest).length === 0) return head;
      return `${head} ${typeof inspect === 'function' ? inspect(rest, { ...options, depth: 3 }) : JSON.stringify(rest)}`;
    },
    writable: true,
    configurable: true,
  });
}
