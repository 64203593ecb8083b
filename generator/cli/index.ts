/**
 * `oxen-inference-codegen`: types, endpoint functions and compiled validators for any model, in the
 * user's own project (the bin of the generator package; `dist/cli.js` is this file bundled).
 *
 *   oxen-inference-codegen add <id>...            fetch each model's details and generate (needs OXEN_API_KEY)
 *   oxen-inference-codegen add --from <file.json> add a saved model-details object (offline; repeatable)
 *   oxen-inference-codegen remove <id>...         remove models from the snapshot and generate
 *   oxen-inference-codegen generate [--check]     generate from the snapshot (offline); --check writes nothing
 *   oxen-inference-codegen refresh                re-fetch every model, all or nothing, and print the drift report;
 *                                                 --report FILE also writes it (.md Markdown, .json JSON, else text)
 *   oxen-inference-codegen models [--search TEXT] list (or search) the service's catalog, marking what the
 *                                                 snapshot has (needs OXEN_API_KEY); --json for machine output
 *   oxen-inference-codegen serve                  the local stand-in for the service, with the package's models and the
 *                                                 snapshot's, on 127.0.0.1 until stopped (`serve.ts`; its options
 *                                                 in `fake-service/cli.ts`, and --api-key KEY: accept only that key)
 *
 *   --out DIR          the snapshot and the generated code (default oxen-models); a folder that is not
 *                      empty and holds no manifest.json of this generator is refused
 *   --force            write into such a folder anyway (replacing its models/, validators/, index.ts)
 *   --format           format the generated files with prettier and the project's own prettier
 *                      configuration (kept by later commands; --no-format ends it)
 *   --base-url URL     default env OXEN_BASE_URL, then https://hub.oxen.ai (http only to loopback)
 *   --concurrency N    requests in flight (default 8)
 *   --timeout-ms N     one model's fetch, retries included (default 30000)
 *   --retries N        retries on connection errors, 429, 5xx (default 3)
 *
 * Exit codes: 0 done, nothing changed; 1 compatible changes only (`generate --check`: files differ); 2
 * something breaks (a model the service no longer serves included); 3 failed, nothing written (a usage
 * error included).
 * `add` and `remove` exit 0 when done; `refresh` by its drift report (a model the service no longer
 * serves is kept until removed, the others refreshed); `models` writes nothing in any case; `serve`
 * exits 0 when stopped, 3 when it could not start or closing failed.
 *
 * The API key goes only into the `Authorization` header: everything printed is redacted, and
 * shows control characters as `<U+XXXX>` (text from the service or a model cannot drive the terminal).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SpecError } from '../errors.ts';
import { REPORT_FLAG, reportFilesProblem, runGenerate, runSnapshotChange, type CommandTarget } from './commands.ts';
import { EXIT, EXIT_CODES_TEXT } from './exit-codes.ts';
import { showControls } from '../escape.ts';
import type { GenerateResult } from '../index.ts';
import { loadTsMorph } from '../libraries.ts';
import { REPO_ROOT } from '../paths.ts';
import {
  DEFAULT_REFRESH_BASE_URL,
  FETCH_FLAGS,
  fetchFlagValues,
  redactor,
  REFRESH_DEFAULTS,
  type FetchFlagValues,
} from '../refresh/checks.ts';
import { CODEGEN_PACKAGE, userTarget } from '../output/target.ts';
import { readManifestSettings } from '../output/manifest.ts';
import type { HeldLock } from '../output/tree-commit.ts';
import { SERVER_FLAGS, SERVER_FLAGS_HELP, serverFlagValues } from '../../fake-service/cli.ts';

/** How the user's snapshot is named inside `<out>` (as `user-snapshot.ts` names it). */
const USER_SPECS = 'specs';

/** The default output directory. */
export const DEFAULT_OUT = 'oxen-models';

