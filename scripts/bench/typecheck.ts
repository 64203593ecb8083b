/**
 * `npm run bench:typecheck`: what the package costs a TypeScript consumer's compile.
 *
 * Packs the package (`npm pack`, whose `prepack` builds dist/), installs the tarball into a temporary
 * consumer, and compiles with `tsc --extendedDiagnostics` (moduleResolution nodenext, strict):
 *   - `calls`: 20 typed calls across images.generate, images.edit, videos.generate, the queue and chat,
 *   - `empty`: an empty module with the same settings (the baseline),
 * each with `skipLibCheck` on (the common setting) and off. The same again with the snapshot copied 4x
 * (every model under 4 ids: 444 models), generated and built in a temporary copy of the repository.
 * Every figure is the median of interleaved runs: wall time, check time, types, memory.
 * Aim (with skipLibCheck): calls ≤ 1.3x empty, and calls(4x) < 1.2x calls(1x).
 *
 *   --runs N       runs per configuration (default 5)
 *   --trace        also write `tsc --generateTrace` for `calls` with skipLibCheck (1x and 4x) and print
 *                  where the check time goes (per file and per kind of work)
 *   --source DIR   bench another checkout instead of this working tree (its node_modules is not used)
 *   --keep         keep the temporary directory (its path is printed)
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../../generator/paths.ts';
import { installTarball, packPackage } from '../lib/pack.ts';
import { run } from '../lib/process.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    trace: { type: 'boolean', default: false },
    source: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
  strict: true,
});
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`bench:typecheck: --runs needs a positive integer, got ${JSON.stringify(values.runs)}`);
  process.exit(2);
}
const SOURCE = path.resolve(values.source ?? REPO_ROOT);
const TSC = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const COPIES = 4;

/** The consumer: 20 typed calls through the root client. */
const CALLS = `import { Client } from 'oxen-inference-sdk';

declare const client: Client;
declare const signal: AbortSignal;

export async function calls(): Promise<unknown[]> {
  const messages = [{ role: 'user' as const, content: 'hi' }];
  const r01 = await client.images.generate({ model: 'flux-2-pro', prompt: 'a fox', aspect_ratio: '16:9' });
  const r02 = await client.images.generate({ model: 'flux-1-dev', prompt: 'a fox', response_format: 'b64_json' });
  const r03 = await client.images.generate({ model: 'gpt-image-2', prompt: 'a fox' });
  const r04 = await client.images.generate({ model: 'qwen-image', prompt: 'a fox' });
  const r05 = await client.images.edit({ model: 'flux-kontext-dev', prompt: 'snow', input_image: 'https://e.com/a.png' });
  const r06 = await client.images.edit({ model: 'flux-2-pro', prompt: 'snow', input_image: ['https://e.com/a.png'] });
  const r07 = await client.images.edit({ model: 'qwen-image-edit', prompt: 'snow', input_image: 'https://e.com/a.png' });
  const r08 = await client.videos.generate({ model: 'google-veo-3-1', prompt: 'waves', duration: 8 });
  const r09 = await client.videos.generate({ model: 'topazlabs-video-upscale', input_video: 'https://e.com/a.mp4' });
  const r10 = await client.videos.generate({ model: 'kling-video-o3-omni', prompt: 'waves', response_format: 'b64_json' });
  const r11 = await client.videos.generate({ model: 'wan-v3-0-video', prompt: 'waves' });
  const r12 = await client.queue.enqueue({ model: 'flux-2-pro', prompt: 'a fox', num_generations: 2 });
  const r13 = await client.queue.enqueue({ model: 'google-veo-3-1', prompt: 'waves', duration: 4 });
  const r14 = await client.queue.run({ model: 'flux-1-dev', prompt: 'a fox' }, { timeoutMs: 60_000, signal });
  const r15 = await client.queue.run({ model: 'google-veo-3-1-lite', prompt: 'waves' });
  const r16 = await client.queue.list({ namespace: 'acme', model: 'flux-2-pro' });
  const r17 = await client.queue.get('id');
  const r18 = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
  const r19 = await client.chat.completions.create({ model: 'claude-sonnet-4-5', messages, stream: true });
  const r20 = await client.chat.completions.create({ model: 'gpt-5-mini', messages, max_tokens: 100 });
  return [r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r20];
}
`;
const EMPTY = 'export {};\n';

