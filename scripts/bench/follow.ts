// `npm run bench:follow`: queue.follow of 1,000 pending generations against a hand-written reader of
// the event stream that reports the same 1,000 outcomes from their completion events (alone, and
// with the one list that queue.follow makes to check the ids): the client's CPU time and heap
// growth, in interleaved rounds (each round runs every case, the first in turn), as medians and
// min-max.
// The reader does less than queue.follow must: it cannot settle an id that ended before its stream
// opened (no event will come: with the list it at least sees that every id is still active), and
// it has no reconnection, check after a drop, timeout, abort or early-event buffer. So both
// baselines are reported: the reader alone (the floor of reading the stream) and the reader with
// the list (the floor of following correctly).
// The local server runs in a child process (`follow-server.ts`; its queue as the service's docs
// say today), so that only the client's work is measured. Each round adds 1,000 held generations
// (not measured); each case starts, and once it is ready (queue.follow: its list was answered;
// the reader: its stream is connected) the server completes them all; it ends at the last event.
// The SDK is the built package (`dist/index.js`, as users run it) when it exists, else the source
// (`--source` forces it): the source runs through tsx, whose helpers (`__name` on every function
// made) cost more than the SDK's own code per event. `--compare DIR` measures another build of the
// package too (e.g. a copy of the base revision's `dist/`, placed inside the repository so that
// its imports resolve from `node_modules/`), in the same rounds. Absolute figures
// depend on the machine; the ratios are the result. Run with `node --expose-gc` (the npm script
// does): each case runs three times per round: from a collected heap (`gc()` first: its heap
// growth, and its CPU as "CPU after gc"), then once unmeasured, then once measured (its CPU, the
// heap not sampled). A forced full collection frees the hidden classes (shapes) of the previous
// case's parsed JSON, and V8 then discards the optimized code that embedded them: the run after it
// re-optimizes (on V8's background threads, counted in the process's CPU, and finishing during the
// next run) what had been optimized, the more the more functions it has. A process following
// generations keeps those shapes, hence CPU is measured two runs after the forced GC, and the heap
// growth is given also without the code spaces (the re-optimized code, e.g. about
// 170 KiB for queue.follow and 15 KiB for the reader, is the JIT's output, not data the case holds).
import { fork, type ChildProcess } from 'node:child_process';
import v8 from 'node:v8';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Client as ClientType } from '../../index.ts';
import { REPO_ROOT } from '../../generator/paths.ts';
import { median } from '../lib/rounds.ts';

