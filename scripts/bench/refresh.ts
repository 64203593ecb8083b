/**
 * `npm run bench:refresh`: refresh of 500 models from the local server.
 *
 * The snapshot's models are replicated to 500 ids (`<id>`, `<id>--r2`, `<id>--r3`, ...; every
 * 20th served with a changed default so that files are written), served by the local server from
 * a temporary models directory and listed in a temporary specs directory. Each measured run is a
 * fresh child process (so that memory figures are not inflated by earlier runs or by the server,
 * which runs in this process):
 *   - fetch+check: `fetchModels` (HTTP through the runtime client, `checkModel`), default concurrency;
 *   - full refresh: `refresh({ all: true })` (fetch+check, staging, proving generate, drift report,
 *     writing, the real generate), on a fresh copy of the specs each run, whose `generated/` is first
 *     brought up to date with the old snapshot (untimed), as in a repository; `--from-scratch`
 *     skips that (every generated file is then new and formatted).
 * Prints wall time and peak memory per run and the medians: RSS sampled every 5 ms while the phase
 * runs, and the kernel's max RSS of the child (`process.resourceUsage().maxRSS`), which also catches
 * peaks between samples. No assertion on absolute times.
 *
 *   --models N         number of models (default 500)
 *   --runs N           fetch+check runs (default 5)
 *   --full-runs N      full refresh runs (default 3; 0 skips them)
 *   --concurrency N    fetch concurrency (default 8, the refresh default)
 *   --from-scratch     full runs start with no generated/ (see above)
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../../generator/paths.ts';
import { median } from '../lib/rounds.ts';

const KEY = 'sk-bench-refresh-local-only';

interface ChildConfig {
  mode: 'fetch' | 'full';
  baseUrl: string;
  ids: string[];
  specsDir: string;
  outRoot: string;
  concurrency: number;
}

interface Measure {
  mode: ChildConfig['mode'];
  ms: number;
  /** Highest RSS seen by the 5 ms sampler during the phase, in MiB. */
  peakRssMiB: number;
  /** RSS when the phase started, in MiB. */
  startRssMiB: number;
  /** The kernel's max RSS of the whole child process, in MiB. */
  maxRssMiB: number;
  fetched: number;
  failures: number;
  written?: number;
  generateMs?: number;
  proveMs?: number;
  fetchMs?: number;
}

const MiB = 1024 * 1024;