type Program = 'empty' | 'calls';
interface Config {
  variant: '1x' | '4x';
  skipLibCheck: boolean;
  program: Program;
  dir: string;
}
interface Sample {
  wallMs: number;
  checkMs: number;
  types: number;
  memoryKB: number;
  files: number;
}

function writeProject(dir: string, program: Program, skipLibCheck: boolean): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: path.basename(dir), private: true, type: 'module' }),
  );
  const compilerOptions = {
    strict: true,
    skipLibCheck,
    noEmit: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: [],
  };
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['main.ts'] }, null, 2));
  writeFileSync(path.join(dir, 'main.ts'), program === 'calls' ? CALLS : EMPTY);
}

/** Copies every model of the copy's snapshot under `COPIES` ids (`<id>`, `<id>-copy2`, ...). */
async function multiplySnapshot(source: string): Promise<void> {
  const specs = path.join(source, 'specs');
  const ids = JSON.parse(readFileSync(path.join(specs, 'models.json'), 'utf8')) as string[];
  const all: string[] = [];
  for (const id of ids) {
    const model = JSON.parse(readFileSync(path.join(specs, 'models', `${id}.json`), 'utf8')) as Record<string, unknown>;
    all.push(id);
    for (let copy = 2; copy <= COPIES; copy++) {
      const copyId = `${id}-copy${copy}`;
      all.push(copyId);
      writeFileSync(
        path.join(specs, 'models', `${copyId}.json`),
        JSON.stringify({ ...model, id: copyId }, null, 2) + '\n',
      );
    }
  }
  writeFileSync(path.join(specs, 'models.json'), JSON.stringify(all.sort(), null, 2) + '\n');
  const tsx = path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const result = await run(process.execPath, [tsx, 'scripts/generate.ts'], { cwd: source, timeoutMs: 900_000 });
  if (result.code !== 0) throw new Error(`generate (${all.length} models) failed:\n${result.stdout}\n${result.stderr}`);
  const generated = readdirSync(path.join(source, 'generated', 'models')).filter((f) => f.endsWith('.ts')).length;
  console.error(`  generated ${generated} model modules (${all.length} models in the snapshot)`);
}

async function tsc(args: string[], cwd: string): Promise<{ code: number; out: string; wallMs: number }> {
  const started = performance.now();
  const r = await run(process.execPath, [TSC, ...args], { cwd, timeoutMs: 3_600_000 });
  return { code: r.code ?? 1, out: r.stdout + r.stderr, wallMs: performance.now() - started };
}

function diagnostic(out: string, label: string): number {
  const m = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(out);
  if (!m) throw new Error(`tsc --extendedDiagnostics printed no "${label}":\n${out}`);
  return Number(m[1]);
}

async function measure(config: Config): Promise<Sample> {
  const { code, out, wallMs } = await tsc(['-p', config.dir, '--extendedDiagnostics'], config.dir);
  if (code !== 0) throw new Error(`tsc failed for ${describe(config)}:\n${out}`);
  return {
    wallMs,
    checkMs: diagnostic(out, 'Check time') * 1000,
    types: diagnostic(out, 'Types'),
    memoryKB: diagnostic(out, 'Memory used'),
    files: diagnostic(out, 'Files'),
  };
}

