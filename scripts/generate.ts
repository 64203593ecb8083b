/**
 * `npm run generate`: generate `generated/` from `specs/` (offline).
 *   --check        write nothing; exit 1 listing every file that would change (runtime/operations.ts
 *                  and the endpoint-doc regions of the runtime included)
 *   --specs DIR    read another specs directory (default specs/)
 *   --out DIR      write generated/ under another root (default the repository); a generated/ there that is
 *                  not empty and holds no manifest.json of the generator is refused
 *   --force        write into such a generated/ anyway
 * Refreshing the snapshot from the service (see docs/drift.md), all or nothing:
 *   --refresh          re-fetch every model of models.json (needs OXEN_API_KEY), then regenerate
 *   --add ID           add ID to models.json and fetch it (repeatable; needs OXEN_API_KEY)
 *   --remove ID        remove ID from models.json and delete its snapshot file (repeatable)
 *   --base-url URL     service base URL (default env OXEN_BASE_URL, then https://hub.oxen.ai)
 *   --concurrency N    requests in flight (default 8)
 *   --timeout-ms N     time limit of one model's fetch, retries included (default 30000)
 *   --retries N        retries of one model's fetch on connection errors, 429, 5xx (default 3)
 * Exit codes: 0 done (or nothing to change), 1 `--check` found differences, 2 bad input or failure.
 * Everything printed shows control characters as `<U+XXXX>` (`showControls`): text from the service
 * or a model cannot drive the terminal.
 */
import { parseArgs } from 'node:util';
import { SpecError } from '../generator/errors.ts';
import { showControls } from '../generator/escape.ts';
import { FETCH_FLAGS, fetchFlagValues, type FetchFlagValues } from '../generator/refresh/checks.ts';

let parsed;
try {
  parsed = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      specs: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      refresh: { type: 'boolean', default: false },
      add: { type: 'string', multiple: true, default: [] },
      remove: { type: 'string', multiple: true, default: [] },
      ...FETCH_FLAGS,
    },
    strict: true,
  });
} catch (err) {
  console.error(`generate: ${(err as Error).message}`);
  process.exit(2);
}
const { values } = parsed;

const fetchFlags = fetchFlagValues(values);
if (typeof fetchFlags === 'string') {
  console.error(`generate: ${fetchFlags}`);
  process.exit(2);
}
const fetchOptions: FetchFlagValues = fetchFlags;
const refreshing = values.refresh || values.add.length > 0 || values.remove.length > 0;
const refreshOnly = (['base-url', 'concurrency', 'timeout-ms', 'retries'] as const).filter(
  (f) => values[f] !== undefined,
);
if (refreshing && values.check) {
  console.error('generate: --check cannot be combined with --refresh, --add or --remove');
  process.exit(2);
}
if (!refreshing && refreshOnly.length > 0) {
  console.error(`generate: --${refreshOnly[0]} applies only with --refresh, --add or --remove`);
  process.exit(2);
}

