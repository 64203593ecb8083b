/**
 * A small pool of fuzzer child processes (`fuzz/child.ts`, run with `node --import tsx`). Each
 * child runs one case at a time; a case over the time limit gets its child killed (SIGKILL) and is
 * reported as a hang; a child that dies mid-case (stack overflow, out of memory, `process.exit`)
 * is reported with its exit status and the tail of its stderr. Children are replaced after a number
 * of cases so that memory held by the generator's libraries stays bounded.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../generator/paths.ts';
import type { ChildResult } from './child.ts';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));

/** How one request ended. */
export type PoolAnswer =
  | { kind: 'result'; result: ChildResult }
  | { kind: 'hang'; ms: number }
  | { kind: 'died'; reason: string }
  | { kind: 'reply'; value: Record<string, unknown> };

/** Options of the pool. Times in milliseconds. */
export interface PoolOptions {
  size: number;
  /** Time limit of one request. */
  timeoutMs: number;
  /** Requests a child serves before it is replaced (default 150). */
  recycleAfter?: number;
  /** Heap limit of a child in MiB (default 2048): a case that needs more is a crash, not a machine out of memory. */
  maxOldSpaceMiB?: number;
}

class Slot {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private served = 0;
  private stderr = '';

  constructor(private readonly options: PoolOptions) {}

  private start(): Promise<void> {
    const child = fork(CHILD, [], {
      cwd: REPO_ROOT,
      execArgv: ['--import', 'tsx', `--max-old-space-size=${this.options.maxOldSpaceMiB ?? 2048}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    this.child = child;
    this.served = 0;
    this.stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (m: { ready?: boolean }) => {
        if (m.ready) {
          child.off('exit', onExit);
          resolve();
        }
      };
      const onExit = (code: number | null, signal: string | null) =>
        reject(new Error(`fuzz child exited before it was ready (code ${code}, signal ${signal}): ${this.stderr}`));
      child.once('message', onMessage);
      child.once('exit', onExit);
    });
    return this.ready;
  }

  kill(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
    this.ready = undefined;
  }

  async request(message: Record<string, unknown>, timeoutMs = this.options.timeoutMs): Promise<PoolAnswer> {
    if (!this.child || this.served >= (this.options.recycleAfter ?? 150)) {
      this.kill();
      await this.start();
    }
    await this.ready;
    const child = this.child!;
    this.served++;
    this.stderr = '';
    const started = performance.now();
    return new Promise<PoolAnswer>((resolve) => {
      const done = (a: PoolAnswer) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(a);
      };
      const onMessage = (m: Record<string, unknown>) =>
        done(
          'index' in m && 'outRoot' in m
            ? { kind: 'result', result: m as unknown as ChildResult }
            : { kind: 'reply', value: m },
        );
      const onExit = (code: number | null, signal: string | null) => {
        this.child = undefined;
        done({
          kind: 'died',
          reason: `the generator's process died (exit code ${code}, signal ${signal})${this.stderr ? `: ${this.stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`,
        });
      };
      const timer = setTimeout(() => {
        child.off('exit', onExit);
        this.kill();
        done({ kind: 'hang', ms: performance.now() - started });
      }, timeoutMs);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(message);
    });
  }
}

/** Runs requests on `size` children, at most one request per child at a time. */
export class ChildPool {
  private readonly slots: Slot[];
  private readonly idle: Slot[];
  private readonly waiting: Array<(s: Slot) => void> = [];

  constructor(options: PoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.size) }, () => new Slot(options));
    this.idle = [...this.slots];
  }

  /**
   * Send one request to an idle child and wait for its answer (never rejects for a case's
   * behaviour). `timeoutMs` (default the pool's) starts once the child is ready (generator loaded).
   * @throws Error when a child cannot start (e.g. the generator does not load).
   */
  async request(message: Record<string, unknown>, timeoutMs?: number): Promise<PoolAnswer> {
    const slot = this.idle.pop() ?? (await new Promise<Slot>((r) => this.waiting.push(r)));
    try {
      return await slot.request(message, timeoutMs);
    } finally {
      const next = this.waiting.shift();
      if (next) next(slot);
      else this.idle.push(slot);
    }
  }

  /** Stop every child. */
  close(): void {
    for (const s of this.slots) s.kill();
  }
}