const USAGE = `usage: ${CODEGEN_PACKAGE} <add|remove|generate|refresh|models|serve> [ids...] [--out DIR] [--from FILE] [--check]
  add <id>...             fetch each model's details (OXEN_API_KEY) and generate
  add --from <file.json>  add a saved model-details object, offline
  remove <id>...          remove models and generate
  generate [--check]      generate from the snapshot, offline; --check writes nothing, exit 1 if a file differs
  refresh                 re-fetch every model and print the drift report; --report FILE also writes it to FILE
                          (.md Markdown, .json JSON, else text; repeatable)
  models [--search TEXT]  list or search the service's catalog (OXEN_API_KEY): id, type, output, in the snapshot;
                          --json for machine output
  serve                   the local stand-in for the service on 127.0.0.1, for your tests: this package's models and
                          yours (--out); prints \`listening on http://127.0.0.1:N\`, runs until Ctrl-C. Its options:
    --api-key KEY        accept only this key (default: any key)
${SERVER_FLAGS_HELP.replace(/^/gm, '  ')}
options: --out DIR (default ${DEFAULT_OUT}; a non-empty folder without this generator's manifest.json is refused
  unless --force), --format | --no-format (prettier with this project's configuration; kept until changed),
  --base-url URL, --concurrency N (default ${REFRESH_DEFAULTS.concurrency}), --timeout-ms N (one model, retries included;
  default ${REFRESH_DEFAULTS.timeoutMs}), --retries N (default ${REFRESH_DEFAULTS.maxRetries})
${EXIT_CODES_TEXT}`;

/** This package's version (from its package.json: the installed package, or generator/ in the repository). */
function version(): string {
  for (const file of [path.join(REPO_ROOT, '..', 'package.json'), path.join(REPO_ROOT, 'generator', 'package.json')]) {
    try {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === CODEGEN_PACKAGE && pkg.version) return pkg.version;
    } catch {
      /* not this one */
    }
  }
  return '0.0.0';
}

/**
 * The prettier options for files in `outDir` as the project configures them (prettier's own
 * search: `.prettierrc*`, `prettier.config.*`, `package.json`, `.editorconfig`), prettier's
 * defaults where it configures nothing. The configuration's plugins are left out: they are the
 * project's, and the generated code needs none. The parser is chosen by each file's extension.
 * @throws Error when the configuration cannot be read.
 */
async function projectPrettierConfig(outDir: string): Promise<{ prettier: Record<string, unknown> }> {
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(path.join(outDir, 'index.ts'), { editorconfig: true })) ?? {};
  const { plugins: _plugins, parser: _parser, filepath: _filepath, ...rest } = config;
  return { prettier: rest };
}

/** Load TypeScript (ts-morph) now; a failure is left to the stage that needs it, which reports it. */
function preloadTypeScript(): void {
  try {
    loadTsMorph();
  } catch {
    // reported by the emit stage
  }
}

/**
 * `models`: the catalog, each model marked when `<out>/specs/models.json` lists it. Writes nothing.
 * @returns 0, or 2 when the catalog could not be read (the reason printed, redacted).
 */
async function runModels(
  o: { outDir: string; outLabel: string; search: string | undefined; json: boolean } & FetchFlagValues,
  out: (s: string) => void,
  err: (s: string) => void,
): Promise<number> {
  const fail = (reason: string) => {
    err(`${CODEGEN_PACKAGE} models failed: ${reason}`);
    return EXIT.failed;
  };
  const listFile = path.join(o.outDir, USER_SPECS, 'models.json');
  let snapshotIds = new Set<string>();
  if (existsSync(listFile)) {
    let ids: unknown;
    try {
      ids = JSON.parse(readFileSync(listFile, 'utf8'));
    } catch (e) {
      return fail(`cannot read ${o.outLabel}/${USER_SPECS}/models.json: ${(e as Error).message}`);
    }
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string'))
      return fail(`${o.outLabel}/${USER_SPECS}/models.json is not a JSON array of model ids`);
    snapshotIds = new Set(ids);
  }
  const baseUrl = o.baseUrl ?? (process.env['OXEN_BASE_URL'] || DEFAULT_REFRESH_BASE_URL);
  try {
    const { listCatalog, renderCatalog } = await import('./models.ts');
    const catalog = await listCatalog({
      baseUrl,
      apiKey: process.env['OXEN_API_KEY'] ?? '',
      snapshotIds,
      ...(o.search !== undefined ? { search: o.search } : {}),
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      ...(o.maxRetries !== undefined ? { maxRetries: o.maxRetries } : {}),
    });
    const n = catalog.models.length;
    const heading = `${n} model${n === 1 ? '' : 's'} ${o.search === undefined ? 'listed' : `found for ${JSON.stringify(o.search)}`} by ${baseUrl}; IN SNAPSHOT: in ${o.outLabel}/${USER_SPECS}/models.json (\`${CODEGEN_PACKAGE} add <id>\` adds one)`;
    out(renderCatalog(catalog, { json: o.json, heading }));
    return 0;
  } catch (e) {
    return fail(e instanceof Error ? `${e.message}` : String(e));
  }
}

