// `npm run bench:runtime`: the runtime's overhead and queue.run at scale, on the local server.
// (a) An SDK call vs a raw `fetch` of the same request (interleaved, after a warm-up): medians and
//     ratios, against a bare fetch and against a fetch with the same per-call timeout as the SDK.
// (b) queue.run over 1000 generations (250 concurrent runs of num_generations 4) on one client and
//     one event stream: wall time, peak RSS (sampled), outcome counts; every outcome must arrive.
// (c) the same while the server drops the event stream every 300 ms: the shared stream reconnects
//     at once after each drop, so few generations end `lost` (a stream that backed off after a drop
//     would miss most completion events).
// (d) logging off / info / a hook vs the base revision, interleaved (scripts/bench/logging-off.ts).
// Absolute times depend on the machine and are never asserted; only the outcomes are.
import { Client } from '../../index.ts';
import { startServer } from '../../fake-service/index.ts';
import { median } from '../lib/rounds.ts';

const N = Number(process.env['BENCH_N'] ?? 1000);
const WARMUP = 300;
const RUNS = 250;
const PER_RUN = 4;

const fmt = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

// ---------------------------------------------------------------------------------------------
// (a) SDK vs raw fetch
{
  const server = await startServer({ decide: () => ({ outcome: 'hold' }) });
  try {
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url });
    const { generations } = await client.queue.enqueue({ model: 'flux-1-dev', prompt: 'bench' });
    const id = generations[0]!.generation_id;
    const headers = { authorization: 'Bearer test-key', accept: 'application/json' };
    // Bare fetch: no timeout, no retries.
    const bare = (url: string) => async () => {
      const res = await fetch(url, { headers });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return (await res.json()) as unknown;
    };
    // Fetch with the same per-call timeout the SDK applies (an AbortController and a timer):
    // the fair baseline, since undici's handling of an AbortSignal alone costs a few percent.
    const withTimeout = (url: string) => async () => {
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), 600_000);
      try {
        const res = await fetch(url, { headers, signal: ac.signal });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return (await res.json()) as unknown;
      } finally {
        clearTimeout(timer);
      }
    };
    const cases = [
      {
        name: 'queue.get',
        sdk: () => client.queue.get(id),
        url: `${server.url}/api/ai/queue/${encodeURIComponent(id)}`,
      },
      {
        name: 'models.retrieve',
        sdk: () => client.models.retrieve('flux-1-dev'),
        url: `${server.url}/api/ai/models/flux-1-dev`,
      },
    ];
    for (const c of cases) {
      const fns = [c.sdk, bare(c.url), withTimeout(c.url)];
      const times: number[][] = fns.map(() => []);
      for (let i = 0; i < WARMUP; i++) for (const f of fns) await f();
      for (let i = 0; i < N; i++) {
        // Interleaved, rotating which goes first, so drift affects all equally.
        for (let k = 0; k < fns.length; k++) {
          const j = (i + k) % fns.length;
          const t = performance.now();
          await fns[j]!();
          times[j]!.push(performance.now() - t);
        }
      }
      const [ms, mb, mt] = times.map(median) as [number, number, number];
      console.log(
        `(a) ${c.name.padEnd(16)} N=${N}  SDK ${fmt(ms)}  raw fetch ${fmt(mb)} (ratio ${(ms / mb).toFixed(2)}x)  ` +
          `raw fetch + AbortController timeout ${fmt(mt)} (ratio ${(ms / mt).toFixed(2)}x)`,
      );
    }
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------
// (b) queue.run x 250 concurrent, 4 generations each, one client, one event stream
{
  // Workers finish 20-120 ms after enqueue; every 10th run is a "[fail]" prompt.
  const server = await startServer({
    workerDelayMs: 20,
    unrelatedEvents: true,
    decide: ({ params, index }) => {
      const failing = String(params['prompt']).includes('[fail]');
      return {
        outcome: failing ? 'failed' : 'succeeded',
        delayMs: 20 + ((index * 37) % 100),
        ...(failing ? { error: 'bench failure' } : {}),
      };
    },
  });
  try {
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url });
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const t0 = performance.now();
    const results = await Promise.all(
      Array.from({ length: RUNS }, (_, i) =>
        client.queue.run(
          { model: 'flux-1-dev', prompt: i % 10 === 0 ? `bench ${i} [fail]` : `bench ${i}`, num_generations: PER_RUN },
          { timeoutMs: 120_000 },
        ),
      ),
    );
    const wall = performance.now() - t0;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    const outcomes = results.flat();
    const counts: Record<string, number> = {};
    for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
    const ids = new Set(outcomes.map((o) => o.generation_id));
    const streams = server.count('GET', '/api/events');
    const polls = server.count('GET', /^\/api\/ai\/queue\//);
    console.log(
      `(b) queue.run ${RUNS} runs x ${PER_RUN} = ${outcomes.length} generations  wall ${wall.toFixed(0)} ms  ` +
        `(${((outcomes.length / wall) * 1000).toFixed(0)} outcomes/s)  peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB ` +
        `(+${((peak - rssBefore) / 2 ** 20).toFixed(0)} MiB; client and server share the process)`,
    );
    console.log(
      `    outcomes: ${Object.entries(counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}  event-stream connections ${streams}  reconciliation GETs ${polls}`,
    );

    const expected = RUNS * PER_RUN;
    const problems: string[] = [];
    if (outcomes.length !== expected || ids.size !== expected)
      problems.push(`expected ${expected} distinct outcomes, got ${outcomes.length} (${ids.size} distinct)`);
    if ((counts['succeeded'] ?? 0) !== expected * 0.9 || (counts['failed'] ?? 0) !== expected * 0.1)
      problems.push(`unexpected outcome counts ${JSON.stringify(counts)}`);
    if (streams !== 1) problems.push(`expected one /api/events connection, got ${streams}`);
    if (client.queue.eventStream.state !== 'idle') problems.push('the shared event stream is still open');
    if (problems.length > 0) {
      console.error(`FAIL: ${problems.join('; ')}`);
      process.exitCode = 1;
    } else {
      console.log('    every outcome delivered (one per generation) over one event stream');
    }
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------
// (c) queue.run x 250 while the event stream drops every 300 ms
{
  const server = await startServer({
    workerDelayMs: 20,
    unrelatedEvents: false,
    decide: ({ index, params }) => ({
      outcome: 'succeeded',
      delayMs: 50 + ((Number(String(params['prompt']).split(' ')[1]) * 7 + index * 131) % 3000),
    }),
  });
  const dropper = setInterval(() => server.dropEventStreams(), 300);
  try {
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url });
    const t0 = performance.now();
    const results = await Promise.all(
      Array.from({ length: RUNS }, (_, i) =>
        client.queue.run(
          { model: 'flux-1-dev', prompt: `bench ${i}`, num_generations: PER_RUN },
          { timeoutMs: 120_000, lostGraceMs: 500 },
        ),
      ),
    );
    const wall = performance.now() - t0;
    const outcomes = results.flat();
    const counts: Record<string, number> = {};
    for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
    console.log(
      `(c) queue.run ${RUNS} x ${PER_RUN} with the event stream dropped every 300 ms: wall ${wall.toFixed(0)} ms  outcomes: ${Object.entries(
        counts,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}  ` +
        `event-stream connections ${server.count('GET', '/api/events')}  reconciliation lists ${server.count('GET', /^\/api\/ai\/queue$/)}, GETs ${server.count('GET', /^\/api\/ai\/queue\//)}`,
    );
    if (outcomes.length !== RUNS * PER_RUN) {
      console.error(`FAIL: expected ${RUNS * PER_RUN} outcomes, got ${outcomes.length}`);
      process.exitCode = 1;
    }
  } finally {
    clearInterval(dropper);
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------
// (d) a call with logging off, at info, with a hook, against the base revision: see logging-off.ts
{
  const { benchLoggingOff } = await import('./logging-off.ts');
  await benchLoggingOff();
}
