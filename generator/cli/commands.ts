/**
 * The commands, once: `generate` (and `--check`), the snapshot changes (`add`, `remove`, `refresh`)
 * and the drift report, for both targets. `oxen-inference-codegen` (`index.ts`: a user's `<out>`) and
 * this repository's `npm run generate` / `npm run drift` (`scripts/`: `generated/` and `specs/`) parse
 * their own arguments, then run these with a `CommandTarget` saying how that target's output and
 * snapshot are named. Each prints what happened and returns its code from the one table
 * (`exit-codes.ts`).
 *
 * Printing goes through `CommandIo`, whose lines the caller redacts (the API key) and shows with
 * control characters as `<U+XXXX>` (`showControls`): text from the service or a model cannot drive
 * the terminal. The drift report and the fetch machinery are loaded only by the commands that use
 * them: a plain `generate` starts without them.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DriftReport } from '../drift/index.ts';
import { SpecError } from '../errors.ts';
import { escapeControlsInCode, showControls } from '../escape.ts';
import type { GenerateResult } from '../index.ts';
import type { FetchFlagValues } from '../refresh/checks.ts';
import type { RefreshResult } from '../refresh/index.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';

/** Where a command's lines go; each line is printed as given (the caller redacts and escapes). */
export interface CommandIo {
  /** A line of the result (stdout). */
  out: (line: string) => void;
  /** A line about a failure or a difference (stderr). */
  err: (line: string) => void;
}

/** How one target's output and snapshot are named in messages. */
export interface CommandTarget {
  /** What messages put before a command's name: `''` (this repository) or `oxen-inference-codegen`. */
  tool: string;
  /** Prefix of output paths in messages: `''` (paths already start with `generated/`) or `oxen-models/`. */
  outPrefix: string;
  /** The output as messages name it (`generated 3 models into <into>`, `<into> is up to date`). */
  into: string;
  /** Prefix of snapshot file paths in messages: `specs/` or `oxen-models/specs/`. */
  specsPrefix: string;
  /** The command that regenerates (told by `--check`), e.g. `npm run generate`. */
  rerun: string;
  /** The command that removes the given ids from the snapshot (told for models no longer served). */
  removeCommand: (ids: readonly string[]) => string;
  /** The text of a failure: by default a `SpecError`'s message, else the error's message. */
  describe?: (e: unknown) => string;
}

