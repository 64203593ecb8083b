/**
 * The generator's worker thread, seen from the main thread: prettier formatting (stage 7a) and
 * ajv's standalone code generation (stage 6a) run in `worker.mjs`, so that they overlap the main
 * thread's work (loading TypeScript, typing and printing the model modules). `write.ts` then
 * writes what changed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CompileOptions } from './ajv-compile.mjs';
import type { Options as PrettierOptions } from 'prettier';
import { compileHere } from './validators.ts';
import { layerOff } from '../output/layers.ts';

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

/** An error of the worker's job, with the class name it had there (`RangeError`, ...). */
export class WorkerJobError extends Error {
  constructor(message: string, name: string) {
    super(message);
    this.name = name;
  }
}

/** A job as the worker receives it (without its id and claim). */
type Job =
  | { kind: 'format'; text: string; options: PrettierOptions }
  | { kind: 'validator'; schema: Record<string, unknown>; options: CompileOptions };

/** Who does a job: its claim (shared with the worker) holds 0 until one thread takes it. */
const UNCLAIMED = 0;
const MAIN_THREAD = 2;

/**
 * The worker thread, started on first use or by `start()`: a run that reuses every file starts
 * none. The worker does jobs in the order they were given; `helpHere()` does the ones it has not
 * started on the calling thread instead, from the last one back. A caller that knows
 * work will follow a slow step (the CLI, before it fetches models) calls `start()` first, so that
 * the worker (and prettier, for a run that formats) loads meanwhile, and passes the worker to
 * `generate`. One worker: a second one paid prettier's cold start again and competed with the main
 * thread for the second core (measured slower on 2 cores, and over the 300 MiB memory aim).
 * `close()` ends it.
 */
export class GeneratorWorker {
  private worker: Worker | undefined;
  private closed = false;
  private next = 0;
  private config: PrettierOptions | undefined;
  /** Milliseconds spent on each kind of job, on either thread (the run's breakdown). */
  readonly spent = { format: 0, validator: 0 };
  private here: Promise<unknown> = Promise.resolve();
  private readonly pending = new Map<
    number,
    { job: Job; claim: Int32Array; resolve: (text: string) => void; reject: (err: Error) => void }
  >();

  /**
   * @param root the directory that holds `.prettierrc.json` and `generator/stages/worker.mjs`.
   * @param options `preloadPrettier` (default true): load prettier as the worker starts, for a run
   * that formats; otherwise on the first format job.
   */
  constructor(
    private readonly root: string,
    private readonly options: { preloadPrettier?: boolean } = {},
  ) {}

  /**
   * The formatted text of `file` (a path relative to the output root: its extension picks the
   * parser), with prettier's options `config` (default this repository's `.prettierrc.json`).
   * @throws Error when prettier cannot parse it (the generator emitted invalid code), or when the
   * worker is closed (also when it was closed before the job ended).
   */
  async format(text: string, file: string, config?: PrettierOptions): Promise<string> {
    const options = prettierOptions(config ?? this.prettierConfig(), file);
    return this.run({ kind: 'format', text, options }).catch((err: unknown) => {
      throw err instanceof WorkerJobError
        ? new Error(`prettier could not format the output: ${err.name}: ${err.message}`)
        : err;
    });
  }

  /**
   * ajv's standalone code (an ES module's text) of a validator for `schema`, compiled with `options`.
   * @throws WorkerJobError with ajv's message and the error's class name when ajv cannot compile
   * it; Error when the worker is closed.
   */
  compileValidator(schema: Record<string, unknown>, options: CompileOptions): Promise<string> {
    return this.run({ kind: 'validator', schema, options });
  }

  /** Start the worker now, so that it loads (with prettier, when preloaded) while the first files are being built. */
  start(): void {
    if (!this.closed && !layerOff('worker')) this.thread();
  }

  /**
   * Do on this thread, one after the other from the last, the jobs the worker has not started:
   * the validators, then the files to format (prettier loads here on the first; formatting is most
   * of a full run's work, and sharing it was measured 10-15% faster with the same peak RSS, see
   * docs/design-decisions.md); resolves when none is left to take (the worker may still be
   * finishing the ones it took).
   */
  async helpHere(): Promise<void> {
    for (const kind of ['validator', 'format'])
      for (const id of [...this.pending.keys()].reverse()) {
        const p = this.pending.get(id);
        if (p?.job.kind !== kind) continue;
        if (Atomics.compareExchange(p.claim, 0, UNCLAIMED, MAIN_THREAD) !== UNCLAIMED) continue;
        this.pending.delete(id);
        try {
          p.resolve(await this.doHere(p.job));
        } catch (err) {
          p.reject(err as Error);
        }
      }
  }

  private run(job: Job): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the generator worker is closed'));
    if (layerOff('worker')) return this.runHere(job);
    const worker = this.thread();
    const id = this.next++;
    const claim = new SharedArrayBuffer(4);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { job, claim: new Int32Array(claim), resolve, reject });
      worker.postMessage({ ...job, id, claim });
    });
  }

  /** A job on this thread (the worker switched off, to measure what it saves). */
  private runHere(job: Job): Promise<string> {
    // one at a time, as the worker does them
    const done = this.here.then(() => this.doHere(job));
    this.here = done.catch(() => undefined);
    return done;
  }

  private async doHere(job: Job): Promise<string> {
    const t0 = performance.now();
    try {
      if (job.kind === 'validator') return await compileHere(job.schema, job.options);
      const prettier = await import('prettier');
      return await prettier.format(job.text, job.options);
    } catch (err) {
      throw err instanceof Error ? new WorkerJobError(err.message, err.name) : new Error(String(err));
    } finally {
      this.spent[job.kind] += performance.now() - t0;
    }
  }

  private prettierConfig(): PrettierOptions {
    this.config ??= JSON.parse(readFileSync(path.join(this.root, '.prettierrc.json'), 'utf8')) as PrettierOptions;
    return this.config;
  }

  private thread(): Worker {
    // Closed means closed: a worker started now would keep the process alive after the run ended.
    if (this.closed) throw new Error('the generator worker is closed');
    if (this.worker) return this.worker;
    const worker = new Worker(path.join(this.root, 'generator', 'stages', 'worker.mjs'), {
      workerData: { preloadPrettier: this.options.preloadPrettier ?? true },
    });
    worker.on(
      'message',
      (m: { id: number; text?: string; ms?: number; error?: string; name?: string; skipped?: true }) => {
        if (m.skipped) return; // done here by helpHere
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (p && m.ms !== undefined) this.spent[p.job.kind] += m.ms;
        if (m.text !== undefined) p?.resolve(m.text);
        else p?.reject(new WorkerJobError(m.error ?? 'failed', m.name ?? 'Error'));
      },
    );
    worker.on('error', (err) => {
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }

  /** End the worker and refuse later work (idempotent); pending jobs reject. */
  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('the generator worker is closed'));
    this.pending.clear();
    if (w) await w.terminate();
  }
}
