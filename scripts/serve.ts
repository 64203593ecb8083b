// npm run serve -- [--port N] [--models-dir DIR] [--worker-delay-ms N] [--failure-rate R] [--drop-streams-ms N]
//   [--queue-mode today|0.224.2] [--keep-alive-ms N] [--log]
// Starts the local stand-in for the inference service on 127.0.0.1 and prints `listening on http://127.0.0.1:N`,
// then the key it accepts. The options (but --models-dir) and the stopping are those of `oxen-inference-codegen serve`
// (fake-service/cli.ts): it stops cleanly (closing the port, exit 0) on SIGINT, SIGTERM and SIGHUP, and also when
// the processes that started it are gone (npm's `sh -c` does not pass signals on).
import { parseArgs } from 'node:util';
import { startServer } from '../fake-service/index.ts';
import { SERVER_FLAGS, SERVER_FLAGS_HELP, serverFlagValues, serveUntilStopped } from '../fake-service/cli.ts';

const USAGE = `usage: npm run serve -- [options]\n  --models-dir DIR     serve every <id>.json of DIR instead of specs/models\n${SERVER_FLAGS_HELP}`;

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    options: { ...SERVER_FLAGS, 'models-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  }));
} catch (e) {
  usage((e as Error).message);
}
if (values.help) usage('local inference server');
const options = serverFlagValues(values);
if (typeof options === 'string') usage(options);
if (values['models-dir'] !== undefined) options.modelsDir = values['models-dir'];

const server = await startServer(options);
const stopped = serveUntilStopped(server);
// The test key is a public fixture, not a secret.
process.stdout.write('API key: test-key\n');
process.exit(await stopped);
