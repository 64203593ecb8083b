/**
 * `oxen-inference-codegen models [--search <text>] [--json]`: the service's models catalog
 * (`GET /api/ai/models`, or `GET /api/ai/models/search?search=<text>`; the OpenAI-style list
 * `{ object: 'list', data: [...] }`), each model with its type, what it outputs, and whether the
 * user's snapshot (`<out>/specs/models.json`) already has it, so that a user can find what to `add`.
 *
 * Through the runtime client's `models` resource, as refresh fetches through the runtime client:
 * the same key handling, base URL check, retries and redaction. The service's text (ids, types)
 * is untrusted: the caller prints it with control characters shown (`showControls`), and the JSON
 * output carries each one as a `\uXXXX` escape. Items are read tolerantly (the catalog is open to
 * new fields): one without a string `id` is skipped and counted; a missing `model_type`,
 * `capabilities` or `endpoint` shows as `-`.
 */
import { Client } from '../../runtime/client.ts';
import { escapeControlsInCode } from '../escape.ts';
import { isObject } from '../order.ts';
import { checkBaseUrl, RefreshError } from '../refresh/checks.ts';
import { REFRESH_DEFAULTS } from '../refresh/fetch.ts';

/** Options of `listCatalog`. Times in milliseconds. */
export interface CatalogOptions {
  /** Service base URL; `http://` only to a loopback host. */
  baseUrl: string;
  /** Bearer API key (required). */
  apiKey: string;
  /** Search text (`GET /api/ai/models/search?search=`); absent: the whole list. */
  search?: string;
  /** The ids of the user's snapshot. */
  snapshotIds: ReadonlySet<string>;
  /** Time limit of the request, retries included (default 30_000). */
  timeoutMs?: number;
  /** Retries after a connection error, 429 or 5xx (default 3). */
  maxRetries?: number;
  /** The `fetch` used by the runtime client (default the global one). */
  fetch?: typeof fetch;
}

/** One model of the catalog, as the command shows it. */
export interface CatalogEntry {
  /** The model id (`model` of requests; a deployed fine-tune's `oxen:` slug). */
  id: string;
  /** `base`, `custom`, or what the service sends; null when absent. */
  model_type: string | null;
  /** The output modalities (`capabilities.output`), empty when absent. */
  output: string[];
  /** The endpoint it is served on (`/images/edit`), null when absent. */
  endpoint: string | null;
  /** Whether the user's snapshot already lists it. */
  in_snapshot: boolean;
}

/** The catalog as the command shows it. */
export interface Catalog {
  /** In the service's order. */
  models: CatalogEntry[];
  /** Items of the answer without a string `id` (not shown). */
  skipped: number;
}

/**
 * Fetch the catalog (or the search's answer) through the runtime client.
 * @throws RefreshError for a refused base URL or an empty key; the runtime's errors
 * (`AuthenticationError`, `InvalidResponseError` for a body without a `data` array, `TimeoutError`,
 * `ConnectionError`, ...) as they come, their messages redacted by the runtime.
 */
export async function listCatalog(options: CatalogOptions): Promise<Catalog> {
  const baseUrl = checkBaseUrl(options.baseUrl);
  if (!options.apiKey) throw new RefreshError('OXEN_API_KEY is not set: the catalog needs an API key');
  const client = new Client({
    apiKey: options.apiKey,
    baseUrl,
    timeoutMs: options.timeoutMs ?? REFRESH_DEFAULTS.timeoutMs,
    maxRetries: options.maxRetries ?? REFRESH_DEFAULTS.maxRetries,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const list = await (options.search === undefined ? client.models.list() : client.models.search(options.search));
  const models: CatalogEntry[] = [];
  let skipped = 0;
  for (const item of list.data as unknown[]) {
    if (!isObject(item) || typeof item['id'] !== 'string' || item['id'] === '') {
      skipped++;
      continue;
    }
    const caps = isObject(item['capabilities']) ? item['capabilities'] : {};
    models.push({
      id: item['id'],
      model_type: typeof item['model_type'] === 'string' ? item['model_type'] : null,
      output: Array.isArray(caps['output']) ? caps['output'].filter((o): o is string => typeof o === 'string') : [],
      endpoint: typeof item['endpoint'] === 'string' ? item['endpoint'] : null,
      in_snapshot: options.snapshotIds.has(item['id']),
    });
  }
  return { models, skipped };
}

/** Most characters of a column before it is cut with `…` (an id is never cut). */
const MAX_CELL = 40;

/**
 * The catalog as text: a header line, then one line per model (id, type, output, whether the
 * snapshot has it), columns padded; or, with `json`, `{ object: 'list', data: CatalogEntry[], skipped }`
 * with every control character as a `\uXXXX` escape. Ends without a newline.
 */
export function renderCatalog(catalog: Catalog, options: { json: boolean; heading: string }): string {
  if (options.json)
    return escapeControlsInCode(
      JSON.stringify({ object: 'list', data: catalog.models, skipped: catalog.skipped }, null, 2),
    );
  const cut = (s: string) => (s.length > MAX_CELL ? `${s.slice(0, MAX_CELL - 1)}…` : s);
  const rows = catalog.models.map((m) => [
    m.id,
    cut(m.model_type ?? '-'),
    cut(m.output.length > 0 ? m.output.join(',') : (m.endpoint ?? '-')),
    m.in_snapshot ? 'yes' : 'no',
  ]);
  const head = ['ID', 'TYPE', 'OUTPUT', 'IN SNAPSHOT'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const skipped =
    catalog.skipped > 0 ? ` (${catalog.skipped} item${catalog.skipped === 1 ? '' : 's'} without an id not shown)` : '';
  return [`${options.heading}${skipped}`, ...(rows.length > 0 ? [line(head), ...rows.map(line)] : [])].join('\n');
}