if (refreshing) {
  await runRefresh();
} else {
  try {
    const started = performance.now();
    // Imported here: loading the generator takes seconds, and --refresh loads it only once its fetches succeeded.
    const { generate } = await import('../generator/index.ts');
    const r = await generate({
      check: values.check,
      force: values.force,
      ...(values.specs ? { specsDir: values.specs } : {}),
      ...(values.out ? { outRoot: values.out } : {}),
    });
    for (const n of r.notes) console.log(showControls(`note: ${n.model}: ${n.message}`));
    // The runtime's operations table and the endpoint docs in its marked regions come from the same
    // generator; only this repository has them.
    const [{ syncRuntimeDocs }, { syncRuntimeFiles }, { REPO_ROOT }] = await Promise.all([
      import('../generator/output/runtime-docs.ts'),
      import('../generator/output/runtime-operations.ts'),
      import('../generator/paths.ts'),
    ]);
    const own = !values.specs && !values.out;
    const operations = own ? await syncRuntimeFiles(REPO_ROOT, r.runtimeFiles, values.check) : [];
    const docs = own ? await syncRuntimeDocs(REPO_ROOT, values.check, r.operations) : [];
    const diff = [
      ...r.added.map((f) => `  added    ${f}`),
      ...r.changed.map((f) => `  changed  ${f}`),
      ...r.removed.map((f) => `  removed  ${f}`),
      ...operations.map((f) => `  changed  ${f} (the operations table)`),
      ...docs.map((f) => `  changed  ${f} (endpoint-doc regions)`),
    ];
    const ms = Math.round(performance.now() - started);
    if (values.check) {
      if (diff.length > 0) {
        console.error(
          `generate --check: ${diff.length} file(s) would change; run \`npm run generate\` and commit the result:\n${diff.join('\n')}`,
        );
        process.exitCode = 1;
      } else
        console.log(`generate --check: generated/ is up to date (${r.files.size} files, ${r.models} models, ${ms} ms)`);
    } else {
      console.log(
        `generated ${r.models} models: ${r.added.length} added, ${r.changed.length} changed, ${r.removed.length} removed, ${r.unchanged} unchanged; ${r.rebuilt.length} of ${r.files.size - 1} files rebuilt, the rest reused (inputs unchanged) (${ms} ms)`,
      );
      if (diff.length > 0) console.log(diff.join('\n'));
    }
  } catch (err) {
    console.error(
      showControls(
        `generate failed, nothing was written: ${err instanceof SpecError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      ),
    );
    process.exitCode = 2;
  }
}

/**
 * `--refresh` / `--add` / `--remove`: exit 0 on success (whatever drifted, a model the service no
 * longer serves included: kept, and reported as breaking), 2 on any failure.
 */
async function runRefresh(): Promise<void> {
  // Loaded only here: a plain run needs neither the fetch machinery nor the runtime client.
  const [{ refresh, RefreshError, redactor }, { renderText }] = await Promise.all([
    import('../generator/refresh/index.ts'),
    import('../generator/drift/index.ts'),
  ]);
  const key = process.env['OXEN_API_KEY'] ?? '';
  const redact = redactor(key);
  try {
    const r = await refresh({
      all: values.refresh,
      add: values.add,
      remove: values.remove,
      force: values.force,
      ...(values.specs ? { specsDir: values.specs } : {}),
      ...(values.out ? { outRoot: values.out } : {}),
      ...fetchOptions,
    });
    const g = r.generate;
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const lines = [
      `refreshed: ${r.fetched.length} fetched${r.baseUrl ? ` from ${r.baseUrl}` : ''}${r.added.length ? `, added ${r.added.join(', ')}` : ''}${r.removed.length ? `, removed ${r.removed.join(', ')}` : ''}; ` +
        `${r.written.length} snapshot file(s) written, ${r.deleted.length} deleted (fetch ${s(r.timings.fetchMs)}, total ${s(r.timings.totalMs)})`,
      ...r.written.map((f) => `  wrote    ${f}`),
      ...r.deleted.map((f) => `  deleted  ${f}`),
      ...(r.notServed.length > 0
        ? [
            `no longer served (HTTP 404), kept in the snapshot until removed: ${r.notServed.join(', ')} (npm run generate -- ${r.notServed.map((id) => `--remove ${id}`).join(' ')})`,
          ]
        : []),
      `generated ${g.models} models: ${g.added.length} added, ${g.changed.length} changed, ${g.removed.length} removed, ${g.unchanged} unchanged`,
      '',
      renderText(r.report),
    ];
    process.stdout.write(showControls(redact.text(lines.join('\n'))));
  } catch (err) {
    const message =
      err instanceof RefreshError
        ? err.message
        : err instanceof SpecError
          ? `refresh failed, nothing was written: ${err.message}`
          : `refresh failed, nothing was written: ${err instanceof Error ? err.message : String(err)}`;
    console.error(showControls(redact.text(message)));
    process.exitCode = 2;
  }
}