/** `1 model`, `2 models`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The default failure text: the message (a `SpecError` names file, model and pointer). */
function describeError(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** `<tool> <command>`, or the command alone for a target without a tool name. */
function commandName(target: CommandTarget, command: string): string {
  return target.tool ? `${target.tool} ${command}` : command;
}

/** `N ms` since `started` (a `performance.now()`). */
function since(started: number): string {
  return `${Math.round(performance.now() - started)} ms`;
}

/**
 * The one-line summary of a generate run: `generated 1 model into oxen-models (files: 4 added,
 * 0 changed, 0 removed, 2 unchanged)`; counts of models and of files are each named.
 */
export function generateSummary(
  r: Pick<GenerateResult, 'models' | 'added' | 'changed' | 'removed' | 'unchanged'>,
  into: string,
): string {
  return `generated ${plural(r.models, 'model')} into ${into} (files: ${r.added.length} added, ${r.changed.length} changed, ${r.removed.length} removed, ${r.unchanged} unchanged)`;
}

/** One line per output file that a run adds, changes or removes (`  added    <prefix><file>`). */
function diffLines(r: Pick<GenerateResult, 'added' | 'changed' | 'removed'>, prefix: string): string[] {
  return [
    ...r.added.map((f) => `  added    ${prefix}${f}`),
    ...r.changed.map((f) => `  changed  ${prefix}${f}`),
    ...r.removed.map((f) => `  removed  ${prefix}${f}`),
  ];
}

/** What `runGenerate` runs: the target's generate, and lines for files beside the output it syncs. */
export interface GenerateRun {
  result: GenerateResult;
  /** Further changed files (`  changed  runtime/endpoints.ts (endpoint-doc regions)`). */
  extra?: string[];
}

/**
 * `generate`: run the target's generate and print its notes and summary; with `check`, write
 * nothing and list each file that differs.
 * @returns `EXIT.ok`; `EXIT.changed` when `check` found differences; `EXIT.failed` when it failed
 * (nothing written).
 */
export async function runGenerate(
  target: CommandTarget,
  check: boolean,
  run: () => Promise<GenerateRun>,
  io: CommandIo,
): Promise<ExitCode> {
  const started = performance.now();
  const name = commandName(target, 'generate');
  try {
    const { result: r, extra = [] } = await run();
    for (const n of r.notes) io.out(`note: ${n.model}: ${n.message}`);
    const diff = [...diffLines(r, target.outPrefix), ...extra];
    if (check) {
      if (diff.length > 0) {
        io.err(
          `${name} --check: ${plural(diff.length, 'file')} would change; run \`${target.rerun}\` and commit the result:\n${diff.join('\n')}`,
        );
        return EXIT.changed;
      }
      io.out(
        `${name} --check: ${target.into} is up to date (${plural(r.models, 'model')}, ${plural(r.files.size, 'file')}, ${since(started)})`,
      );
    } else {
      io.out(
        `${generateSummary(r, target.into)}; ${plural(r.rebuilt.length, 'file')} rebuilt, the rest reused (${since(started)})`,
      );
      if (diff.length > 0) io.out(diff.join('\n'));
    }
    return EXIT.ok;
  } catch (e) {
    io.err(`${name} failed, nothing was written: ${(target.describe ?? describeError)(e)}`);
    return EXIT.failed;
  }
}

/** The drift report as text, Markdown or JSON (control characters escaped in each). */
export type ReportFormat = 'text' | 'markdown' | 'json';

/** The report in `format`: text and Markdown with control characters as `<U+XXXX>`, JSON with `\uXXXX`. */
export async function renderReport(report: DriftReport, format: ReportFormat): Promise<string> {
  const { renderMarkdown, renderText } = await import('../drift/index.ts');
  return format === 'json'
    ? escapeControlsInCode(`${JSON.stringify(report, null, 2)}\n`)
    : showControls(format === 'markdown' ? renderMarkdown(report) : renderText(report));
}

/** The format of a report file by its extension: `.md` Markdown, `.json` JSON, anything else text. */
export function reportFormatOf(file: string): ReportFormat {
  const ext = path.extname(file).toLowerCase();
  return ext === '.md' ? 'markdown' : ext === '.json' ? 'json' : 'text';
}

/** What `runSnapshotChange` runs and how it reports. */
export interface SnapshotChange {
  /** How the summary line starts and failures name the command: `add`, `remove`, `refresh`. */
  command: string;
  /** Whether every model was re-fetched: the exit code then follows the drift report. */
  refresh: boolean;
  /** Files to write the drift report to (`--report`), in the format of each one's extension. */
  reports: readonly string[];
  /** The change itself (`refresh()` or `updateSnapshot()`), all or nothing. */
  run: () => Promise<Omit<RefreshResult, 'timings'>>;
  /** Redacts the API key from the report files (as the caller redacts what it prints). */
  redact: (text: string) => string;
}

/**
 * `add`, `remove`, `refresh` (the repository's `--add`, `--remove`, `--refresh`): run the change, print
 * what was fetched, written and generated, the models no longer served, and (`refresh`) the drift
 * report; write the report to each of `reports`.
 * @returns with `refresh`, the drift report's code (`EXIT.ok` nothing changed, `EXIT.changed`
 * compatible only, `EXIT.breaking` something breaks, a model no longer served included); otherwise
 * `EXIT.ok`; `EXIT.failed` when it failed (nothing written; the reason printed).
 */
export async function runSnapshotChange(
  target: CommandTarget,
  change: SnapshotChange,
  io: CommandIo,
): Promise<ExitCode> {
  const started = performance.now();
  const failName = commandName(target, change.command);
  let r;
  try {
    r = await change.run();
  } catch (e) {
    const message =
      e instanceof Error && !(e instanceof SpecError)
        ? e.message.replace(/^(refresh failed, )?nothing was written: /, '')
        : (target.describe ?? describeError)(e);
    io.err(`${failName} failed, nothing was written: ${message}`);
    return EXIT.failed;
  }
  const { driftExitCode, renderText } = await import('../drift/index.ts');
  const g = r.generate;
  const lines = [
    `${change.command}: ${plural(r.fetched.length, 'model')} fetched${r.baseUrl ? ` from ${r.baseUrl}` : ''}${r.added.length ? `, added ${r.added.join(', ')}` : ''}${r.removed.length ? `, removed ${r.removed.join(', ')}` : ''}; ${plural(r.written.length, 'snapshot file')} written, ${r.deleted.length} deleted (${since(started)})`,
    ...r.written.map((f) => `  wrote    ${target.specsPrefix}${f}`),
    ...r.deleted.map((f) => `  deleted  ${target.specsPrefix}${f}`),
    generateSummary(g, target.into),
  ];
  if (r.notServed.length > 0)
    lines.push(
      `no longer served (HTTP 404), kept in ${target.specsPrefix.replace(/\/$/, '')} until removed: ${r.notServed.join(', ')} (\`${target.removeCommand(r.notServed)}\`)`,
    );
  if (change.refresh) lines.push('', renderText(r.report));
  io.out(lines.join('\n'));
  try {
    for (const file of change.reports)
      await writeFile(file, change.redact(await renderReport(r.report, reportFormatOf(file))));
  } catch (e) {
    // rare (each file's folder and permissions are checked first: `reportFilesProblem`; a full disk): the snapshot and its code are written, the report not
    io.err(`${failName}: the snapshot is written, but not the report: ${(e as Error).message}`);
    return EXIT.failed;
  }
  return change.refresh ? driftExitCode(r.report) : EXIT.ok;
}

/** The `--report FILE` flag (repeatable) of `refresh`, as a `node:util` `parseArgs` option. */
export const REPORT_FLAG = { report: { type: 'string', multiple: true, default: [] as string[] } } as const;

/**
 * The problem with `--report` files, or undefined: checked before anything runs, so that a report that
 * cannot be written stops the run before the snapshot changes. A file's folder must exist and be
 * writable, and the file, if it exists, must be a writable file (not a folder).
 */
export function reportFilesProblem(files: readonly string[]): string | undefined {
  for (const file of files) {
    const target = path.resolve(file);
    const folder = statOf(path.dirname(target));
    if (!folder?.isDirectory()) return `--report ${file}: its folder does not exist`;
    const existing = statOf(target);
    if (existing && !existing.isFile()) return `--report ${file}: it exists and is not a file`;
    try {
      accessSync(existing ? target : path.dirname(target), constants.W_OK);
    } catch {
      return `--report ${file}: ${existing ? 'it is' : 'its folder is'} not writable`;
    }
  }
  return undefined;
}

/** `statSync(file)`, or undefined when it does not exist (or cannot be read). */
function statOf(file: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** What `runDrift` compares. */
export interface DriftCommand {
  /** How failures name the command (`drift`). */
  name: string;
  /** Two snapshot directories, old then new; or undefined: `specsDir` vs a fresh fetch of its ids. */
  dirs: readonly [string, string] | undefined;
  /** The committed snapshot of the fetch mode (absolute), and how messages name it. */
  specsDir: string;
  specsLabel: string;
  format: ReportFormat;
  /** The fetch mode's settings. */
  fetch: FetchFlagValues;
  /** The API key (the fetch mode needs one). */
  apiKey: string;
}

/**
 * `drift`: the drift report of two snapshots, or of a snapshot and a fresh fetch of its ids, in
 * `format` on stdout. Writes nothing.
 * @returns the report's code (`driftExitCode`), or `EXIT.failed` when there is no report (an
 * unreadable snapshot, no key, a model that failed to fetch; the reason printed).
 */
export async function runDrift(
  command: DriftCommand,
  io: CommandIo & { write: (text: string) => void },
): Promise<ExitCode> {
  const fail = (message: string): ExitCode => {
    io.err(`${command.name}: ${message}`);
    return EXIT.failed;
  };
  const [{ diffSnapshots, driftExitCode, driftReport, readSnapshot }, refresh] = await Promise.all([
    import('../drift/index.ts'),
    import('../refresh/index.ts'),
  ]);
  const { checkBaseUrl, DEFAULT_REFRESH_BASE_URL, fetchModels, RefreshError } = refresh;
  let report: DriftReport;
  try {
    if (command.dirs) {
      report = await driftReport(command.dirs[0], command.dirs[1]);
    } else {
      const committed = await readSnapshot(command.specsDir, command.specsLabel);
      if (!command.apiKey)
        return fail(
          'OXEN_API_KEY is not set: comparing with a fresh fetch needs an API key (or give two snapshot directories)',
        );
      const baseUrl = checkBaseUrl(command.fetch.baseUrl ?? (process.env['OXEN_BASE_URL'] || DEFAULT_REFRESH_BASE_URL));
      io.err(`${command.name}: fetching ${plural(committed.ids.length, 'model')} from ${baseUrl}`);
      const { baseUrl: _given, ...limits } = command.fetch;
      const r = await fetchModels(committed.ids, {
        baseUrl,
        apiKey: command.apiKey,
        fileLabel: (id) => `${baseUrl}/api/ai/models/${id}`,
        ...limits,
      });
      if (r.failures.length > 0)
        return fail(
          `no report: ${r.failures.length} of ${plural(committed.ids.length, 'model')} failed:\n${r.failures.map((f) => `  ${f.id}  ${f.reason}`).join('\n')}`,
        );
      const fresh = new Map([...r.models].map(([id, m]) => [id, m.raw]));
      report = diffSnapshots(committed, { label: baseUrl, ids: committed.ids, models: fresh });
    }
  } catch (e) {
    return fail(
      `no report: ${e instanceof SpecError || e instanceof RefreshError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    );
  }
  io.write(await renderReport(report, command.format));
  return driftExitCode(report);
}
