/**
 * `npm run bench:generate`: times a cold `generate` (a fresh Node process each run) over the
 * snapshot and over a 4x copy of it (ids suffixed `-copy2` ... `-copy4`), in two situations:
 * - fresh: into a new, empty output root, so every file is emitted, formatted and written
 *   (as on a first run; the output cache cannot reuse anything);
 * - up to date: again over that output root, with the output cache of the previous run (as
 *   `npm run generate` or `--check` after a change that touched few or no files).
 * It prints the median wall time, the median time inside `generate()`, the peak RSS, and the
 * ratio 4x / 1x. Timings on a shared 2-core machine are noisy: read medians and the ratio, not
 * single runs. A benchmark, not a test: it asserts nothing about time.
 *   --runs N   runs per size (default 5)
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { REPO_ROOT } from '../generator/index.ts';

const CHILD = process.env['BENCH_GENERATE_CHILD'];
if (CHILD) {
  // child mode: one cold generate; report its own time and peak memory
  const t0 = performance.now();
  const { generate } = await import('../generator/index.ts');
  const r = await generate({ specsDir: process.env['BENCH_SPECS']!, outRoot: process.env['BENCH_OUT']! });
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ ms, models: r.models, files: r.files.size, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);

async function makeSpecs(root: string, copies: number): Promise<string> {
  const specs = path.join(root, 'specs');
  await mkdir(path.join(specs, 'models'), { recursive: true });
  await cp(path.join(REPO_ROOT, 'specs/openapi.yaml'), path.join(specs, 'openapi.yaml'));
  const ids = JSON.parse(await readFile(path.join(REPO_ROOT, 'specs/models.json'), 'utf8')) as string[];
  const all: string[] = [];
  for (let c = 1; c <= copies; c++) {
    for (const id of ids) {
      const newId = c === 1 ? id : `${id}-copy${c}`;
      const obj = JSON.parse(await readFile(path.join(REPO_ROOT, 'specs/models', `${id}.json`), 'utf8'));
      obj.id = newId;
      await writeFile(path.join(specs, 'models', `${newId}.json`), JSON.stringify(obj, null, 2) + '\n');
      all.push(newId);
    }
  }
  await writeFile(path.join(specs, 'models.json'), JSON.stringify(all.sort(), null, 2) + '\n');
  return specs;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const root = await mkdtemp(path.join(tmpdir(), 'bench-generate-'));
try {
  const results: Record<string, { wall: number; inside: number; rss: number; models: number }> = {};
  for (const copies of [1, 4]) {
    const specs = await makeSpecs(path.join(root, `x${copies}`), copies);
    for (const mode of ['fresh', 'up to date'] as const) {
      const walls: number[] = [];
      const insides: number[] = [];
      const rss: number[] = [];
      let models = 0;
      const kept = path.join(root, `kept-${copies}`);
      for (let i = 0; i < runs; i++) {
        const out = mode === 'fresh' ? path.join(root, `out-${copies}-${i}`) : kept;
        const t0 = performance.now();
        const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/bench-generate.ts')], {
          cwd: REPO_ROOT,
          env: { ...process.env, BENCH_GENERATE_CHILD: '1', BENCH_SPECS: specs, BENCH_OUT: out },
          maxBuffer: 16 << 20,
        });
        walls.push(performance.now() - t0);
        const r = JSON.parse(stdout.trim().split('\n').pop()!);
        insides.push(r.ms);
        rss.push(r.maxRssMiB);
        models = r.models;
        if (mode === 'fresh') {
          if (i === 0) await cp(out, kept, { recursive: true }); // the up-to-date runs start from this output
          await rm(out, { recursive: true, force: true });
        }
      }
      results[`${copies}x ${mode}`] = { wall: median(walls), inside: median(insides), rss: Math.max(...rss), models };
      console.log(`${copies}x snapshot (${models} models), ${mode}, ${runs} cold runs: median wall ${(median(walls) / 1000).toFixed(2)} s (process start to exit), median generate() ${(median(insides) / 1000).toFixed(2)} s, peak RSS ${Math.round(Math.max(...rss))} MiB`);
    }
  }
  for (const mode of ['fresh', 'up to date']) {
    const ratio = results[`4x ${mode}`]!.wall / results[`1x ${mode}`]!.wall;
    console.log(`${mode}: ratio 4x / 1x (median wall) ${ratio.toFixed(2)} (aim: under 2.5); 1x ${(results[`1x ${mode}`]!.wall / 1000).toFixed(2)} s (aim: under 2 s)`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