function describe(c: Pick<Config, 'variant' | 'skipLibCheck' | 'program'>): string {
  return `${c.variant} skipLibCheck=${c.skipLibCheck} ${c.program}`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The part of the program a file belongs to, for the trace summary. */
function partOf(file: string): string {
  if (/\/typescript\/lib\//.test(file)) return 'TypeScript lib files';
  const sdk = /\/node_modules\/oxen-inference-sdk\/dist\/(.*)$/.exec(file);
  if (sdk) {
    if (sdk[1] === 'index.d.ts') return 'oxen-inference-sdk: root declarations (index.d.ts)';
    if (sdk[1]!.startsWith('models/')) return 'oxen-inference-sdk: model modules (models/*.d.ts)';
    return 'oxen-inference-sdk: runtime declarations (runtime/ and the other source files)';
  }
  if (file.includes('/node_modules/')) return 'other packages';
  return 'the consumer';
}

/**
 * Where the time goes in a `--generateTrace` directory: parse and bind time per part of the program (with
 * its file count), then the costliest expressions of the consumer (by line).
 */
function summariseTrace(traceDir: string, consumerFile: string): string {
  const file = readdirSync(traceDir).find((f) => f.startsWith('trace') && f.endsWith('.json'));
  if (!file) return '  (no trace written)';
  type TraceEvent = {
    name: string;
    ph: string;
    ts: number;
    dur?: number;
    args?: { path?: string; pos?: number; end?: number };
  };
  const events = JSON.parse(readFileSync(path.join(traceDir, file), 'utf8')) as TraceEvent[];
  const parts = new Map<string, { files: Set<string>; parseMs: number; bindMs: number }>();
  const open = new Map<string, number>();
  for (const e of events) {
    if ((e.name !== 'createSourceFile' && e.name !== 'bindSourceFile') || !e.args?.path) continue;
    const key = `${e.name}\0${e.args.path}`;
    if (e.ph === 'B') open.set(key, e.ts);
    else if (e.ph === 'E' && open.has(key)) {
      const part = partOf(e.args.path);
      const entry = parts.get(part) ?? { files: new Set<string>(), parseMs: 0, bindMs: 0 };
      entry.files.add(e.args.path);
      const ms = (e.ts - open.get(key)!) / 1000;
      if (e.name === 'createSourceFile') entry.parseMs += ms;
      else entry.bindMs += ms;
      parts.set(part, entry);
      open.delete(key);
    }
  }
  const lines = ['  parse + bind by part of the program (ms):'];
  for (const [part, p] of [...parts].sort((a, b) => b[1].parseMs + b[1].bindMs - (a[1].parseMs + a[1].bindMs))) {
    lines.push(
      `    ${(p.parseMs + p.bindMs).toFixed(0).padStart(6)}  (parse ${p.parseMs.toFixed(0)}, bind ${p.bindMs.toFixed(0)})  ${part}, ${p.files.size} files`,
    );
  }
  const source = readFileSync(consumerFile, 'utf8');
  const lineOf = (pos: number): number => source.slice(0, pos).split('\n').length;
  const checks = events.filter(
    (e) =>
      e.name === 'checkExpression' &&
      e.ph === 'X' &&
      e.dur !== undefined &&
      e.args?.path === consumerFile &&
      e.args.pos !== undefined,
  );
  // outermost expressions only: an expression nested in a costlier one on the same range is counted there
  checks.sort((a, b) => b.dur! - a.dur!);
  const top = checks
    .filter((e, i) => !checks.slice(0, i).some((o) => o.args!.pos! <= e.args!.pos! && e.args!.end! <= o.args!.end!))
    .slice(0, 6);
  lines.push('  costliest expressions of the consumer (ms, check):');
  for (const e of top)
    lines.push(
      `    ${(e.dur! / 1000).toFixed(0).padStart(6)}  main.ts:${lineOf(e.args!.pos!)}  ${source.slice(e.args!.pos, e.args!.end).trim().replace(/\s+/g, ' ').slice(0, 90)}`,
    );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const dir0 = mkdtempSync(path.join(tmpdir(), 'inference-sdk-bench-typecheck-'));
  const root = { dir: dir0, remove: () => rmSync(dir0, { recursive: true, force: true }) };
  try {
    const configs: Config[] = [];
    for (const variant of ['1x', '4x'] as const) {
      console.error(
        `${variant}: packing${variant === '4x' ? ` (snapshot copied ${COPIES}x, generated and built)` : ''}...`,
      );
      const dir = path.join(root.dir, variant);
      const pack = await packPackage(dir, { from: SOURCE, ...(variant === '4x' ? { prepare: multiplySnapshot } : {}) });
      const consumers = path.join(dir, 'consumers');
      await installTarball(consumers, pack.tarball);
      for (const skipLibCheck of [true, false]) {
        for (const program of ['empty', 'calls'] as const) {
          const projectDir = path.join(consumers, `${program}-${skipLibCheck ? 'skip' : 'full'}`);
          writeProject(projectDir, program, skipLibCheck);
          configs.push({ variant, skipLibCheck, program, dir: projectDir });
        }
      }
    }

    const samples = new Map<Config, Sample[]>(configs.map((c) => [c, []]));
    for (const c of configs) await measure(c); // warm the file system cache; not counted
    for (let r = 1; r <= RUNS; r++) {
      console.error(`run ${r}/${RUNS}`);
      for (const c of configs) samples.get(c)!.push(await measure(c));
    }

    const med = (c: Config): Sample => {
      const s = samples.get(c)!;
      return {
        wallMs: median(s.map((x) => x.wallMs)),
        checkMs: median(s.map((x) => x.checkMs)),
        types: median(s.map((x) => x.types)),
        memoryKB: median(s.map((x) => x.memoryKB)),
        files: median(s.map((x) => x.files)),
      };
    };
    const find = (variant: Config['variant'], skipLibCheck: boolean, program: Program): Config =>
      configs.find((c) => c.variant === variant && c.skipLibCheck === skipLibCheck && c.program === program)!;

    const rows = [['models', 'skipLibCheck', 'program', 'files', 'wall ms', 'check ms', 'types', 'memory MB']];
    for (const c of configs) {
      const m = med(c);
      rows.push([
        c.variant === '1x' ? 'snapshot' : `${COPIES}x`,
        String(c.skipLibCheck),
        c.program,
        String(m.files),
        m.wallMs.toFixed(0),
        m.checkMs.toFixed(0),
        String(m.types),
        (m.memoryKB / 1024).toFixed(0),
      ]);
    }
    const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
    const ratios = [['models', 'skipLibCheck', 'calls / empty: wall', 'check', 'types', 'memory']];
    for (const variant of ['1x', '4x'] as const) {
      for (const skip of [true, false]) {
        const calls = med(find(variant, skip, 'calls'));
        const empty = med(find(variant, skip, 'empty'));
        ratios.push([
          variant === '1x' ? 'snapshot' : `${COPIES}x`,
          String(skip),
          ratio(calls.wallMs, empty.wallMs),
          ratio(calls.checkMs, Math.max(empty.checkMs, 1)),
          ratio(calls.types, empty.types),
          ratio(calls.memoryKB, empty.memoryKB),
        ]);
      }
    }
    const growth = [['skipLibCheck', `calls ${COPIES}x / 1x: wall`, 'check', 'types', 'memory']];
    for (const skip of [true, false]) {
      const one = med(find('1x', skip, 'calls'));
      const four = med(find('4x', skip, 'calls'));
      growth.push([
        String(skip),
        ratio(four.wallMs, one.wallMs),
        ratio(four.checkMs, one.checkMs),
        ratio(four.types, one.types),
        ratio(four.memoryKB, one.memoryKB),
      ]);
    }

    console.log(
      `\ntsc ${(JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string }).version}, medians of ${RUNS} interleaved runs (consumer: 20 typed calls; baseline: an empty module, same settings)\n`,
    );
    console.log(table(rows));
    console.log('');
    console.log(table(ratios));
    console.log('');
    console.log(table(growth));
    const skipRatio = med(find('1x', true, 'calls')).wallMs / med(find('1x', true, 'empty')).wallMs;
    const skipGrowth = med(find('4x', true, 'calls')).wallMs / med(find('1x', true, 'calls')).wallMs;
    console.log(
      `\naim (skipLibCheck, wall): calls/empty ${skipRatio.toFixed(2)}x (≤ 1.30x: ${skipRatio <= 1.3 ? 'met' : 'missed'}); ${COPIES}x/1x ${skipGrowth.toFixed(2)}x (< 1.20x: ${skipGrowth < 1.2 ? 'met' : 'missed'})`,
    );

    if (values.trace) {
      for (const variant of ['1x', '4x'] as const) {
        const c = find(variant, true, 'calls');
        const traceDir = path.join(root.dir, `trace-${variant}`);
        await tsc(['-p', c.dir, '--generateTrace', traceDir], c.dir);
        console.log(`\ntrace, ${describe(c)} (${traceDir}):\n${summariseTrace(traceDir, path.join(c.dir, 'main.ts'))}`);
      }
    }
  } finally {
    if (values.keep) console.error(`kept ${root.dir}`);
    else root.remove();
  }
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
    .join('\n');
}

await main();
