// Section (d) of `npm run bench:runtime`, also runnable alone (`npx tsx scripts/bench/logging-off.ts`):
// what logging, hooks and APIPromise cost on a call. The same `queue.get` through clients of
//   - the base revision (`BENCH_BASE_REV`, default the merge base of HEAD and `main`; its index.ts,
//     runtime/ and generated/ extracted with `git archive` into .tmp/bench-base/<sha>), i.e. "before";
//   - this tree with logging off (the default), which must cost no more than before;
//   - this tree at `logLevel: 'info'` with a logger that drops lines;
//   - this tree with one no-op `onRequest` hook;
// interleaved (rotating which goes first) after a warm-up, on the local server. Prints medians and
// ratios to the base; absolute times depend on the machine and are never asserted.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../generator/paths.ts';
import { Client } from '../../index.ts';
import { startServer } from '../../fake-service/index.ts';
import { median } from '../lib/rounds.ts';

const fmt = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

/** The base revision's `Client` class (extracted once per revision). */
async function baseClient(
  rev: string,
): Promise<{ sha: string; Client: new (o: object) => { queue: { get(id: string): Promise<unknown> } } }> {
  const sha = execFileSync('git', ['rev-parse', '--short', rev], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  const dir = path.join(REPO_ROOT, '.tmp', 'bench-base', sha);
  if (!existsSync(path.join(dir, 'index.ts'))) {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', '--format=tar', sha, 'index.ts', 'runtime', 'generated'], {
      cwd: REPO_ROOT,
      maxBuffer: 1 << 28,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  }
  const mod = (await import(pathToFileURL(path.join(dir, 'index.ts')).href)) as { Client: never };
  return { sha, Client: mod.Client };
}

/** Run section (d) and print its lines. */
export async function benchLoggingOff(n = Number(process.env['BENCH_N'] ?? 1000), warmup = 300): Promise<void> {
  const rev =
    process.env['BENCH_BASE_REV'] ??
    execFileSync('git', ['merge-base', 'HEAD', 'main'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  const base = await baseClient(rev);
  const server = await startServer({ decide: () => ({ outcome: 'hold' }) });
  try {
    const options = { apiKey: 'test-key', baseUrl: server.url };
    const silent = { debug() {}, info() {}, warn() {}, error() {} };
    const clients = [
      { name: `before (${base.sha})`, c: new base.Client(options) },
      { name: 'logging off', c: new Client({ ...options, logLevel: 'off' }) },
      { name: 'logLevel info', c: new Client({ ...options, logLevel: 'info', logger: silent }) },
      { name: 'one onRequest hook', c: new Client({ ...options, logLevel: 'off', onRequest: () => undefined }) },
    ];
    const { generations } = await new Client(options).queue.enqueue({ model: 'flux-1-dev', prompt: 'bench' });
    const id = generations[0]!.generation_id;
    const fns = clients.map(
      ({ c }) =>
        () =>
          c.queue.get(id),
    );
    const times: number[][] = fns.map(() => []);
    for (let i = 0; i < warmup; i++) for (const f of fns) await f();
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < fns.length; k++) {
        const j = (i + k) % fns.length;
        const t = performance.now();
        await fns[j]!();
        times[j]!.push(performance.now() - t);
      }
    }
    const medians = times.map(median);
    const parts = clients.map(
      ({ name }, i) => `${name} ${fmt(medians[i]!)}${i === 0 ? '' : ` (${(medians[i]! / medians[0]!).toFixed(3)}x)`}`,
    );
    console.log(`(d) queue.get N=${n} interleaved: ${parts.join('  ')}`);
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchLoggingOff();
