/**
 * Keeps secrets (API keys, custom header values) out of everything the SDK lets escape. Each
 * transport, proxy handler and refresh holds its own `Redactor`, made from its own secrets; nothing
 * process-wide keeps any, so a dropped client leaves nothing behind and one client's errors are
 * scanned only for that client's secrets. Every error is redacted when it is constructed, with
 * the redactor of the call that made it (`errors.ts`): message, stack, body, headers and cause
 * chain, before any text is cut.
 *
 * A secret is replaced by `[REDACTED]` wherever it appears, with any of its characters written
 * raw, JSON-escaped (`\u0073k-…`, `\/`, `\"`, with up to 8 backslashes, as JSON nested in JSON
 * escapes them) or percent-encoded (`%73k-…`, either case), in any mix. Strings shorter than 4
 * characters are not secrets (they would redact ordinary text).
 *
 * Which header values are secrets (`headerSecrets`): every value of 4 characters or more, except
 * those of a few standard headers that carry no credential (`PUBLIC_HEADERS`: `accept`,
 * `content-type`, `user-agent`, the tracing ones such as `traceparent` and `x-trace-id`, ...). A value shorter than 4 characters cannot be told apart from
 * ordinary text and is not searched for; the debug log still never prints it (it shows the value
 * of a request header only for the names of `PUBLIC_HEADERS`).
 */

/** What a secret is replaced by. */
export const REDACTED = '[REDACTED]';

/** Strings shorter than this are never treated as secrets. */
export const MIN_SECRET_CHARS = 4;

/**
 * The names of the headers (lower case) whose values are not secrets: standard headers that carry
 * no credential, and the usual tracing ones (W3C `traceparent` / `tracestate`, `x-request-id`,
 * `x-correlation-id`, `x-trace-id`), whose values are meant to be seen in logs. Every other header
 * value is a secret (see `headerSecrets`).
 */
export const PUBLIC_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-language',
  'content-type',
  'last-event-id',
  'pragma',
  'traceparent',
  'tracestate',
  'user-agent',
  'x-correlation-id',
  'x-request-id',
  'x-requested-with',
  'x-trace-id',
]);

/**
 * The secret values of `headers` (trimmed, as `fetch` sends them): every value but those of
 * `PUBLIC_HEADERS` (names in any case).
 */
export function headerSecrets(headers: Record<string, string> | Headers = {}): string[] {
  const out: string[] = [];
  const add = (value: string, name: string) => PUBLIC_HEADERS.has(name.toLowerCase()) || out.push(value.trim());
  if (headers instanceof Headers) headers.forEach(add);
  else for (const [name, value] of Object.entries(headers)) add(String(value), name);
  return out;
}

/**
 * A JSON escape of one character (`\u0073`; `\/`, `\"`, `\\`), behind 1 to 8 backslashes (JSON
 * nested in JSON; bounded, so that a run of backslashes costs linear time), or a percent-encoded byte.
 */
