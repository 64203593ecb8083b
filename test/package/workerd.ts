/**
 * Workers on workerd, Cloudflare's Workers runtime (the `workerd` binary of test/support/tools.ts), for
 * test/package/runtimes.test.ts: each worker's modules and text bindings written into a Cap'n Proto config,
 * one socket per worker on 127.0.0.1 (port 0; workerd reports the port it got on its control descriptor),
 * and outbound connections allowed to loopback addresses only (the local server).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One worker: its ES modules (the entry first; paths relative to the config's folder, as `embed` reads them:
 * Cap'n Proto resolves an absolute path against its import path, not the file system) and its text
 * bindings (`env.<name>`).
 */
export interface WorkerSpec {
  name: string;
  modules: string[];
  bindings: Record<string, string>;
}

/** A running workerd: the base URL of each worker (by name), what it wrote on stderr, and how to stop it. */
export interface RunningWorkerd {
  urls: Record<string, string>;
  stderr(): string;
  close(): Promise<void>;
}

/**
 * The compatibility date of the workers: a fixed date the pinned workerd supports (a newer date than the
 * binary's own is refused), so that the behaviour tested does not move with the binary.
 */
export const COMPATIBILITY_DATE = '2025-09-01';

/** A Cap'n Proto text string (paths and binding values are ASCII here; JSON's escapes are Cap'n Proto's). */
const text = (s: string): string => JSON.stringify(s);

function config(workers: readonly WorkerSpec[]): string {
  const worker = (w: WorkerSpec) => `(
  modules = [${w.modules.map((m) => `(name = ${text(m)}, esModule = embed ${text(m)})`).join(', ')}],
  compatibilityDate = ${text(COMPATIBILITY_DATE)},
  globalOutbound = "loopback",
  bindings = [${Object.entries(w.bindings)
    .map(([name, value]) => `(name = ${text(name)}, text = ${text(value)})`)
    .join(', ')}],
)`;
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    ${workers.map((w) => `(name = ${text(w.name)}, worker = ${worker(w)}),`).join('\n    ')}
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [${workers.map((w) => `(name = ${text(w.name)}, address = "127.0.0.1:0", http = (), service = ${text(w.name)})`).join(', ')}],
);
`;
}

/**
 * Starts `workerd serve` on a config of `workers` (written to `<dir>/workerd.capnp`) and resolves once every
 * socket listens.
 * @throws Error with workerd's stderr when it exits first, or after `timeoutMs` (default 60,000 ms).
 */
export async function startWorkerd(
  bin: string,
  dir: string,
  workers: readonly WorkerSpec[],
  timeoutMs = 60_000,
): Promise<RunningWorkerd> {
  const file = path.join(dir, 'workerd.capnp');
  writeFileSync(file, config(workers));
  const child = spawn(bin, ['serve', file, '--control-fd=3'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const ports: Record<string, number> = {};
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`workerd did not listen in ${timeoutMs} ms:\n${stderr}`)),
        timeoutMs,
      );
      void exited.then(() => reject(new Error(`workerd exited (${child.exitCode}):\n${stderr}`)));
      let buffered = '';
      // one JSON object per line: {"event":"listen","socket":"<name>","port":<port>}
      (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8');
      (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: string) => {
        buffered += d;
        for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
          const message = JSON.parse(buffered.slice(0, nl)) as { event?: string; socket?: string; port?: number };
          buffered = buffered.slice(nl + 1);
          if (message.event === 'listen' && message.socket && message.port) ports[message.socket] = message.port;
        }
        if (workers.every((w) => ports[w.name])) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    urls: Object.fromEntries(workers.map((w) => [w.name, `http://127.0.0.1:${ports[w.name]}`])),
    stderr: () => stderr,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
