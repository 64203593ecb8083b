// The local server's command line, shared by `npm run serve` (scripts/serve.ts) and
// `oxen-inference-codegen serve` (generator/cli/serve.ts): its options as node:util `parseArgs`
// flags, their help text (defaults from SERVER_DEFAULTS), and running the server until it is told to stop.
import { readFileSync } from 'node:fs';
import { SERVER_DEFAULTS } from './defaults.ts';
import type { LocalServer, LocalServerOptions } from './index.ts';

/** The server's flags (node:util `parseArgs` configuration); every value is checked by `serverFlagValues`. */
export const SERVER_FLAGS = {
  port: { type: 'string' },
  'worker-delay-ms': { type: 'string' },
  'keep-alive-ms': { type: 'string' },
  'failure-rate': { type: 'string' },
  'drop-streams-ms': { type: 'string' },
  'queue-mode': { type: 'string' },
  log: { type: 'boolean' },
} as const;

/** One line per flag of `SERVER_FLAGS`, indented by two spaces, with its default. */
export const SERVER_FLAGS_HELP = [
  `--port N             the port on 127.0.0.1 (default ${SERVER_DEFAULTS.port}: one the system picks)`,
  `--worker-delay-ms N  how long the queue takes per generation, in milliseconds (default ${SERVER_DEFAULTS.workerDelayMs})`,
  `--failure-rate R     the share (0 to 1) of queued generations that fail (default ${SERVER_DEFAULTS.failureRate}; "[fail]" prompts always do)`,
  `--drop-streams-ms N  drop every open event stream (GET /api/events) every N milliseconds (default ${SERVER_DEFAULTS.dropStreamsMs}: never)`,
  `--queue-mode MODE    today (as the service's docs say today) or 0.224.2 (the API description) (default ${SERVER_DEFAULTS.queueMode})`,
  `--keep-alive-ms N    the event stream's keep-alive comment interval, in milliseconds (default ${SERVER_DEFAULTS.keepAliveMs})`,
  `--log                one line per request on stderr (method, path, status, time; never a key)`,
]
  .map((l) => `  ${l}`)
  .join('\n');

/**
 * Reads `SERVER_FLAGS` from parsed arguments (absent flags keep the server's defaults).
 * @returns the server's options, or the problem as text (for the usage line).
 */
export function serverFlagValues(
  values: Partial<Record<keyof typeof SERVER_FLAGS, string | boolean>>,
): LocalServerOptions | string {
  const out: LocalServerOptions = {};
  const int = (flag: string, v: string, max = Number.MAX_SAFE_INTEGER): number | string =>
    /^\d+$/.test(v) && Number(v) <= max
      ? Number(v)
      : `--${flag} needs an integer from 0 to ${max}, got ${JSON.stringify(v)}`;
  for (const [flag, key, max] of [
    ['port', 'port', 65_535],
    ['worker-delay-ms', 'workerDelayMs', undefined],
    ['keep-alive-ms', 'keepAliveMs', undefined],
    ['drop-streams-ms', 'dropStreamsMs', undefined],
  ] as const) {
    const v = values[flag];
    if (typeof v !== 'string') continue;
    const n = int(flag, v, max);
    if (typeof n === 'string') return n;
    out[key] = n;
  }
  const rate = values['failure-rate'];
  if (typeof rate === 'string') {
    const n = /^(\d+\.?\d*|\.\d+)$/.test(rate) ? Number(rate) : NaN;
    if (!(n >= 0 && n <= 1)) return `--failure-rate needs a number from 0 to 1, got ${JSON.stringify(rate)}`;
    out.failureRate = n;
  }
  const mode = values['queue-mode'];
  if (typeof mode === 'string') {
    if (mode !== 'today' && mode !== '0.224.2') return `--queue-mode needs today or 0.224.2, got ${mode}`;
    out.queueMode = mode;
  }
  if (values.log === true) out.log = true;
  return out;
}

/**
 * Writes `listening on <url>` (one line) to `stdout`, then keeps `server` running until SIGINT,
 * SIGTERM or SIGHUP, or until the processes that started it are gone: its parent, and (on Linux,
 * through /proc) its parent's parent. The second matters under npm (`npm run serve`, `npx`): npm
 * runs the command through `sh -c`, and a signal npm passes to `sh` is not passed on, so without
 * this the server would live on, orphaned, still answering on its port.
 * @returns the exit code once the server is closed: 0, or 1 when closing failed or took over 5 seconds.
 */
export function serveUntilStopped(
  server: LocalServer,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  stdout.write(`listening on ${server.url}\n`);
  return new Promise<number>((resolve) => {
    const parent = process.ppid;
    const grandparent = parentOf(parent);
    const watch = setInterval(() => {
      if (process.ppid !== parent || (grandparent !== undefined && !alive(grandparent))) stop();
    }, 250);
    watch.unref();
    let stopping = false;
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    function stop(): void {
      if (stopping) return;
      stopping = true;
      clearInterval(watch);
      for (const s of signals) process.off(s, stop);
      const giveUp = setTimeout(() => resolve(1), 5_000); // close() never takes this long; never hang
      giveUp.unref();
      server.close().then(
        () => (clearTimeout(giveUp), resolve(0)),
        () => (clearTimeout(giveUp), resolve(1)),
      );
    }
    for (const s of signals) process.on(s, stop);
  });
}

/** The parent pid of `pid` (Linux /proc), or undefined where there is no /proc. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
