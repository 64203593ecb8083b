/**
 * What the runtime knows about where it runs: environment variables (none in a browser) and
 * whether it is a browser page (where an API key would be visible to every visitor).
 */

/** An environment variable (`process.env`), or undefined when unset, empty, or there is no `process` (browsers). */
export function env(name: string): string | undefined {
  const p = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  let v: string | undefined;
  try {
    v = p?.env?.[name];
  } catch {
    return undefined; // Deno without --allow-env throws
  }
  return v === undefined || v === '' ? undefined : v;
}

/**
 * True in a browser page (or a browser-like worker with a `window` and a `document`), as
 * openai-node detects it; false in Node, Deno and Bun, even with a `window` shim.
 */
export function isBrowser(): boolean {
  const g = globalThis as {
    window?: { document?: unknown };
    navigator?: unknown;
    process?: { versions?: { node?: unknown } };
    Deno?: unknown;
    Bun?: unknown;
  };
  if (g.Deno !== undefined || g.Bun !== undefined) return false;
  if (typeof g.process?.versions?.node === 'string') return false;
  return (
    typeof g.window !== 'undefined' && typeof g.window.document !== 'undefined' && typeof g.navigator !== 'undefined'
  );
}
