/**
 * `npm run generate`: generate `generated/` from `specs/` (offline). The commands are those of
 * `oxen-inference-codegen` (`generator/cli/commands.ts`) with this repository as their target; this
 * file reads the arguments.
 *   --check        write nothing; exit 1 listing every file that would change (runtime/operations.ts
 *                  and the endpoint-doc regions of the runtime included)
 *   --specs DIR    read another specs directory (default specs/)
 *   --out DIR      write generated/ under another root (default the repository); a generated/ there that is
 *                  not empty and holds no manifest.json of the generator is refused
 *   --force        write into such a generated/ anyway
 * Refreshing the snapshot from the service (see docs/drift.md), all or nothing:
 *   --refresh          re-fetch every model of models.json (needs OXEN_API_KEY), then regenerate; the exit
 *                      code follows the drift report
 *   --add ID           add ID to models.json and fetch it (repeatable; needs OXEN_API_KEY)
 *   --remove ID        remove ID from models.json and delete its snapshot file (repeatable)
 *   --report FILE      also write the drift report to FILE: `.md` Markdown, `.json` JSON, else text (repeatable)
 *   --base-url URL     service base URL (default env OXEN_BASE_URL, then https://hub.oxen.ai)
 *   --concurrency N    requests in flight (default 8)
 *   --timeout-ms N     time limit of one model's fetch, retries included (default 30000)
 *   --retries N        retries of one model's fetch on connection errors, 429, 5xx (default 3)
 * Exit codes: 0 done, nothing changed; 1 compatible changes only (`generate --check`: files differ); 2
 * something breaks (a model the service no longer serves included); 3 failed, nothing written (a usage
 * error included).
 * Everything printed shows control characters as `<U+XXXX>` (`showControls`): text from the service
 * or a model cannot drive the terminal.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  REPORT_FLAG,
  reportFilesProblem,
  runGenerate,
  runSnapshotChange,
  type CommandTarget,
} from '../generator/cli/commands.ts';
import { EXIT } from '../generator/cli/exit-codes.ts';
import { SpecError } from '../generator/errors.ts';
import { showControls } from '../generator/escape.ts';
import { REPO_ROOT, specsLabel } from '../generator/paths.ts';
import { FETCH_FLAGS, fetchFlagValues, redactor } from '../generator/refresh/checks.ts';

const redact = redactor(process.env['OXEN_API_KEY'] ?? '');
const io = {
  out: (line: string) => void process.stdout.write(`${showControls(redact.text(line))}\n`),
  err: (line: string) => void process.stderr.write(`${showControls(redact.text(line))}\n`),
};

process.exitCode = await (async () => {
  const usage = (problem: string) => {
    io.err(`generate: ${problem}`);
    return EXIT.failed;
  };
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
        ...REPORT_FLAG,
        ...FETCH_FLAGS,
      },
      strict: true,
    });
  } catch (e) {
    return usage((e as Error).message);
  }
  const { values } = parsed;
  const fetchOptions = fetchFlagValues(values);
  if (typeof fetchOptions === 'string') return usage(fetchOptions);
  const refreshing = values.refresh || values.add.length > 0 || values.remove.length > 0;
  const refreshOnly = [...(['base-url', 'concurrency', 'timeout-ms', 'retries'] as const), 'report' as const].filter(
    (f) => (f === 'report' ? values.report.length > 0 : values[f] !== undefined),
  );
  if (refreshing && values.check) return usage('--check cannot be combined with --refresh, --add or --remove');
  if (!refreshing && refreshOnly.length > 0)
    return usage(`--${refreshOnly[0]} applies only with --refresh, --add or --remove`);
  const reportProblem = reportFilesProblem(values.report);
  if (reportProblem) return usage(reportProblem);

  const specsDir = path.resolve(values.specs ?? path.join(REPO_ROOT, 'specs'));
  const target: CommandTarget = {
    tool: '',
    outPrefix: '',
    into: 'generated/',
    specsPrefix: `${specsLabel(specsDir)}/`,
    rerun: 'npm run generate',
    removeCommand: (ids) => `npm run generate -- ${ids.map((id) => `--remove ${id}`).join(' ')}`,
    // a SpecError names file, model and pointer; anything else is the generator's own fault: its stack
    describe: (e) => (e instanceof SpecError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)),
  };
  const paths = { ...(values.specs ? { specsDir: values.specs } : {}), ...(values.out ? { outRoot: values.out } : {}) };

  if (refreshing) {
    // Loaded only here: a plain run needs no fetch machinery.
    const { refresh } = await import('../generator/refresh/index.ts');
    return runSnapshotChange(
      target,
      {
        command: values.refresh ? 'refresh' : values.add.length > 0 ? 'add' : 'remove',
        refresh: values.refresh,
        reports: values.report,
        redact: (text) => redact.text(text),
        run: () =>
          refresh({
            all: values.refresh,
            add: values.add,
            remove: values.remove,
            force: values.force,
            ...paths,
            ...fetchOptions,
          }),
      },
      io,
    );
  }
  return runGenerate(
    target,
    values.check,
    async () => {
      // Imported here: loading the generator takes seconds.
      const [{ generate }, { syncRuntimeDocs }] = await Promise.all([
        import('../generator/index.ts'),
        import('../generator/output/runtime-docs.ts'),
      ]);
      // Written into this repository, the run also produces the runtime's operations table
      // (`GenerateOptions.runtime`); from its own specs, the endpoint docs in the runtime's marked regions.
      const result = await generate({ check: values.check, force: values.force, ...paths });
      const own = !values.specs && !values.out;
      const docs = own ? await syncRuntimeDocs(REPO_ROOT, values.check, result.operations) : [];
      return { result, extra: docs.map((f) => `  changed  ${f} (endpoint-doc regions)`) };
    },
    io,
  );
})();
