/**
 * Keeps secrets (API keys, credentials in custom headers) out of everything the SDK lets escape:
 * every error's message, stack, body, headers and cause chain is passed through `redactText` /
 * `redactValue` when the error is constructed (`errors.ts`), whoever constructed it.
 *
 * The secrets live only in this module's private set, never on an object a caller can reach or
 * inspect. A transport registers its key once (`registerSecret`); a registered string is replaced
 * by `[REDACTED]` wherever it appears, in its raw, JSON-escaped and URI-encoded forms. Strings
 * shorter than 4 characters are not registered (they would redact ordinary text).
 */

/** What a secret is replaced by. */
export const REDACTED = '[REDACTED]';

const secrets = new Set<string>();

/** Register `secret` (and its JSON-escaped and URI-encoded forms) for redaction. Idempotent; ignores short strings. */
export function registerSecret(secret: string | undefined): void {
  if (typeof secret !== 'string' || secret.length < 4) return;
  secrets.add(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  if (json !== secret) secrets.add(json);
  try {
    const uri = encodeURIComponent(secret);
    if (uri !== secret) secrets.add(uri);
  } catch {
    /* a lone surrogate: no URI form */
  }
}

/** `text` with every registered secret replaced by `[REDACTED]`. */
export function redactText(text: string): string {
  if (secrets.size === 0 || text.length < 4) return text;
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/** True when `text` contains a registered secret. */
export function containsSecret(text: string): boolean {
  for (const s of secrets) if (text.includes(s)) return true;
  return false;
}

/**
 * A redacted copy of a JSON-like value (strings, arrays and plain objects; object keys too), or the
 * value itself when it holds no secret. Depth beyond 64 is cut (`'[…]'`).
 */
export function redactValue<T>(value: T): T {
  if (secrets.size === 0) return value;
  return walk(value, 0) as T;
}

function walk(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 64) return '[…]';
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = walk(v, depth + 1);
      if (r !== v) changed = true;
      return r;
    });
    return changed ? out : value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value; // not JSON data: left as is
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const rk = redactText(k);
    const rv = walk(v, depth + 1);
    if (rk !== k || rv !== v) changed = true;
    Object.defineProperty(out, rk, { value: rv, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : value;
}

/**
 * Redact a foreign error (not one of the SDK's) in place, with its cause chain and, for an
 * `AggregateError`, its errors (at most 8 levels): message and stack. Used on every `cause`.
 */
export function redactErrorChain(err: unknown, depth = 0): void {
  if (secrets.size === 0 || depth > 8 || !(err instanceof Error)) return;
  try {
    if (containsSecret(err.message)) err.message = redactText(err.message);
    if (typeof err.stack === 'string' && containsSecret(err.stack)) err.stack = redactText(err.stack);
  } catch {
    /* a frozen error: nothing to do */
  }
  redactErrorChain((err as { cause?: unknown }).cause, depth + 1);
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors)) for (const e of errors.slice(0, 16)) redactErrorChain(e, depth + 1);
}