const IDS = Number(process.env['BENCH_FOLLOW_IDS'] ?? 1000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
const KEY = 'test-key';

interface Sample {
  /** CPU without a forced GC before. */
  cpuMs: number;
  /** CPU and heap growth from a collected heap. */
  gcCpuMs: number;
  heapMiB: number;
  /** The heap growth without the code spaces. */
  dataMiB: number;
}

/** The bytes of compiled code on the heap. */
function codeBytes(): number {
  let n = 0;
  for (const s of v8.getHeapSpaceStatistics()) if (s.space_name.startsWith('code_')) n += s.space_used_size;
  return n;
}

/** The SDK to measure, and what it is. */
async function sdkModule(): Promise<{ Client: typeof ClientType; what: string }> {
  const dist = path.join(REPO_ROOT, 'dist/index.js');
  if (process.argv.includes('--source') || !existsSync(dist))
    return {
      Client: (await import('../../index.ts')).Client,
      what: 'the source through tsx (no dist/: run `npm run build` to measure the built package)',
    };
  const newest = Math.max(
    ...readdirSync(path.join(REPO_ROOT, 'runtime'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => statSync(path.join(REPO_ROOT, 'runtime', f)).mtimeMs),
  );
  const stale = statSync(dist).mtimeMs < newest ? ' WARNING: dist/ is older than runtime/: run `npm run build`' : '';
  const mod = (await import(pathToFileURL(dist).href)) as { Client: typeof ClientType };
  return { Client: mod.Client, what: `the built package (dist/)${stale}` };
}
const { Client, what } = await sdkModule();
// tsx turns source maps on for the whole process; a process running the built package has them off
// (Node's default). With them on, each error's stack is mapped frame by frame when read (undici
// reads the stack of the abort that closes a stream): a cost of the benchmark's loader, not of
// the reader or the SDK.
if (!what.startsWith('the source')) process.setSourceMapsEnabled(false);

/** `--compare DIR`: the `Client` of another build of the package (its `index.js`), measured besides. */
async function compareModule(): Promise<{ Client: typeof ClientType; label: string } | undefined> {
  const at = process.argv.indexOf('--compare');
  if (at < 0) return undefined;
  const dir = process.argv[at + 1];
  if (!dir) throw new Error('bench: --compare needs a directory holding a built package (its index.js)');
  const mod = (await import(pathToFileURL(path.resolve(dir, 'index.js')).href)) as { Client: typeof ClientType };
  return { Client: mod.Client, label: `queue.follow ${path.basename(path.resolve(dir))}` };
}
const other = await compareModule();

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.error('bench: run with node --expose-gc for comparable heap figures (npm run bench:follow does)');

/**
 * Run `f`, measuring this process's CPU time (user + system); when `collect`, after a full
 * collection and with its peak heap growth (sampled every 5 ms). Without `collect` the heap is not
 * sampled: the sampler's own CPU (each sample reads the heap's spaces) would be charged to each case
 * in proportion to its wall time, which on a loaded machine is mostly waiting for the server.
 */
async function measure(
  f: () => Promise<void>,
  collect: boolean,
): Promise<{ cpuMs: number; heapMiB: number; dataMiB: number }> {
  if (collect) gc?.();
  const heap0 = v8.getHeapStatistics().used_heap_size;
  const data0 = heap0 - codeBytes();
  let peak = heap0;
  let dataPeak = data0;
  const sample = () => {
    const used = v8.getHeapStatistics().used_heap_size;
    peak = Math.max(peak, used);
    dataPeak = Math.max(dataPeak, used - codeBytes());
  };
  const sampler = collect ? setInterval(sample, 5) : undefined;
  const cpu0 = process.cpuUsage();
  try {
    await f();
  } finally {
    clearInterval(sampler);
  }
  const cpu = process.cpuUsage(cpu0);
  sample();
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapMiB: (peak - heap0) / 2 ** 20,
    dataMiB: (dataPeak - data0) / 2 ** 20,
  };
}

/** The server child, and a request to it answered by its next message. */
class ServerChild {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(): Promise<ServerChild> {
    const child = fork(fileURLToPath(new URL('./follow-server.ts', import.meta.url)), {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const { url } = await new Promise<{ url: string }>((resolve) => child.once('message', resolve));
    return new ServerChild(child, url);
  }

  ask<T>(message: unknown): Promise<T> {
    return new Promise((resolve) => {
      this.child.once('message', (m) => resolve(m as T));
      this.child.send(message as object);
    });
  }

  stop(): void {
    this.child.disconnect();
  }
}

/** One id's outcome as the hand-written reader reports it (what its completion event says). */
interface ReaderOutcome {
  generation_id: string;
  index: number;
  status: string;
  url?: string;
  error?: string;
  media_type?: string;
}

/**
 * The hand-written reader: `GET /api/events`, the body split into SSE blocks by hand, the data of
 * each `media_generation_completed` parsed and turned into the outcome of its id (at the id's
 * position), until every id has one.
 */
async function handWritten(url: string, ids: string[], ready: () => void, list = false): Promise<ReaderOutcome[]> {
  const positions = new Map(ids.map((id, i) => [id, i]));
  const outcomes: ReaderOutcome[] = new Array<ReaderOutcome>(ids.length);
  let left = ids.length;
  const ctrl = new AbortController();
  const res = await fetch(`${url}/api/events`, {
    headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' },
    signal: ctrl.signal,
  });
  if (list) {
    // What queue.follow must do besides: check the ids once (one list of the active generations).
    const listed = await fetch(`${url}/api/ai/queue`, { headers: { authorization: `Bearer ${KEY}` } });
    const body = (await listed.json()) as { generations: Array<{ generation_id: string }> };
    const active = new Set(body.generations.map((g) => g.generation_id));
    if (!ids.every((id) => active.has(id))) throw new Error('the list does not show every id');
  }
  ready();
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (left > 0) {
      const { done, value } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = '';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data += line.slice(5).trim();
        }
        if (event !== 'media_generation_completed') continue;
        const d = JSON.parse(data) as {
          generation_id: string;
          status: string;
          url?: string;
          error?: string;
          media_type?: string;
        };
        const index = positions.get(d.generation_id);
        if (index === undefined || outcomes[index]) continue;
        outcomes[index] =
          d.status === 'succeeded'
            ? { generation_id: d.generation_id, index, status: 'succeeded', url: d.url, media_type: d.media_type }
            : { generation_id: d.generation_id, index, status: 'failed', error: d.error, media_type: d.media_type };
        left--;
      }
    }
  } finally {
    ctrl.abort();
  }
  return outcomes;
}

/** The reader's outcomes, checked as queue.follow's are (every id succeeded, with a URL, at its position). */
function checkReader(ids: string[], outcomes: ReaderOutcome[]): void {
  const ok = ids.filter(
    (id, i) => outcomes[i]?.generation_id === id && outcomes[i]?.status === 'succeeded' && outcomes[i]?.url,
  );
  if (ok.length !== ids.length) throw new Error(`reader: ${ok.length} of ${ids.length} succeeded`);
}

