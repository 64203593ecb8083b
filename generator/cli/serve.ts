/**
 * `oxen-inference-codegen serve` (`cli/index.ts` parses its arguments): the local stand-in for the
 * inference service (`fake-service/`, bundled into this package) on 127.0.0.1, serving the models of
 * this release (`specs/models/`, shipped in the package) and the user's snapshot (`<out>/specs/models/`,
 * where `add` stores them; a user's model replaces the package's of the same id). It runs until
 * SIGINT, SIGTERM or SIGHUP (or until the processes that started it are gone) and answers as the
 * service does, offline: for an application's tests.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serveUntilStopped } from '../../fake-service/cli.ts';
import { startServer, type LocalServerOptions } from '../../fake-service/index.ts';
import { REPO_ROOT } from '../paths.ts';
import { EXIT } from './exit-codes.ts';

/** What `serve` needs from the command line. */
export interface ServeRequest {
  /** The output directory (absolute): its `specs/models/` are the user's models. */
  out: string;
  /** How `out` is named in messages. */
  outLabel: string;
  /** The one key accepted (`--api-key`); undefined: any non-empty key is accepted. */
  apiKey?: string | undefined;
  /** The server's options from its flags (`fake-service/cli.ts`). */
  server: LocalServerOptions;
}

/**
 * Starts the server, prints `listening on http://127.0.0.1:N` (the only line on `stdout`) and what it
 * serves (on `stderr`), and waits until it is stopped.
 * @returns the exit code (`exit-codes.ts`): `EXIT.ok` stopped, `EXIT.failed` it could not start (the
 *   port is taken, a model file is not a JSON object) or closing failed.
 */
export async function serve(
  request: ServeRequest,
  io: { stdout: NodeJS.WritableStream },
  err: (line: string) => void,
): Promise<number> {
  const packageModels = path.join(REPO_ROOT, 'specs', 'models');
  const userModels = path.join(request.out, 'specs', 'models');
  const dirs = [packageModels, ...(existsSync(userModels) ? [userModels] : [])];
  let server;
  try {
    server = await startServer({
      ...request.server,
      modelsDir: dirs,
      // one user, alice (org acme), whatever the key (a missing key is a 401, as the service answers)
      ...(request.apiKey !== undefined
        ? { users: { [request.apiKey]: { user: 'alice', orgs: ['acme'] } } }
        : { anyKey: true }),
    });
  } catch (e) {
    err(`oxen-inference-codegen serve failed: ${(e as Error).message}`);
    return EXIT.failed;
  }
  const stopped = serveUntilStopped(server, io.stdout);
  const yours = existsSync(userModels) ? `, and your models from ${request.outLabel}/specs/models` : '';
  err(
    `serving this package's models${yours}; ${request.apiKey !== undefined ? 'the --api-key given is' : 'any API key is'} accepted; Ctrl-C stops`,
  );
  return (await stopped) === 0 ? EXIT.ok : EXIT.failed;
}