/** Child: run one phase and print its `Measure` as JSON on stdout. */
async function child(config: ChildConfig): Promise<void> {
  const { fetchModels, refresh } = await import('../../generator/refresh/index.ts');
  if (config.mode === 'full') await import('../../generator/index.ts'); // load the generator before the clock starts, like fetchModels' imports
  const startRss = process.memoryUsage.rss();
  let peak = startRss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const t0 = performance.now();
  let m: Omit<Measure, 'ms' | 'peakRssMiB' | 'startRssMiB' | 'maxRssMiB'>;
  if (config.mode === 'fetch') {
    const r = await fetchModels(config.ids, {
      baseUrl: config.baseUrl,
      apiKey: KEY,
      concurrency: config.concurrency,
      progress: 'none',
    });
    m = { mode: 'fetch', fetched: r.models.size, failures: r.failures.length };
  } else {
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    const r = await refresh({
      all: true,
      specsDir: config.specsDir,
      outRoot: config.outRoot,
      baseUrl: config.baseUrl,
      apiKey: KEY,
      concurrency: config.concurrency,
      progress: 'none',
      stream: sink,
    });
    m = {
      mode: 'full',
      fetched: r.fetched.length,
      failures: 0,
      written: r.written.length,
      fetchMs: r.timings.fetchMs,
      proveMs: r.timings.proveMs,
      generateMs: r.timings.generateMs,
    };
  }
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  const out: Measure = {
    ...m,
    ms,
    peakRssMiB: peak / MiB,
    startRssMiB: startRss / MiB,
    maxRssMiB: (process.resourceUsage().maxRSS * 1024) / MiB,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function runChild(config: ChildConfig): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', JSON.stringify(config)],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench child (${config.mode}) exited ${code}:\n${err}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as Measure);
      } catch {
        reject(new Error(`bench child (${config.mode}) printed no result:\n${out}\n${err}`));
      }
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      models: { type: 'string', default: '500' },
      runs: { type: 'string', default: '5' },
      'full-runs': { type: 'string', default: '3' },
      concurrency: { type: 'string', default: '8' },
      'from-scratch': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.child) return child(JSON.parse(values.child) as ChildConfig);
  const total = Number(values.models);
  const runs = Number(values.runs);
  const fullRuns = Number(values['full-runs']);
  const concurrency = Number(values.concurrency);

  const { startServer } = await import('../../fake-service/index.ts');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-refresh-'));
  try {
    // The replicated snapshot: served models, and a specs directory listing them.
    const baseIds = JSON.parse(readFileSync(path.join(REPO_ROOT, 'specs', 'models.json'), 'utf8')) as string[];
    const served = path.join(tmp, 'served');
    const specs = path.join(tmp, 'specs');
    mkdirSync(served);
    mkdirSync(path.join(specs, 'models'), { recursive: true });
    cpSync(path.join(REPO_ROOT, 'specs', 'openapi.yaml'), path.join(specs, 'openapi.yaml'));
    const ids: string[] = [];
    for (let i = 0; ids.length < total; i++) {
      const base = baseIds[i % baseIds.length]!;
      const copy = Math.floor(i / baseIds.length) + 1;
      const id = copy === 1 ? base : `${base}--r${copy}`;
      const obj = JSON.parse(readFileSync(path.join(REPO_ROOT, 'specs', 'models', `${base}.json`), 'utf8')) as Record<
        string,
        unknown
      >;
      obj['id'] = id;
      const text = `${JSON.stringify(obj, null, 2)}\n`;
      writeFileSync(path.join(specs, 'models', `${id}.json`), text);
      // every 20th model drifts (a default changes on the server): those files are written
      const schema = (obj['request_schema'] ?? obj['json_request_schema']) as {
        properties?: Record<string, Record<string, unknown>>;
      } | null;
      const first = schema?.properties ? Object.values(schema.properties)[0] : undefined;
      if (ids.length % 20 === 0 && first) first['default'] = 'bench-drift';
      writeFileSync(path.join(served, `${id}.json`), `${JSON.stringify(obj, null, 2)}\n`);
      ids.push(id);
    }
    ids.sort();
    writeFileSync(path.join(specs, 'models.json'), `${JSON.stringify(ids, null, 2)}\n`);

    const server = await startServer({ modelsDir: served, users: { [KEY]: { user: 'bench' } } });
    const f = (n: number, d = 0) => n.toFixed(d);
    try {
      console.log(
        `bench:refresh: ${ids.length} models from ${server.url}, concurrency ${concurrency}, full runs ${values['from-scratch'] ? 'from scratch' : 'over an up-to-date generated/'}, ${os.cpus().length} CPUs, Node ${process.version}`,
      );
      const fetchRuns: Measure[] = [];
      for (let i = 0; i < runs; i++) {
        const m = await runChild({
          mode: 'fetch',
          baseUrl: server.url,
          ids,
          specsDir: specs,
          outRoot: tmp,
          concurrency,
        });
        if (m.failures > 0) throw new Error(`${m.failures} fetches failed`);
        fetchRuns.push(m);
        console.log(
          `  fetch+check run ${i + 1}: ${f(m.ms)} ms (${f((m.fetched / m.ms) * 1000)} models/s), peak RSS ${f(m.peakRssMiB)} MiB (from ${f(m.startRssMiB)}), max RSS ${f(m.maxRssMiB)} MiB`,
        );
      }
      const fullRunsOut: Measure[] = [];
      for (let i = 0; i < fullRuns; i++) {
        const runDir = path.join(tmp, `full-${i}`);
        cpSync(specs, path.join(runDir, 'specs'), { recursive: true });
        if (!values['from-scratch']) {
          // untimed: generated/ up to date with the old snapshot, as in a repository
          execFileSync(
            process.execPath,
            [
              '--import',
              'tsx',
              path.join(REPO_ROOT, 'scripts/generate.ts'),
              '--specs',
              path.join(runDir, 'specs'),
              '--out',
              runDir,
            ],
            { cwd: REPO_ROOT, stdio: 'ignore' },
          );
        }
        const m = await runChild({
          mode: 'full',
          baseUrl: server.url,
          ids,
          specsDir: path.join(runDir, 'specs'),
          outRoot: runDir,
          concurrency,
        });
        fullRunsOut.push(m);
        console.log(
          `  full refresh run ${i + 1}: ${f(m.ms)} ms (fetch+check ${f(m.fetchMs!)}, prove generate ${f(m.proveMs!)}, generate ${f(m.generateMs!)}), ${m.written} snapshot files written, peak RSS ${f(m.peakRssMiB)} MiB, max RSS ${f(m.maxRssMiB)} MiB`,
        );
        rmSync(runDir, { recursive: true, force: true });
      }
      console.log('medians:');
      console.log(
        `  fetch+check  ${f(median(fetchRuns.map((m) => m.ms)))} ms for ${ids.length} models, peak RSS ${f(median(fetchRuns.map((m) => m.peakRssMiB)))} MiB, max RSS ${f(median(fetchRuns.map((m) => m.maxRssMiB)))} MiB (${runs} runs)`,
      );
      if (fullRunsOut.length > 0) {
        console.log(
          `  full refresh ${f(median(fullRunsOut.map((m) => m.ms)))} ms (prove ${f(median(fullRunsOut.map((m) => m.proveMs!)))} + generate ${f(median(fullRunsOut.map((m) => m.generateMs!)))}), peak RSS ${f(median(fullRunsOut.map((m) => m.peakRssMiB)))} MiB, max RSS ${f(median(fullRunsOut.map((m) => m.maxRssMiB)))} MiB (${fullRuns} runs)`,
        );
      }
    } finally {
      await server.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
