/**
 * Child processes without a shell, with their output collected and a kill timeout: used by the
 * benchmarks (scripts/bench/) and, through test/support/, by the tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../generator/paths.ts';

/** How a child process ended, with everything it wrote. */
export interface RunResult {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when `timeoutMs` passed and the child was killed (SIGKILL). */
  timedOut: boolean;
}

export interface RunOptions {
  /** Default the repository root. */
  cwd?: string;
  /** The whole environment of the child (default this process's). */
  env?: NodeJS.ProcessEnv;
  /** Kill the child (SIGKILL) after this many milliseconds. Default 240_000. */
  timeoutMs?: number;
}

/** A child process that is running, with its output so far. */
export interface Running {
  child: ChildProcess;
  /** Settles when the child has exited and its output is closed; never rejects. */
  done: Promise<RunResult>;
  stdout(): string;
  stderr(): string;
  /**
   * Resolves with the output so far once stdout or stderr (`stream`, default both) contains `pattern`.
   * @throws Error with the output when the child ends first or `ms` (milliseconds) pass.
   */
  waitFor(pattern: string | RegExp, options?: { stream?: 'stdout' | 'stderr'; ms?: number }): Promise<string>;
}

/** Starts `command` without a shell, collecting stdout and stderr. Its stdin is closed. */
export function start(command: string, args: readonly string[], options: RunOptions = {}): Running {
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) l();
  };
  // decoded as one stream each, so a character split across chunks stays whole
  child.stdout.setEncoding('utf8').on('data', (d: string) => ((out.stdout += d), changed()));
  child.stderr.setEncoding('utf8').on('data', (d: string) => ((out.stderr += d), changed()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? 240_000);
  let ended = false;
  const done = new Promise<RunResult>((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      ended = true;
      resolve({ code, signal, stdout: out.stdout, stderr: out.stderr, timedOut });
      changed();
    };
    child.on('close', finish);
    child.on('error', (err) => {
      out.stderr += `\n${String(err)}`;
      finish(null, null);
    });
  });
  const waitFor: Running['waitFor'] = (pattern, { stream, ms = 30_000 } = {}) =>
    new Promise((resolve, reject) => {
      const text = () => (stream ? out[stream] : `${out.stdout}${out.stderr}`);
      const matches = () => (typeof pattern === 'string' ? text().includes(pattern) : pattern.test(text()));
      const deadline = setTimeout(() => stop(new Error(`no ${String(pattern)} within ${ms} ms`)), ms);
      const stop = (err?: Error) => {
        clearTimeout(deadline);
        listeners.delete(check);
        if (err) reject(new Error(`${command} ${args.join(' ')}: ${err.message}\n${out.stdout}\n${out.stderr}`));
        else resolve(text());
      };
      const check = () => {
        if (matches()) stop();
        else if (ended) stop(new Error(`ended before ${String(pattern)}`));
      };
      listeners.add(check);
      check();
    });
  return { child, done, stdout: () => out.stdout, stderr: () => out.stderr, waitFor };
}

/** Runs `command` without a shell to its end. Never rejects: the exit code is in the result. */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return start(command, args, options).done;
}

/** The arguments of `node` that run a TypeScript file with tsx (`--import tsx <file> ...args`). */
export function tsxArgs(file: string, args: readonly string[] = []): string[] {
  return ['--import', 'tsx', path.resolve(REPO_ROOT, file), ...args];
}

/** Runs a TypeScript file (absolute, or relative to the repository) with tsx in a child `node`. */
export function runTsx(file: string, args: readonly string[] = [], options: RunOptions = {}): Promise<RunResult> {
  return run(process.execPath, tsxArgs(file, args), options);
}

/**
 * Runs `command` under GNU time (`/usr/bin/time -f %M`) for the benchmarks.
 * @returns its wall time in milliseconds, its peak resident set in MiB, and the generator's
 * breakdown (milliseconds per activity) when it printed one (`GENERATE_TIMING` set).
 * @throws Error with the end of its stderr when it exits non-zero.
 */
export async function timed(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ ms: number; rssMiB: number; breakdown?: Record<string, number> }> {
  const t0 = performance.now();
  const r = await run('/usr/bin/time', ['-f', '%M', command, ...args], {
    cwd,
    env: { ...process.env, ...env },
    timeoutMs: 3_600_000,
  });
  const ms = performance.now() - t0;
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  // the generator's breakdown, when the run printed one (GENERATE_TIMING)
  const breakdown = /^\[timing\] breakdown (\{.*\})$/m.exec(r.stderr)?.[1];
  return {
    ms,
    rssMiB: Number(r.stderr.trim().split('\n').pop()) / 1024,
    ...(breakdown ? { breakdown: JSON.parse(breakdown) as Record<string, number> } : {}),
  };
}
