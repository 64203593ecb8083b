/**
 * `npm run drift`: the schema drift report (see docs/drift.md). Writes nothing.
 *
 *   npm run drift                              committed snapshot (specs/) vs a fresh fetch of the same ids (needs OXEN_API_KEY)
 *   npm run drift -- OLD_SPECS NEW_SPECS       two snapshot directories (each holding models.json and models/)
 *
 *   --format text|markdown|json   output on stdout (default text)
 *   --specs DIR                   the committed snapshot of the fetch mode (default specs/)
 *   --base-url URL                fetch mode: default env OXEN_BASE_URL, then https://hub.oxen.ai
 *   --concurrency N, --timeout-ms N, --retries N   fetch mode, as `npm run generate -- --refresh`
 *
 * Exit codes: 0 nothing changed, 1 compatible changes only, 2 something breaks, 3 the report could
 * not be made (bad arguments, unreadable snapshot, a model that failed to fetch).
 * Control characters from the service or a model are never printed raw: `<U+XXXX>` in text and
 * Markdown, `\uXXXX` escapes in JSON.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  diffSnapshots,
  driftExitCode,
  driftReport,
  readSnapshot,
  renderMarkdown,
  renderText,
  type DriftReport,
} from '../generator/drift/index.ts';
import { SpecError } from '../generator/errors.ts';
import { escapeControlsInCode, showControls } from '../generator/escape.ts';
import {
  checkBaseUrl,
  DEFAULT_REFRESH_BASE_URL,
  fetchModels,
  redactor,
  RefreshError,
} from '../generator/refresh/index.ts';
import { REPO_ROOT, specsLabel } from '../generator/paths.ts';

const FAILURE = 3;
const key = process.env['OXEN_API_KEY'] ?? '';
const redact = redactor(key);

function fail(message: string): never {
  process.stderr.write(`${showControls(redact.text(message))}\n`);
  process.exit(FAILURE);
}

function intFlag(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min)
    fail(`drift: --${name} needs an integer >= ${min}, got ${JSON.stringify(v)}`);
  return Number(v);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      specs: { type: 'string' },
      'base-url': { type: 'string' },
      concurrency: { type: 'string' },
      'timeout-ms': { type: 'string' },
      retries: { type: 'string' },
    },
    strict: true,
  });
} catch (err) {
  fail(
    `drift: ${(err as Error).message}\nusage: npm run drift -- [OLD_SPECS NEW_SPECS] [--format text|markdown|json] [--specs DIR] [--base-url URL]`,
  );
}
const { values, positionals } = parsed;
const format = values.format;
if (format !== 'text' && format !== 'markdown' && format !== 'json')
  fail(`drift: --format must be text, markdown or json, got ${JSON.stringify(format)}`);
if (positionals.length !== 0 && positionals.length !== 2)
  fail('drift: give two snapshot directories (OLD_SPECS NEW_SPECS), or none to compare specs/ with a fresh fetch');
if (positionals.length === 2 && (values['base-url'] || values.specs))
  fail('drift: --specs and --base-url apply only without directory arguments (fetch mode)');

let report: DriftReport;
try {
  if (positionals.length === 2) {
    report = await driftReport(positionals[0]!, positionals[1]!);
  } else {
    const specsDir = path.resolve(values.specs ?? path.join(REPO_ROOT, 'specs'));
    const label = specsLabel(specsDir);
    const committed = await readSnapshot(specsDir, label);
    if (!key)
      fail(
        'drift: OXEN_API_KEY is not set: comparing with a fresh fetch needs an API key (or give two snapshot directories)',
      );
    const baseUrl = checkBaseUrl(values['base-url'] ?? (process.env['OXEN_BASE_URL'] || DEFAULT_REFRESH_BASE_URL));
    const concurrency = intFlag('concurrency', values.concurrency, 1);
    const timeoutMs = intFlag('timeout-ms', values['timeout-ms'], 1);
    const maxRetries = intFlag('retries', values.retries, 0);
    process.stderr.write(`drift: fetching ${committed.ids.length} models from ${baseUrl}\n`);
    const r = await fetchModels(committed.ids, {
      baseUrl,
      apiKey: key,
      fileLabel: (id) => `${baseUrl}/api/ai/models/${id}`,
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(maxRetries !== undefined ? { maxRetries } : {}),
    });
    if (r.failures.length > 0)
      fail(
        `drift: no report: ${r.failures.length} of ${committed.ids.length} models failed:\n${r.failures.map((f) => `  ${f.id}  ${f.reason}`).join('\n')}`,
      );
    const fresh = new Map([...r.models].map(([id, m]) => [id, m.raw]));
    report = diffSnapshots(committed, { label: baseUrl, ids: committed.ids, models: fresh });
  }
} catch (err) {
  if (err instanceof SpecError || err instanceof RefreshError) fail(`drift: no report: ${err.message}`);
  fail(`drift: no report: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}

const out =
  format === 'json'
    ? escapeControlsInCode(`${JSON.stringify(report, null, 2)}\n`)
    : showControls(format === 'markdown' ? renderMarkdown(report) : renderText(report));
process.stdout.write(redact.text(out));
process.exitCode = driftExitCode(report);
