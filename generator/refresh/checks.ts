/**
 * Refresh, checks before anything is fetched: the base URL (https, or http only to a loopback
 * host), model ids given on the command line, numeric options; `RefreshError`, the error of a
 * refresh that did not happen; and the redaction of the API key from any text shown. The rules are
 * the runtime's and the snapshot's own, not copies.
 */
import { checkBaseUrl as checkRuntimeBaseUrl, DEFAULT_BASE_URL, isLoopbackHost } from '../../runtime/options.ts';
import { Redactor } from '../../runtime/redact.ts';
import { modelIdProblem } from '../stages/schema-check.ts';
import { pointerToken } from '../errors.ts';

/**
 * Defaults of the fetch phase (`FetchOptions`; the commands' `--concurrency`, `--timeout-ms`, `--retries`).
 * Times in milliseconds.
 */
export const REFRESH_DEFAULTS = { concurrency: 8, timeoutMs: 30_000, maxRetries: 3, retryBaseDelayMs: 500 } as const;

/** The service's server (`specs/openapi.yaml`); overridden by `OXEN_BASE_URL` or `--base-url`. */
export const DEFAULT_REFRESH_BASE_URL = DEFAULT_BASE_URL;

/** One id that could not be refreshed and why (the reason never contains the API key). */
export interface FetchFailure {
  id: string;
  reason: string;
  /** True when the service answered 404 for the model's details: it no longer serves (or never served) it. */
  notFound?: boolean;
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
    /** True when the commit failed before anything was moved: the previous snapshot and `generated/` are unchanged. */
    readonly restored = false,
    /** True when the service answered 401 or 403: the key is wrong or lacks permission, and fetching stopped there. */
    readonly authFailure = false,
  ) {
    super(message);
  }
}

/**
 * Check a base URL with the runtime's own rule (`checkBaseUrl` of runtime/options.ts): `https:` to
 * any host, `http:` only to a loopback host (plain HTTP would send the API key in clear text), no
 * credentials, query or fragment. Returns it without trailing slashes.
 * @throws RefreshError for anything else.
 */
export function checkBaseUrl(baseUrl: string): string {
  try {
    return checkRuntimeBaseUrl(baseUrl);
  } catch (err) {
    let host = '';
    try {
      const url = new URL(baseUrl);
      if (url.protocol === 'http:') host = url.hostname;
    } catch {
      /* not a URL: the runtime's message says so */
    }
    // plain http:// gets its own line: it names the host and the loopback hosts that http:// is allowed for
    if (host && !isLoopbackHost(host))
      throw new RefreshError(
        `refusing plain http:// to ${host}: the API key would be sent in clear text; use https:// (http:// is allowed only for 127.0.0.0/8, localhost and ::1)`,
      );
    throw new RefreshError(`base URL refused: ${(err as Error).message}`);
  }
}

/**
 * Check a model id given on the command line with the snapshot's rule (`modelIdProblem`,
 * generator/stages/schema-check.ts): it names a file and becomes identifiers.
 * @throws RefreshError naming the id.
 */
export function checkModelId(id: string): string {
  const problem = modelIdProblem(id);
  if (problem) throw new RefreshError(`invalid model id ${JSON.stringify(id)}: ${problem}`);
  return id;
}

/**
 * The redactor of a refresh's key (and of `serve --api-key`): `redactor(key).text(s)` is `s` with
 * each key (4 characters or more; also its JSON-escaped and URI-encoded forms) replaced by
 * `[REDACTED]` (the runtime's `Redactor`, runtime/redact.ts). Holds only these keys; nothing is kept
 * once it is dropped.
 */
export function redactor(...keys: string[]): Redactor {
  return new Redactor(keys);
}

/** The forms of `key` that a text can carry it in: raw and JSON-escaped. Empty for keys under 4 characters. */
function keyForms(key: string): string[] {
  if (key.length < 4) return [];
  return [...new Set([key, JSON.stringify(key).slice(1, -1)])];
}

/**
 * Where a parsed JSON value carries `key` in one of its strings or object keys (after JSON
 * parsing, so `\u0073k-...` escapes count), as a JSON pointer (for an object key: its parent's
 * pointer, so the key itself is never part of it), or undefined. Iterative: any depth.
 */
export function keyPointer(value: unknown, key: string): string | undefined {
  const forms = keyForms(key);
  if (forms.length === 0) return undefined;
  const has = (t: string) => forms.some((f) => t.includes(f));
  const stack: Array<{ v: unknown; pointer: string }> = [{ v: value, pointer: '' }];
  while (stack.length > 0) {
    const { v, pointer } = stack.pop()!;
    if (typeof v === 'string') {
      if (has(v)) return pointer || '/';
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (has(k)) return `${pointer || '/'} (an object key)`;
        stack.push({ v: child, pointer: `${pointer}/${pointerToken(k)}` });
      }
    }
  }
  return undefined;
}

/**
 * The first generated file that would carry `key` (raw or JSON-escaped), with the model it belongs
 * to when it is a model's own module or validator; undefined when none does.
 */
export function keyInOutput(
  files: ReadonlyMap<string, string>,
  key: string,
): { file: string; model: string | undefined } | undefined {
  const forms = keyForms(key);
  for (const [file, text] of files) {
    if (forms.some((f) => text.includes(f)))
      return { file, model: /^generated\/(?:models|validators)\/(.+)\.ts$/.exec(file)?.[1] };
  }
  return undefined;
}

/** `v`, or `dflt` when undefined. @throws RefreshError naming `name` when `v` is not an integer >= `min`. */
export function positiveInt(name: string, v: number | undefined, dflt: number, min = 1): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < min) throw new RefreshError(`${name} must be an integer >= ${min}, got ${v}`);
  return v;
}

/**
 * The command-line flags of every command that fetches model details (`npm run generate -- --refresh`
 * and the generator package's `add` / `refresh`), as `node:util` `parseArgs` options.
 */
export const FETCH_FLAGS = {
  'base-url': { type: 'string' },
  concurrency: { type: 'string' },
  'timeout-ms': { type: 'string' },
  retries: { type: 'string' },
} as const;

/** What `FETCH_FLAGS` give, as refresh options (absent when the flag was not given). */
export interface FetchFlagValues {
  baseUrl?: string;
  concurrency?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

/**
 * Reads `FETCH_FLAGS` from parsed arguments: `--concurrency` and `--timeout-ms` (milliseconds)
 * integers >= 1, `--retries` >= 0. Returns the options, or the problem as text (for the usage line).
 */
export function fetchFlagValues(values: Partial<Record<keyof typeof FETCH_FLAGS, string>>): FetchFlagValues | string {
  const out: FetchFlagValues = {};
  if (values['base-url'] !== undefined) out.baseUrl = values['base-url'];
  for (const [flag, key, min] of [
    ['concurrency', 'concurrency', 1],
    ['timeout-ms', 'timeoutMs', 1],
    ['retries', 'maxRetries', 0],
  ] as const) {
    const v = values[flag];
    if (v === undefined) continue;
    if (!/^\d+$/.test(v) || Number(v) < min) return `--${flag} needs an integer >= ${min}, got ${JSON.stringify(v)}`;
    out[key] = Number(v);
  }
  return out;
}
