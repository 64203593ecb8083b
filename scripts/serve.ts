// npm run serve -- --port N [--models-dir DIR] [--keep-alive-ms N] [--worker-delay-ms N] [--log]
// Starts the local stand-in for the inference service on 127.0.0.1 and prints `listening on http://127.0.0.1:N`.
import { startServer, type LocalServerOptions } from '../test/server/index.ts';

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run serve -- [--port N] [--models-dir DIR] [--keep-alive-ms N] [--worker-delay-ms N] [--log]\n`);
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
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