/** Runs the CLI with `argv` (without node and the script). @returns the exit code. */
export async function main(
  argv: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream & { isTTY?: boolean } } = process,
): Promise<number> {
  // serve's --api-key too (read before parsing: a usage error may quote the arguments)
  const apiKeys = argv.flatMap((a, i) =>
    a === '--api-key' ? [argv[i + 1] ?? ''] : a.startsWith('--api-key=') ? [a.slice('--api-key='.length)] : [],
  );
  const redact = redactor(process.env['OXEN_API_KEY'] ?? '', ...apiKeys);
  const out = (s: string) => void io.stdout.write(`${showControls(redact.text(s))}\n`);
  const err = (s: string) => void io.stderr.write(`${showControls(redact.text(s))}\n`);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string', default: DEFAULT_OUT },
        from: { type: 'string', multiple: true, default: [] },
        check: { type: 'boolean', default: false },
        format: { type: 'boolean', default: false },
        'no-format': { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        search: { type: 'string' },
        json: { type: 'boolean', default: false },
        ...REPORT_FLAG,
        ...FETCH_FLAGS,
        ...SERVER_FLAGS,
        'api-key': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
  } catch (e) {
    err(`${CODEGEN_PACKAGE}: ${(e as Error).message}\n${USAGE}`);
    return EXIT.failed;
  }
  const { values, positionals } = parsed;
  const [command, ...ids] = positionals;
  if (values.help || command === undefined) {
    (values.help ? out : err)(USAGE);
    return values.help ? EXIT.ok : EXIT.failed;
  }
  const usage = (problem: string) => {
    err(`${CODEGEN_PACKAGE} ${command}: ${problem}\n${USAGE}`);
    return EXIT.failed;
  };
  if (!['add', 'remove', 'generate', 'refresh', 'models', 'serve'].includes(command))
    return usage(`unknown command ${JSON.stringify(command)}`);
  if ((values.search !== undefined || values.json) && command !== 'models')
    return usage(`--${values.json ? 'json' : 'search'} applies only to models`);
  const outDir = path.resolve(values.out);
  const outLabel = path.relative(process.cwd(), outDir).split(path.sep).join('/') || '.';
  const serveFlags = [...Object.keys(SERVER_FLAGS), 'api-key'].filter(
    (f) => values[f as keyof typeof values] !== undefined,
  );
  if (command !== 'serve' && serveFlags.length > 0) return usage(`--${serveFlags[0]} applies only to serve`);
  if (command === 'serve') {
    const other = [
      ...(values.from.length > 0 ? ['from'] : []),
      ...(values.report.length > 0 ? ['report'] : []),
      ...(['check', 'format', 'no-format', 'force'] as const).filter((f) => values[f]),
      ...Object.keys(FETCH_FLAGS).filter((f) => values[f as keyof typeof FETCH_FLAGS] !== undefined),
    ];
    if (other.length > 0) return usage(`--${other[0]} does not apply to serve`);
    if (ids.length > 0) return usage(`takes no model ids (got ${ids.join(' ')})`);
    const server = serverFlagValues(values);
    if (typeof server === 'string') return usage(server);
    if (values['api-key'] === '') return usage('--api-key needs a key');
    const { serve } = await import('./serve.ts');
    return serve(
      {
        out: outDir,
        outLabel,
        apiKey: values['api-key'],
        server,
      },
      io,
      err,
    );
  }
  if (values.check && command !== 'generate') return usage('--check applies only to generate');
  if (values.report.length > 0 && command !== 'refresh') return usage('--report applies only to refresh');
  const reportProblem = reportFilesProblem(values.report);
  if (reportProblem) return usage(reportProblem);
  if (values.from.length > 0 && command !== 'add') return usage('--from applies only to add');
  if (command === 'add' && ids.length === 0 && values.from.length === 0)
    return usage('give model ids or --from <file.json>');
  if (command === 'remove' && ids.length === 0) return usage('give the model ids to remove');
  if ((command === 'generate' || command === 'refresh' || command === 'models') && ids.length > 0)
    return usage(`takes no model ids (got ${ids.join(' ')})`);
  if (values.format && values['no-format']) return usage('give --format or --no-format, not both');
  const fetchOptions = fetchFlagValues(values);
  if (typeof fetchOptions === 'string') return usage(fetchOptions);

  if (command === 'models') {
    if (values.search !== undefined && values.search.trim() === '') return usage('--search needs some text');
    if (fetchOptions.concurrency !== undefined) return usage('--concurrency does not apply to models');
    return runModels({ outDir, outLabel, search: values.search, json: values.json, ...fetchOptions }, out, err);
  }
  const formatted =
    values.format ||
    (!values['no-format'] && (await readManifestSettings(path.join(outDir, 'manifest.json'))).format === true);
  let format: { prettier: Record<string, unknown> } | null = null;
  if (formatted) {
    try {
      format = await projectPrettierConfig(outDir);
    } catch (e) {
      err(
        `${CODEGEN_PACKAGE} ${command} failed, nothing was written: cannot read the project's prettier configuration: ${(e as Error).message}`,
      );
      return EXIT.failed;
    }
  }
  const outputTarget = userTarget(version(), format);
  // the generator package's description: pre-parsed JSON where the build made it (scripts/build-codegen.mjs), else the
  // YAML
  const json = path.join(REPO_ROOT, 'specs', 'openapi.json');
  const openapi = {
    file: existsSync(json) ? json : path.join(REPO_ROOT, 'specs', 'openapi.yaml'),
    label: `${CODEGEN_PACKAGE}/specs/openapi.yaml`,
  };
  // Loaded only here (the bin is split per module, scripts/build-codegen.mjs): --help, usage errors, models and
  // serve start without the generator's stages and their libraries.
  const { generate } = await import('../index.ts');
  // add and refresh fetch before they generate: prettier (when formatting) loads meanwhile
  const jobs =
    command === 'add' || command === 'refresh'
      ? new (await import('../stages/job-queue.ts')).JobQueue(REPO_ROOT, { preloadPrettier: formatted })
      : undefined;
  const gen = (o: { specsDir: string; check: boolean; reuse?: boolean; lock?: HeldLock }): Promise<GenerateResult> =>
    generate({
      specsDir: o.specsDir,
      outRoot: outDir,
      check: o.check,
      ...(o.reuse !== undefined ? { reuse: o.reuse } : {}),
      ...(o.lock ? { lock: o.lock } : {}),
      force: values.force,
      label: USER_SPECS,
      target: outputTarget,
      openapi,
      ...(jobs ? { jobs } : {}),
    });
  const target: CommandTarget = {
    tool: CODEGEN_PACKAGE,
    outPrefix: `${outLabel}/`,
    into: outLabel,
    specsPrefix: `${outLabel}/${USER_SPECS}/`,
    rerun: `${CODEGEN_PACKAGE} generate --out ${outLabel}`,
    removeCommand: (ids) =>
      `${CODEGEN_PACKAGE} remove ${ids.join(' ')}${values.out === DEFAULT_OUT ? '' : ` --out ${outLabel}`}`,
    // A SpecError about the snapshot names its file relative to <out>: say where <out> is.
    describe: (e) =>
      e instanceof SpecError && e.file.startsWith(`${USER_SPECS}/`)
        ? `${outLabel}/${e.message}`
        : e instanceof Error
          ? e.message
          : String(e),
  };

  if (command === 'generate')
    return runGenerate(
      target,
      values.check,
      async () => ({ result: await gen({ specsDir: path.join(outDir, USER_SPECS), check: values.check }) }),
      { out, err },
    );

  jobs?.start();
  try {
    return await runSnapshotChange(
      target,
      {
        command,
        refresh: command === 'refresh',
        reports: values.report,
        redact: (text) => redact.text(text),
        run: async () => {
          // Loaded only here: `generate` needs no fetch machinery (the runtime client, p-limit, cli-progress).
          const { updateSnapshot } = await import('./user-snapshot.ts');
          return updateSnapshot({
            out: outDir,
            outLabel,
            target: outputTarget,
            force: values.force,
            log: err,
            add: command === 'add' || command === 'refresh' ? ids : [],
            from: values.from,
            remove: command === 'remove' ? ids : [],
            all: command === 'refresh',
            stream: io.stderr,
            progressLabel: command,
            generate: gen,
            // new models are typed and printed next: TypeScript loads while the other model details are in flight
            ...(command === 'add' ? { whileInFlight: preloadTypeScript } : {}),
            ...fetchOptions,
          });
        },
      },
      { out, err },
    );
  } finally {
    await jobs?.close();
  }
}