/** `queue.follow` through a new client (as after a restart), counting its requests; `ready` once its list was answered. */
async function sdk(
  C: typeof ClientType,
  url: string,
  ids: string[],
  ready: () => void,
  requests: string[],
): Promise<void> {
  const counting: typeof fetch = async (input, init) => {
    const u = new URL(input instanceof Request ? input.url : String(input));
    requests.push(`${init?.method ?? 'GET'} ${u.pathname}`);
    const res = await fetch(input, init);
    if (u.pathname === '/api/ai/queue') ready(); // the list was made: every id is still pending in it
    return res;
  };
  const client = new C({ apiKey: KEY, baseUrl: url, fetch: counting });
  const outcomes = await client.queue.follow(ids, { timeoutMs: 120_000 });
  const ok = outcomes.filter((o) => o.status === 'succeeded').length;
  if (ok !== ids.length) throw new Error(`queue.follow: ${ok} of ${ids.length} succeeded`);
}

const warnings: string[] = [];
process.on('warning', (w) => warnings.push(w.name));

const server = await ServerChild.start();
try {
  const sdkRequests: string[] = [];
  const cases: Record<string, (ids: string[], ready: () => void) => Promise<void>> = {
    'hand-written reader': async (ids, ready) => checkReader(ids, await handWritten(server.url, ids, ready)),
    'reader + one list': async (ids, ready) => checkReader(ids, await handWritten(server.url, ids, ready, true)),
    'queue.follow': (ids, ready) => sdk(Client, server.url, ids, ready, sdkRequests),
  };
  if (other) cases[other.label] = (ids, ready) => sdk(other.Client, server.url, ids, ready, []);
  const names = Object.keys(cases);
  const samples = new Map(names.map((n) => [n, [] as Sample[]]));
  for (let r = -1; r < ROUNDS; r++) {
    // Round -1 warms up (module loading, JIT) and is not counted; the order rotates.
    const first = ((r % names.length) + names.length) % names.length;
    for (const name of [...names.slice(first), ...names.slice(0, first)]) {
      const once = async (collect: boolean) => {
        const { ids } = await server.ask<{ ids: string[] }>({ add: IDS });
        if (name === 'queue.follow') sdkRequests.length = 0;
        let completed: Promise<unknown> | undefined;
        const ready = () => void (completed ??= server.ask({ complete: ids }));
        const sample = await measure(() => cases[name]!(ids, ready), collect);
        await completed;
        return sample;
      };
      const collected = await once(true);
      await once(false); // the JIT work the collection caused ends here (see the top of this file)
      const warm = await once(false);
      if (r >= 0)
        samples.get(name)!.push({
          cpuMs: warm.cpuMs,
          gcCpuMs: collected.cpuMs,
          heapMiB: collected.heapMiB,
          dataMiB: collected.dataMiB,
        });
    }
    if (r >= 0) console.error(`bench: round ${r + 1} of ${ROUNDS} done`);
  }
  const fmt = (xs: number[], unit: string, digits: number) =>
    `${median(xs).toFixed(digits)} ${unit} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
  console.log(`queue.follow of ${IDS} pending ids vs a hand-written event-stream reader, ${ROUNDS} interleaved rounds`);
  console.log(`  SDK: ${what}`);
  if (other) console.log(`  compared with: ${other.label.slice('queue.follow '.length)}`);
  const width = Math.max(22, ...names.map((n) => n.length));
  console.log(
    `  ${'case'.padEnd(width)} ${'CPU median (min-max)'.padEnd(22)} ${'CPU after gc'.padEnd(22)} ${'heap growth'.padEnd(23)} heap growth w/o code`,
  );
  for (const name of names) {
    const s = samples.get(name)!;
    const cpu = (f: (x: Sample) => number) => fmt(s.map(f), 'ms', 1).padEnd(22);
    const heap = (f: (x: Sample) => number) => fmt(s.map(f), 'MiB', 2).padEnd(23);
    console.log(
      `  ${name.padEnd(width)} ${cpu((x) => x.cpuMs)} ${cpu((x) => x.gcCpuMs)} ${heap((x) => x.heapMiB)} ${heap((x) => x.dataMiB)}`,
    );
  }
  for (const follow of ['queue.follow', ...(other ? [other.label] : [])])
    for (const base of ['hand-written reader', 'reader + one list']) {
      const ratio = (f: (x: Sample) => number) =>
        median(samples.get(follow)!.map(f)) / median(samples.get(base)!.map(f));
      console.log(
        `  ratio ${follow} / ${base}: CPU ${ratio((x) => x.cpuMs).toFixed(2)}x (after gc ${ratio((x) => x.gcCpuMs).toFixed(2)}x), heap growth ${ratio((x) => x.heapMiB).toFixed(2)}x (w/o code ${ratio((x) => x.dataMiB).toFixed(2)}x)`,
      );
    }
  const byKind = new Map<string, number>();
  for (const r of sdkRequests) {
    const kind = r.replace(/\/api\/ai\/queue\/[^/]+$/, '/api/ai/queue/{id}');
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }
  console.log(
    `  queue.follow's requests (last round): ${[...byKind].map(([k, n]) => `${k} x${n}`).join(', ')}; ` +
      `MaxListenersExceededWarning: ${warnings.filter((w) => w === 'MaxListenersExceededWarning').length}`,
  );
} finally {
  server.stop();
}
