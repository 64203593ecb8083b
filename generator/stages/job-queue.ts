/**
 * The run's queue of formatting (prettier, stage 7a) and validator compilation (ajv's standalone
 * code, stage 6a) jobs, done on the calling thread one at a time, in the order given: on 2 cores a
 * worker thread saved under 20% of a full regeneration and cost a user's `add` of 64 models 22% and
 * 80 MiB of peak RSS (docs/measurements/run-machinery.md). `write.ts` then
 * writes what changed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CompileOptions } from './ajv-compile.mjs';
import type { Options as PrettierOptions } from 'prettier';
import { compileHere } from './validators.ts';
import { hash } from '../output/manifest.ts';
import { LAYOUT_PRETTIER, laysOutAs } from './layout/index.ts';

const require = createRequire(import.meta.url);

/**
 * The prettier options for one output file: the repository's `.prettierrc.json` (plain JSON, given
 * as `config`), with the parser chosen by extension (`babel-ts` for TypeScript: the same output as
 * the `typescript` parser for this code, without loading a second TypeScript compiler).
 */
export function prettierOptions(config: PrettierOptions, file: string): PrettierOptions {
  const parser = file.endsWith('.ts')
    ? 'babel-ts'
    : file.endsWith('.md')
      ? 'markdown'
      : file.endsWith('.json')
        ? 'json'
        : undefined;
  return { ...config, ...(parser ? { parser } : { filepath: file }) };
}

/** An error of a job, with the class name it had (`RangeError`, ...). */
export class JobError extends Error {
  constructor(message: string, name: string) {
    super(message);
    this.name = name;
  }
}

/** A job (a file to format, or a schema to compile). */
type Job =
  | { kind: 'format'; text: string; options: PrettierOptions }
  | { kind: 'validator'; schema: Record<string, unknown>; options: CompileOptions };

/**
 * A run's formatting and validator jobs, one at a time on this thread. A caller that knows work will
 * follow a slow step (the CLI, before it fetches models) calls `start()` first, so that prettier
 * loads meanwhile, and passes this to `generate`. `close()` refuses later work.
 */
export class JobQueue {
  private closed = false;
  private config: PrettierOptions | undefined;
  private version: string | undefined;
  private prettier: Promise<typeof import('prettier')> | undefined;
  /** The jobs so far, chained: each starts when the one before has ended. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Milliseconds spent on each kind of job (the run's breakdown). */
  readonly spent = { format: 0, validator: 0 };

  /**
   * @param root the directory that holds `.prettierrc.json`.
   * @param options `preloadPrettier` (default true): `start()` loads prettier, for a run that formats.
   */
  constructor(
    private readonly root: string,
    private readonly options: { preloadPrettier?: boolean } = {},
  ) {}

  /**
   * The formatted text of `file` (a path relative to the output root: its extension picks the
   * parser), with prettier's options `config` (default this repository's `.prettierrc.json`).
   * @throws Error when prettier cannot parse it (the generator emitted invalid code), or when this
   * is closed (also when it was closed before the job started).
   */
  async format(text: string, file: string, config?: PrettierOptions): Promise<string> {
    const options = prettierOptions(config ?? this.prettierConfig(), file);
    return this.run({ kind: 'format', text, options }).catch((err: unknown) => {
      throw err instanceof JobError
        ? new Error(`prettier could not format the output: ${err.name}: ${err.message}`)
        : err;
    });
  }

  /**
   * What decides `format(text, file, config)`'s result: a hash of prettier's version, the options
   * (`prettierOptions`) and the text; undefined when the options name plugins (their versions are
   * not known here). Two calls with the same key give the same text, so a run that recorded the
   * formatted text's hash under this key can take a file with that hash instead of formatting.
   */
  formatKey(text: string, file: string, config?: PrettierOptions): string | undefined {
    const options = prettierOptions(config ?? this.prettierConfig(), file);
    if (options.plugins !== undefined) return undefined;
    return hash('format', this.prettierVersion(), JSON.stringify(options), text);
  }

  /**
   * Whether a file formatted with prettier's options `config` (default this repository's
   * `.prettierrc.json`) comes out as the generator's own layout (`stages/layout/`) would write it:
   * the options are the ones it reproduces (`laysOutAs`) and prettier's version is one it was proven
   * against (`LAYOUT_PRETTIER`). Else (a user's other options or plugins) prettier formats every file.
   */
  laysOut(config?: PrettierOptions): boolean {
    return LAYOUT_PRETTIER.test(this.prettierVersion()) && laysOutAs(config ?? this.prettierConfig());
  }

  private prettierVersion(): string {
    this.version ??= (
      JSON.parse(readFileSync(require.resolve('prettier/package.json'), 'utf8')) as { version: string }
    ).version;
    return this.version;
  }

  /**
   * ajv's standalone code (an ES module's text) of a validator for `schema`, compiled with `options`.
   * @throws JobError with ajv's message and the error's class name when ajv cannot compile
   * it; Error when this is closed.
   */
  compileValidator(schema: Record<string, unknown>, options: CompileOptions): Promise<string> {
    return this.run({ kind: 'validator', schema, options });
  }

  /** Start loading prettier now (when `preloadPrettier`), so that it loads while a caller waits on something else. */
  start(): void {
    if (!this.closed && (this.options.preloadPrettier ?? true)) this.loadPrettier().catch(() => undefined);
  }

  private loadPrettier(): Promise<typeof import('prettier')> {
    this.prettier ??= import('prettier');
    return this.prettier;
  }

  private run(job: Job): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the job queue is closed'));
    const done = this.queue.then(() => this.runNow(job));
    this.queue = done.catch(() => undefined);
    return done;
  }

  private async runNow(job: Job): Promise<string> {
    if (this.closed) throw new Error('the job queue is closed');
    const t0 = performance.now();
    try {
      if (job.kind === 'validator') return await compileHere(job.schema, job.options);
      return await (await this.loadPrettier()).format(job.text, job.options);
    } catch (err) {
      throw err instanceof Error ? new JobError(err.message, err.name) : new Error(String(err));
    } finally {
      this.spent[job.kind] += performance.now() - t0;
    }
  }

  private prettierConfig(): PrettierOptions {
    this.config ??= JSON.parse(readFileSync(path.join(this.root, '.prettierrc.json'), 'utf8')) as PrettierOptions;
    return this.config;
  }

  /** Refuse later work (idempotent); jobs not yet started reject. */
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}
