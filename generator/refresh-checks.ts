/**
 * Refresh, checks before anything is fetched: the base URL (https, or http only to a loopback
 * host), model ids given on the command line, numeric options; `RefreshError`, the error of a
 * refresh that did not happen; and the redaction of the API key from any text shown.
 */

/** The service's server (`specs/openapi.yaml`); overridden by `OXEN_BASE_URL` or `--base-url`. */
export const DEFAULT_REFRESH_BASE_URL = 'https://hub.oxen.ai';

/** One id that could not be refreshed and why (the reason never contains the API key). */
export interface FetchFailure {
  id: string;
  reason: string;
}

/**
 * A refresh that did not happen: bad options (no key, refused base URL, unknown id, ...), failed
 * fetches (`failures`, one per id, sorted by id), or a new snapshot that does not generate.
 * When thrown, nothing was written (or everything written was restored: see `restored`).
 */
export class RefreshError extends Error {
  override name = 'RefreshError';
  constructor(
    message: string,
    /** Every id that failed, with its reason; empty for errors that are not about one model. */
    readonly failures: FetchFailure[] = [],
    /** True when files had been written and were restored to their previous bytes. */
    readonly restored = false,
    /** True when the service answered 401 or 403: the key is wrong or lacks permission, and fetching stopped there. */
    readonly authFailure = false,
  ) {
    super(message);
  }
}

/** True for a loopback host name as the WHATWG URL parser normalises it (127.0.0.0/8, localhost, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Check a base URL: `https:` to any host, `http:` only to a loopback host (plain HTTP would send
 * the API key in clear text). Returns it without trailing slashes.
 * @throws RefreshError for anything else (malformed, other scheme, `http:` to another host, credentials in the URL).
 */
export function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RefreshError(`base URL ${JSON.stringify(baseUrl)} is not a valid URL`);
  }
  if (url.username || url.password) throw new RefreshError('base URL must not contain credentials (the API key is read from OXEN_API_KEY)');
  if (url.protocol === 'https:') return baseUrl.replace(/\/+$/, '');
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return baseUrl.replace(/\/+$/, '');
    throw new RefreshError(`refusing plain http:// to ${url.hostname}: the API key would be sent in clear text; use https:// (http:// is allowed only for 127.0.0.0/8, localhost and ::1)`);
  }
  throw new RefreshError(`base URL must be https:// (or http:// to a loopback host), got ${url.protocol}//`);
}

/**
 * Check a model id given on the command line: it names a file, so no slash, backslash or control
 * character, and not `.` or `..` (the same rule as `specs/models.json` in `load`).
 * @throws RefreshError naming the id.
 */
export function checkModelId(id: string): string {
  // eslint-disable-next-line no-control-regex
  if (id === '' || id === '.' || id === '..' || /[/\\\u0000-\u001f\u007f]/.test(id)) throw new RefreshError(`invalid model id ${JSON.stringify(id)}: an id names a file, so it cannot be empty, . or .., or contain a slash or control character`);
  return id;
}

/** A function that replaces every occurrence of `key` (4 characters or more) with `[REDACTED]`. */
export function redactor(key: string): (s: string) => string {
  return (s) => (key.length >= 4 ? s.split(key).join('[REDACTED]') : s);
}

/** `v`, or `dflt` when undefined. @throws RefreshError naming `name` when `v` is not an integer >= `min`. */
export function positiveInt(name: string, v: number | undefined, dflt: number, min = 1): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < min) throw new RefreshError(`${name} must be an integer >= ${min}, got ${v}`);
  return v;
}
