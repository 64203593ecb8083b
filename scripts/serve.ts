// npm run serve -- --port N [--models-dir DIR] [--keep-alive-ms N] [--worker-delay-ms N] [--queue-mode today|0.224.2] [--log]
// Starts the local stand-in for the inference service on 127.0.0.1 and prints `listening on http://127.0.0.1:N`.
// `--queue-mode 0.224.2` makes its queue behave as the API description 0.224.2 says (default: as the docs say today).
//
// Stops cleanly (closing the port, exit 0) on SIGINT, SIGTERM and SIGHUP, and also when the
// processes that started it are gone. The second matters under `npm run serve`: npm runs
// `sh -c "tsx scripts/serve.ts"`, tsx runs this file in a child node, and when npm is sent
// SIGTERM or SIGINT it passes the signal to `sh`, which dies without passing it on; tsx and this
// process would live on, orphaned, still answering on the port. So this process watches its parent
// and (on Linux, through /proc) its grandparent, and stops when either is gone.
import { readFileSync } from 'node:fs';
import { startServer, type LocalServerOptions } from '../fake-service/index.ts';

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: npm run serve -- [--port N] [--models-dir DIR] [--keep-alive-ms N] [--worker-delay-ms N] [--queue-mode today|0.224.2] [--log]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): LocalServerOptions {
  const opts: LocalServerOptions = {};
  const int = (name: string, v: string | undefined): number => {
    if (v === undefined || !/^\d+$/.test(v)) usage(`${name} needs a non-negative integer, got ${v ?? 'nothing'}`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const eq = raw.indexOf('=');
    const flag = raw.startsWith('--') && eq > 0 ? raw.slice(0, eq) : raw;
    const value = (): string | undefined => (raw.startsWith('--') && eq > 0 ? raw.slice(eq + 1) : argv[++i]);
    switch (flag) {
      case '--port':
        opts.port = int(flag, value());
        break;
      case '--models-dir': {
        const v = value();
        if (!v) usage('--models-dir needs a directory');
        opts.modelsDir = v;
        break;
      }
      case '--keep-alive-ms':
        opts.keepAliveMs = int(flag, value());
        break;
      case '--worker-delay-ms':
        opts.workerDelayMs = int(flag, value());
        break;
      case '--queue-mode': {
        const v = value();
        if (v !== 'today' && v !== '0.224.2') usage(`--queue-mode needs today or 0.224.2, got ${v ?? 'nothing'}`);
        opts.queueMode = v;
        break;
      }
      case '--log':
        opts.log = true;
        break;
      case '--help':
      case '-h':
        usage('local inference server');
        break;
      default:
        usage(`unknown argument: ${raw}`);
    }
  }
  return opts;
}

const server = await startServer(parseArgs(process.argv.slice(2)));
process.stdout.write(`listening on ${server.url}\n`);
// The test key is a public fixture, not a secret.
process.stdout.write('API key: test-key\n');

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), 5_000).unref(); // close() never takes this long; never hang
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.on('SIGHUP', stop);

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

// The launchers: the parent (tsx, or whatever ran node) and its parent (sh under npm).
const parent = process.ppid;
const grandparent = parentOf(parent);
setInterval(() => {
  if (process.ppid !== parent || (grandparent !== undefined && !alive(grandparent))) stop();
}, 250).unref();
