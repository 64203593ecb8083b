/**
 * Keeps secrets (API keys, custom header values) out of everything the SDK lets escape. Each
 * transport, proxy handler and refresh holds its own `Redactor`, made from its own secrets; nothing
 * process-wide keeps any, so a dropped client leaves nothing behind and one client's errors are
 * scanned only for that client's secrets. Every error is redacted when it is constructed, with
 * the redactor of the call that made it (`errors.ts`): message, stack, body, headers and cause
 * chain, before any text is cut.
 *
 * A secret is replaced by `[REDACTED]` wherever it appears, in its raw, JSON-escaped and
 * URI-encoded forms. Strings shorter than 4 characters are not secrets (they would redact
 * ordinary text).
 */

/** What a secret is replaced by. */
export const REDACTED = '[REDACTED]';

/** Strings shorter than this are never treated as secrets. */
export const MIN_SECRET_CHARS = 4;

/** The forms of each redactor's secrets, longest first; kept off the object so that inspecting a redactor shows none. */
const formsOf = new WeakMap<Redactor, readonly string[]>();

/** The raw, JSON-escaped and URI-encoded forms of `secret` (and of it without an auth scheme such as `Bearer `). */
function addForms(forms: Set<string>, secret: string): void {
  const candidates = [secret];
  const bare = secret.replace(/^\s*(Bearer|Basic|Token)\s+/i, '');
  if (bare !== secret) candidates.push(bare);
  for (const s of candidates) {
    if (s.length < MIN_SECRET_CHARS) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    try {
      forms.add(encodeURIComponent(s));
    } catch {
      /* a lone surrogate: no URI form */
    }
  }
}

/**
 * Replaces a fixed set of secrets with `[REDACTED]` in text, JSON-like values and errors. The
 * secrets are held privately: inspecting, logging or serialising a redactor shows none of them.
 * Immutable; `Redactor.NONE` has no secrets.
 *
 * @example
 * const r = new Redactor([apiKey]);
 * console.error(r.text(message));
 */
export class Redactor {
  /** A redactor without secrets (leaves everything as is). */
  static readonly NONE: Redactor = new Redactor();

  /** @param secrets the secrets; `undefined` and strings shorter than 4 characters are ignored. */
  constructor(secrets: Iterable<string | undefined> = []) {
    const forms = new Set<string>();
    for (const s of secrets) if (typeof s === 'string') addForms(forms, s);
    formsOf.set(
      this,
      [...forms].sort((a, b) => b.length - a.length),
    );
    Object.freeze(this);
  }

  /** True when this redactor has no secret. */
  get empty(): boolean {
    return forms(this).length === 0;
  }

  /** `text` with every secret replaced by `[REDACTED]`. */
  text(text: string): string {
    const all = forms(this);
    if (all.length === 0 || text.length < MIN_SECRET_CHARS) return text;
    let out = text;
    for (const s of all) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }

  /**
   * `text`, which was cut at its end (e.g. a body read up to a byte limit), redacted: every whole
   * secret, and a trailing start of one (the part before the cut), is replaced by `[REDACTED]`.
   */
  cutText(text: string): string {
    const out = this.text(text);
    let longest = 0;
    for (const s of forms(this)) {
      for (let k = Math.min(s.length - 1, out.length); k > longest; k--) {
        if (out.endsWith(s.slice(0, k))) {
          longest = k;
          break;
        }
      }
    }
    return longest === 0 ? out : out.slice(0, out.length - longest) + REDACTED;
  }

  /** True when `text` contains one of the secrets. */
  contains(text: string): boolean {
    for (const s of forms(this)) if (text.includes(s)) return true;
    return false;
  }

  /**
   * A redacted copy of a JSON-like value (strings, arrays and plain objects; object keys too), or
   * the value itself when it holds no secret. Depth beyond 64 is cut (`'[…]'`).
   */
  value<T>(value: T): T {
    if (forms(this).length === 0) return value;
    return walk(this, value, 0) as T;
  }

  /**
   * Redact a foreign error (not one of the SDK's) in place, with its cause chain and, for an
   * `AggregateError`, its errors (at most 8 levels): message and stack. Used on every `cause`.
   */
  errorChain(err: unknown, depth = 0): void {
    if (depth > 8 || !(err instanceof Error) || forms(this).length === 0) return;
    try {
      if (this.contains(err.message)) err.message = this.text(err.message);
      if (typeof err.stack === 'string' && this.contains(err.stack)) err.stack = this.text(err.stack);
    } catch {
      /* a frozen error: nothing to do */
    }
    this.errorChain((err as { cause?: unknown }).cause, depth + 1);
    const errors = (err as { errors?: unknown }).errors;
    if (Array.isArray(errors)) for (const e of errors.slice(0, 16)) this.errorChain(e, depth + 1);
  }
}

function forms(r: Redactor): readonly string[] {
  return formsOf.get(r) ?? [];
}

function walk(r: Redactor, value: unknown, depth: number): unknown {
  if (typeof value === 'string') return r.text(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 64) return '[…]';
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const w = walk(r, v, depth + 1);
      if (w !== v) changed = true;
      return w;
    });
    return changed ? out : value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value; // not JSON data: left as is
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const rk = r.text(k);
    const rv = walk(r, v, depth + 1);
    if (rk !== k || rv !== v) changed = true;
    Object.defineProperty(out, rk, { value: rv, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : value;
}