const ESCAPE = /\\{1,8}(?:u([\da-fA-F]{4})|([/"\\]))|%([\da-fA-F]{2})/g;
/** An escape cut in its middle, at the end of a text. */
const CUT_ESCAPE = /(?:\\{1,8}(?:u[\da-fA-F]{0,3})?|%[\da-fA-F]?)$/;

/**
 * `text` with its escapes (`ESCAPE`) decoded, and where each unit of the decoded text came from:
 * `at(d, false)` is where decoded unit `d` starts in `text`, `at(d, true)` where it ends.
 * Undefined when `text` has no escape.
 */
function decode(text: string): { decoded: string; at: (d: number, end: boolean) => number } | undefined {
  // Per escape: its index in `decoded`, its start and its end in `text`.
  const marks: number[] = [];
  let decoded = '';
  let last = 0;
  for (const m of text.matchAll(ESCAPE)) {
    decoded += text.slice(last, m.index);
    marks.push(decoded.length, m.index, (last = m.index + m[0].length));
    decoded += m[2] ?? String.fromCharCode(parseInt(m[1] ?? m[3]!, 16));
  }
  if (marks.length === 0) return undefined;
  decoded += text.slice(last);
  const at = (d: number, end: boolean): number => {
    let lo = 0;
    let hi = marks.length / 3;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (marks[mid * 3]! <= d) lo = mid + 1;
      else hi = mid;
    }
    const k = (lo - 1) * 3; // the last escape at or before `d`
    if (k >= 0 && marks[k] === d) return marks[k + (end ? 2 : 1)]!;
    return d + (end ? 1 : 0) + (k < 0 ? 0 : marks[k + 2]! - marks[k]! - 1);
  };
  return { decoded, at };
}

/** `text` with the spans `cuts` (`[start, end)`, in any order, overlapping or not) replaced by `[REDACTED]`. */
function replaceSpans(text: string, cuts: Array<[number, number]>): string {
  if (cuts.length === 0) return text;
  cuts.sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (const [a, b] of cuts) {
    if (a >= pos) out += text.slice(pos, a) + REDACTED;
    pos = Math.max(pos, b);
  }
  return out + text.slice(pos);
}

/**
 * Replaces a fixed set of secrets with `[REDACTED]` in text, JSON-like values and errors. The
 * secrets are held in a `#private` field: inspecting, logging or serialising a redactor shows none
 * of them. Immutable; `Redactor.NONE` has no secrets.
 *
 * @example
 * const r = new Redactor([apiKey]);
 * console.error(r.text(message));
 */
export class Redactor {
  /** A redactor without secrets (leaves everything as is). */
  static readonly NONE: Redactor = new Redactor();

  /** The secrets (each also without an auth scheme such as `Bearer `), longest first, so that a secret containing another is replaced whole. */
  readonly #secrets: readonly string[];

  /** @param secrets the secrets; `undefined` and strings shorter than 4 characters are ignored. */
  constructor(secrets: Iterable<string | undefined> = []) {
    const all = new Set<string>();
    for (const s of secrets)
      if (typeof s === 'string')
        for (const c of [s, s.replace(/^\s*(Bearer|Basic|Token)\s+/i, '')])
          if (c.length >= MIN_SECRET_CHARS) {
            all.add(c);
            // Its URI form too, for the characters outside ASCII (their escapes decode to more than one unit).
            if (/[^\0-\x7f]/.test(c)) all.add(encodeURI(c.replace(/[\ud800-\udfff]/g, '')));
          }
    this.#secrets = [...all].sort((a, b) => b.length - a.length);
    Object.freeze(this);
  }

  /** True when this redactor has no secret. */
  get empty(): boolean {
    return this.#secrets.length === 0;
  }

  /**
   * This redactor with `secrets` added (a call's own header values), or itself when it already
   * has them all.
   */
  with(secrets: Iterable<string | undefined>): Redactor {
    const more = new Redactor(secrets).#secrets;
    return more.every((s) => this.#secrets.includes(s)) ? this : new Redactor([...this.#secrets, ...more]);
  }

  /** `text` with every secret, in any of its forms (see the module comment), replaced by `[REDACTED]`. */
  text(text: string): string {
    const secrets = this.#secrets;
    if (secrets.length === 0 || text.length < MIN_SECRET_CHARS) return text;
    let out = text;
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    const d = /[\\%]/.test(out) ? decode(out) : undefined;
    if (!d) return out;
    const cuts: Array<[number, number]> = [];
    for (const s of secrets)
      for (let i = d.decoded.indexOf(s); i >= 0; i = d.decoded.indexOf(s, i + s.length))
        cuts.push([d.at(i, false), d.at(i + s.length - 1, true)]);
    return replaceSpans(out, cuts);
  }

  /**
   * `text`, which was cut at its end (e.g. a body read up to a byte limit), redacted: every whole
   * secret, and a trailing start of one (the part before the cut, in any form, with an escape cut
   * in its middle), is replaced by `[REDACTED]`.
   */
  cutText(text: string): string {
    const out = this.text(text);
    const body = out.replace(CUT_ESCAPE, '');
    const d = decode(body) ?? { decoded: body, at: (i: number) => i };
    // The longest start of a secret the decoded text ends with.
    let longest = 0;
    for (const s of this.#secrets)
      for (let k = Math.min(s.length - 1, d.decoded.length); k > longest; k--)
        if (d.decoded.endsWith(s.slice(0, k))) {
          longest = k;
          break;
        }
    if (longest > 0) return out.slice(0, d.at(d.decoded.length - longest, false)) + REDACTED;
    return body === out ? out : body + REDACTED; // an escape cut in its middle: what it was is unknown
  }

  /** True when `text` contains one of the secrets (in any form). */
  contains(text: string): boolean {
    return this.text(text) !== text;
  }

  /**
   * A redacted copy of a JSON-like value (strings, arrays and plain objects; object keys too), or
   * the value itself when it holds no secret. Depth beyond 64 is cut (`'[…]'`).
   */
  value<T>(value: T): T {
    return this.#secrets.length === 0 ? value : (walk(this, value, 0) as T);
  }

  /**
   * Redact a foreign error (not one of the SDK's) in place, with its cause chain and, for an
   * `AggregateError`, its errors (at most 8 levels): message and stack. Used on every `cause`.
   */
  errorChain(err: unknown, depth = 0): void {
    if (depth > 8 || !(err instanceof Error) || this.#secrets.length === 0) return;
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
