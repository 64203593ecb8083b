/**
 * `npm run bench:typecheck`: what the package costs a TypeScript consumer's compile, beside `openai`
 * and `@fal-ai/client` in the same run.
 *
 * Packs the package (`npm pack`, whose `prepack` builds dist/), installs the tarball into a temporary
 * consumer, and times `tsc -p` (moduleResolution nodenext, strict, `files: ['main.ts']`) on:
 *   - `empty`: an empty module (the baseline of every ratio),
 *   - `1 call` and `20 calls` through the package root's `Client` (the snapshot's 111 models),
 *   - the same programs through a user's `<out>/index.ts` (oxen-inference-codegen's user target) of
 *     178 and of 250 models: the package's plus renamed copies of its snapshot (`<id>-copy1`, ...),
 *     generated into the consumer by the source's own generator,
 *   - `1 call` and `20 calls` of `openai` (chat, images, embeddings) and `@fal-ai/client` (`subscribe`,
 *     `queue.submit`, `run` of typed endpoints),
 * each with `skipLibCheck` on (the common setting) and off. The cases run in interleaved rounds
 * (`scripts/lib/rounds.ts`); each line gives the median wall time, the min-max, and the ratio of
 * medians to `empty` with the same setting; beside them the median CPU time (user + system) and its
 * ratio, steadier than wall time on a shared machine, and the files, types and instantiations of
 * the program (`--extendedDiagnostics`, the same in every run).
 * Aims: every SDK case within 1.3x `empty` for 1 call and 1.5x for 20 calls; a 250-model index within
 * 1.1x the root.
 *
 *   --runs N       rounds (default 5)
 *   --trace        also write `tsc --generateTrace` for the skipLibCheck 20-call programs (root, 250)
 *                  and print where the time goes (parse and bind per part, check per file, costliest
 *                  expressions of the consumer)
 *   --source DIR   bench another checkout instead of this working tree (its node_modules is not used)
 *   --keep         keep the temporary directory (its path is printed)
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../../generator/paths.ts';
import { installTarball, packPackage } from '../lib/pack.ts';
import { run } from '../lib/process.ts';
import { median, runRoundsDetailed, type BenchCase, type Sample } from '../lib/rounds.ts';

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
const TSX = path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
/** The user indexes: total models (the package's 111 plus renamed copies of its snapshot). */
const USER_SIZES = [178, 250];

/** The SDK consumer's calls; `from` is the module `Client` comes from. */
function sdkProgram(from: string, calls: 1 | 20): string {
  const all = [
    `client.images.generate({ model: 'flux-2-pro', prompt: 'a fox', aspect_ratio: '16:9' })`,
    `client.images.generate({ model: 'flux-1-dev', prompt: 'a fox', response_format: 'b64_json' })`,
    `client.images.generate({ model: 'gpt-image-2', prompt: 'a fox' })`,
    `client.images.generate({ model: 'qwen-image', prompt: 'a fox' })`,
    `client.images.edit({ model: 'flux-kontext-dev', prompt: 'snow', input_image: 'https://e.com/a.png' })`,
    `client.images.edit({ model: 'flux-2-pro', prompt: 'snow', input_image: ['https://e.com/a.png'] })`,
    `client.images.edit({ model: 'qwen-image-edit', prompt: 'snow', input_image: 'https://e.com/a.png' })`,
    `client.videos.generate({ model: 'google-veo-3-1', prompt: 'waves', duration: 8 })`,
    `client.videos.generate({ model: 'topazlabs-video-upscale', input_video: 'https://e.com/a.mp4' })`,
    `client.videos.generate({ model: 'kling-video-o3-omni', prompt: 'waves', response_format: 'b64_json' })`,
    `client.videos.generate({ model: 'wan-v3-0-video', prompt: 'waves' })`,
    `client.queue.enqueue({ model: 'flux-2-pro', prompt: 'a fox', num_generations: 2 })`,
    `client.queue.enqueue({ model: 'google-veo-3-1', prompt: 'waves', duration: 4 })`,
    `client.queue.run({ model: 'flux-1-dev', prompt: 'a fox' }, { timeoutMs: 60_000, signal })`,
    `client.queue.run({ model: 'google-veo-3-1-lite', prompt: 'waves' })`,
    `client.queue.list({ namespace: 'acme', model: 'flux-2-pro' })`,
    `client.queue.get('id')`,
    `client.chat.completions.create({ model: 'gpt-4o-mini', messages })`,
    `client.chat.completions.create({ model: 'claude-sonnet-4-5', messages, stream: true })`,
    `client.chat.completions.create({ model: 'gpt-5-mini', messages, max_tokens: 100 })`,
  ];
  return program(`import { Client } from '${from}';\n\ndeclare const client: Client;`, all.slice(0, calls));
}

function openaiProgram(calls: 1 | 20): string {
  const all = [
    `client.chat.completions.create({ model: 'gpt-4o-mini', messages })`,
    `client.chat.completions.create({ model: 'gpt-4o', messages, stream: true })`,
    `client.chat.completions.create({ model: 'gpt-4o-mini', messages, max_tokens: 100, temperature: 0.2 })`,
    `client.chat.completions.create({ model: 'gpt-4o-mini', messages, response_format: { type: 'json_object' } })`,
    `client.images.generate({ model: 'dall-e-3', prompt: 'a fox', size: '1024x1024' })`,
    `client.images.generate({ model: 'gpt-image-1', prompt: 'a fox', response_format: 'b64_json' })`,
    `client.images.generate({ model: 'dall-e-2', prompt: 'a fox', n: 2 })`,
    `client.images.generate({ prompt: 'a fox', quality: 'hd' })`,
    `client.images.createVariation({ image: file })`,
    `client.images.edit({ image: file, prompt: 'snow' })`,
    `client.images.edit({ image: file, prompt: 'snow', size: '512x512' })`,
    `client.embeddings.create({ model: 'text-embedding-3-small', input: 'hi' })`,
    `client.embeddings.create({ model: 'text-embedding-3-large', input: ['a', 'b'], dimensions: 256 })`,
    `client.moderations.create({ input: 'hi' })`,
    `client.models.retrieve('gpt-4o')`,
    `client.models.list()`,
    `client.files.retrieve('file-1')`,
    `client.chat.completions.create({ model: 'gpt-4o-mini', messages, n: 2 })`,
    `client.chat.completions.create({ model: 'o3-mini', messages, reasoning_effort: 'low' })`,
    `client.chat.completions.create({ model: 'gpt-4o-mini', messages, seed: 1, stop: ['\\n'] })`,
  ];
  return program(
    `import OpenAI from 'openai';\n\ndeclare const client: OpenAI;\ndeclare const file: File;`,
    all.slice(0, calls),
  );
}

function falProgram(calls: 1 | 20): string {
  const all = [
    `fal.subscribe('fal-ai/flux/dev', { input: { prompt: 'a fox' } })`,
    `fal.subscribe('fal-ai/flux/schnell', { input: { prompt: 'a fox', num_images: 2 } })`,
    `fal.subscribe('fal-ai/flux-pro/v1.1', { input: { prompt: 'a fox' } })`,
    `fal.subscribe('fal-ai/fast-sdxl', { input: { prompt: 'a fox' } })`,
    `fal.subscribe('fal-ai/flux-pro/kontext', { input: { prompt: 'snow', image_url: 'https://e.com/a.png' } })`,
    `fal.subscribe('fal-ai/flux/dev', { input: { prompt: 'a fox', seed: 1 }, logs: true })`,
    `fal.subscribe('fal-ai/flux/schnell', { input: { prompt: 'a fox' }, abortSignal: signal })`,
    `fal.subscribe('fal-ai/kling-video/v2/master/text-to-video', { input: { prompt: 'waves' } })`,
    `fal.subscribe('fal-ai/minimax/video-01', { input: { prompt: 'waves' } })`,
    `fal.subscribe('fal-ai/veo3', { input: { prompt: 'waves' } })`,
    `fal.subscribe('fal-ai/kling-video/v2/master/text-to-video', { input: { prompt: 'waves', duration: '5' } })`,
    `fal.queue.submit('fal-ai/flux/dev', { input: { prompt: 'a fox' } })`,
    `fal.queue.submit('fal-ai/veo3', { input: { prompt: 'waves' } })`,
    `fal.run('fal-ai/flux/dev', { input: { prompt: 'a fox' }, abortSignal: signal })`,
    `fal.run('fal-ai/minimax/video-01', { input: { prompt: 'waves' } })`,
    `fal.queue.status('fal-ai/flux/dev', { requestId: 'id' })`,
    `fal.queue.result('fal-ai/flux/dev', { requestId: 'id' })`,
    `fal.run('fal-ai/fast-sdxl', { input: { prompt: 'a fox' } })`,
    `fal.run('fal-ai/flux-pro/v1.1', { input: { prompt: 'a fox' } })`,
    `fal.run('fal-ai/flux/schnell', { input: { prompt: 'a fox' } })`,
  ];
  return program(`import { fal } from '@fal-ai/client';`, all.slice(0, calls));
}

/** A module with `calls` awaited in order, their results returned (so none is unused). */
function program(head: string, calls: string[]): string {
  const lines = calls.map((c, i) => `  const r${i + 1} = await ${c};`);
  return `${head}
declare const signal: AbortSignal;

export async function calls(): Promise<unknown[]> {
  const messages = [{ role: 'user' as const, content: 'hi' }];
  void messages;
  void signal;
${lines.join('\n')}
  return [${calls.map((_, i) => `r${i + 1}`).join(', ')}];
}
`;
}

const EMPTY = 'export {};\n';

/** A consumer project: `<dir>/main.ts` compiled alone, strict, nodenext. */
function writeProject(dir: string, main: string, skipLibCheck: boolean): void {
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
  writeFileSync(path.join(dir, 'main.ts'), main);
}

/**
 * A user's `<out>` of `total` models in `<consumers>/user-<total>/oxen-models`: the package's 111 and
 * `total - 111` renamed copies of its snapshot, generated by the source's generator (user target).
 */
async function writeUserIndex(source: string, consumers: string, total: number): Promise<string> {
  const ids = JSON.parse(readFileSync(path.join(source, 'specs', 'models.json'), 'utf8')) as string[];
  const out = path.join(consumers, `user-${total}`, 'oxen-models');
  const specs = path.join(out, 'specs');
  mkdirSync(path.join(specs, 'models'), { recursive: true });
  const added: string[] = [];
  for (let i = 0; i < total - ids.length; i++) {
    const id = ids[i % ids.length]!;
    const copy = `${id}-copy${Math.floor(i / ids.length) + 1}`;
    const model = JSON.parse(readFileSync(path.join(source, 'specs', 'models', `${id}.json`), 'utf8')) as object;
    writeFileSync(path.join(specs, 'models', `${copy}.json`), `${JSON.stringify({ ...model, id: copy }, null, 2)}\n`);
    added.push(copy);
  }
  writeFileSync(path.join(specs, 'models.json'), `${JSON.stringify(added.sort(), null, 2)}\n`);
  const script = path.join(consumers, `generate-user-${total}.mts`);
  writeFileSync(
    script,
    `import { generate, userTarget } from ${JSON.stringify(path.join(source, 'generator', 'index.ts'))};
const r = await generate({ specsDir: ${JSON.stringify(specs)}, outRoot: ${JSON.stringify(out)}, label: 'specs', target: userTarget('bench'),
  openapi: { file: ${JSON.stringify(path.join(source, 'specs', 'openapi.yaml'))}, label: 'openapi.yaml' } });
console.log(r.models);
`,
  );
  const r = await run(process.execPath, [TSX, script], { cwd: source, timeoutMs: 900_000 });
  if (r.code !== 0) throw new Error(`generating the user index of ${total} models failed:\n${r.stdout}\n${r.stderr}`);
  return out;
}

interface Case {
  /** `empty`, `sdk`, `user-178`, `user-250`, `openai`, `fal`. */
  subject: string;
  calls: 0 | 1 | 20;
  skipLibCheck: boolean;
  dir: string;
}

/** What `tsc --extendedDiagnostics` counts of a program (the same in every run). */
interface Counts {
  files: number;
  types: number;
  instantiations: number;
}

/** Compiles `dir` once with `--extendedDiagnostics`, failing on any error. @returns its counts. */
async function counts(dir: string, name: string): Promise<Counts> {
  const r = await run(process.execPath, [TSC, '-p', dir, '--extendedDiagnostics'], { cwd: dir, timeoutMs: 600_000 });
  if (r.code !== 0) throw new Error(`tsc failed for ${name}:\n${r.stdout}${r.stderr}`);
  const count = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(r.stdout)?.[1] ?? NaN);
  return { files: count('Files'), types: count('Types'), instantiations: count('Instantiations') };
}

/** One `tsc -p dir`: wall time, peak RSS, and its CPU time (user + system, ms) as `breakdown.cpu`. */
async function timedTsc(dir: string): Promise<Sample> {
  const t0 = performance.now();
  const r = await run('/usr/bin/time', ['-f', '%M %U %S', process.execPath, TSC, '-p', dir], {
    cwd: dir,
    timeoutMs: 600_000,
  });
  const ms = performance.now() - t0;
  if (r.code !== 0) throw new Error(`tsc -p ${dir} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  const [rssKiB, user, system] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { ms, rssMiB: rssKiB! / 1024, breakdown: { cpu: (user! + system!) * 1000 } };
}

const label = (c: Pick<Case, 'subject' | 'calls' | 'skipLibCheck'>): string =>
  `${c.subject} ${c.calls === 0 ? 'empty' : `${c.calls} call${c.calls === 1 ? '' : 's'}`} ${c.skipLibCheck ? 'skip' : 'full'}`;

/** The part of the program a file belongs to, for the trace summary. */
function partOf(file: string): string {
  if (/\/typescript\/lib\//.test(file)) return 'TypeScript lib files';
  const sdk = /\/node_modules\/oxen-inference-sdk\/dist\/(.*)$/.exec(file);
  if (sdk) {
    if (sdk[1]!.startsWith('models/')) return 'oxen-inference-sdk: model modules (models/*.d.ts)';
    if (sdk[1]!.startsWith('generated/')) return 'oxen-inference-sdk: generated index (generated/*.d.ts)';
    return 'oxen-inference-sdk: runtime declarations';
  }
  if (file.includes('/node_modules/')) return 'other packages';
  if (file.includes('/oxen-models/validators/')) return "the user's validators (<out>/validators/*.ts)";
  if (file.includes('/oxen-models/models/')) return "the user's model modules (<out>/models/*.ts)";
  if (file.includes('/oxen-models/')) return "the user's index (<out>/index.ts)";
  return 'the consumer';
}

/** Where the time goes in a `--generateTrace` directory: parse and bind per part, check per part, costliest expressions. */
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
  const parts = new Map<string, { files: Set<string>; parseMs: number; bindMs: number; checkMs: number }>();
  const open = new Map<string, number>();
  const phase = { createSourceFile: 'parseMs', bindSourceFile: 'bindMs', checkSourceFile: 'checkMs' } as const;
  for (const e of events) {
    if (!(e.name in phase) || !e.args?.path) continue;
    const key = `${e.name}\0${e.args.path}`;
    if (e.ph === 'B') open.set(key, e.ts);
    else if (e.ph === 'E' && open.has(key)) {
      const part = partOf(e.args.path);
      const entry = parts.get(part) ?? { files: new Set<string>(), parseMs: 0, bindMs: 0, checkMs: 0 };
      entry.files.add(e.args.path);
      entry[phase[e.name as keyof typeof phase]] += (e.ts - open.get(key)!) / 1000;
      parts.set(part, entry);
      open.delete(key);
    }
  }
  const total = (p: { parseMs: number; bindMs: number; checkMs: number }) => p.parseMs + p.bindMs + p.checkMs;
  const lines = ['  parse + bind + check by part of the program (ms):'];
  for (const [part, p] of [...parts].sort((a, b) => total(b[1]) - total(a[1])))
    lines.push(
      `    ${total(p).toFixed(0).padStart(6)}  (parse ${p.parseMs.toFixed(0)}, bind ${p.bindMs.toFixed(0)}, check ${p.checkMs.toFixed(0)})  ${part}, ${p.files.size} files`,
    );
  const source = readFileSync(consumerFile, 'utf8');
  const lineOf = (pos: number): number => source.slice(0, pos).split('\n').length;
  const checks = events.filter(
    (e) => e.name === 'checkExpression' && e.ph === 'X' && e.dur !== undefined && e.args?.path === consumerFile,
  );
  // outermost expressions only: one nested in a costlier one on the same range is counted there
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
  const root = mkdtempSync(path.join(tmpdir(), 'inference-sdk-bench-typecheck-'));
  try {
    console.error('packing the package...');
    const pack = await packPackage(path.join(root, 'pack'), { from: SOURCE });
    const consumers = path.join(root, 'consumers');
    await installTarball(consumers, pack.tarball);
    // the anchors, as installed for this repository's own tests
    for (const name of ['openai', '@fal-ai/client']) {
      mkdirSync(path.dirname(path.join(consumers, 'node_modules', name)), { recursive: true });
      symlinkSync(path.join(REPO_ROOT, 'node_modules', name), path.join(consumers, 'node_modules', name), 'dir');
    }
    const userIndexes = new Map<number, string>();
    for (const total of USER_SIZES) {
      console.error(`generating a user index of ${total} models...`);
      userIndexes.set(total, await writeUserIndex(path.join(root, 'pack', 'source'), consumers, total));
    }

    const cases: Case[] = [];
    for (const skipLibCheck of [true, false]) {
      const add = (subject: string, calls: Case['calls'], dir: string, main: string) => {
        writeProject(dir, main, skipLibCheck);
        cases.push({ subject, calls, skipLibCheck, dir });
      };
      const mode = skipLibCheck ? 'skip' : 'full';
      add('empty', 0, path.join(consumers, `empty-${mode}`), EMPTY);
      for (const calls of [1, 20] as const) {
        add('sdk', calls, path.join(consumers, `sdk-${calls}-${mode}`), sdkProgram('oxen-inference-sdk', calls));
        for (const total of USER_SIZES)
          add(
            `user-${total}`,
            calls,
            path.join(consumers, `user-${total}`, `${calls}-${mode}`),
            sdkProgram('../oxen-models/index.js', calls),
          );
        add('openai', calls, path.join(consumers, `openai-${calls}-${mode}`), openaiProgram(calls));
        add('fal', calls, path.join(consumers, `fal-${calls}-${mode}`), falProgram(calls));
      }
    }
    // every program must compile (a failing one would time its error path); this also warms the file cache
    const counted = new Map<Case, Counts>();
    for (const c of cases) counted.set(c, await counts(c.dir, label(c)));

    const benchCases: BenchCase[] = cases.map((c) => ({ name: label(c), run: () => timedTsc(c.dir) }));
    const samples = await runRoundsDetailed(benchCases, RUNS);
    const ms = (c: Case) => samples.get(label(c))!.map((s) => s.ms);
    const med = (c: Case) => median(ms(c));
    const cpu = (c: Case) => median(samples.get(label(c))!.map((s) => s.breakdown!['cpu']!));
    const find = (subject: string, calls: Case['calls'], skipLibCheck: boolean) =>
      cases.find((c) => c.subject === subject && c.calls === calls && c.skipLibCheck === skipLibCheck)!;

    const version = (
      JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules', 'typescript', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    console.log(
      `\ntsc ${version}, wall time of \`tsc -p\`, ${RUNS} interleaved rounds: median, min-max, and the ratio of medians`,
    );
    const rows = [
      ['case', 'median ms', 'min-max ms', 'x empty', 'CPU ms', 'x empty', 'files', 'types', 'instant.', 'peak RSS MiB'],
    ];
    for (const c of cases) {
      const xs = ms(c);
      const empty = find('empty', 0, c.skipLibCheck);
      const n = counted.get(c)!;
      rows.push([
        label(c),
        med(c).toFixed(0),
        `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}`,
        `${(med(c) / med(empty)).toFixed(2)}x`,
        cpu(c).toFixed(0),
        `${(cpu(c) / cpu(empty)).toFixed(2)}x`,
        String(n.files),
        String(n.types),
        String(n.instantiations),
        Math.max(...samples.get(label(c))!.map((s) => s.rssMiB)).toFixed(0),
      ]);
    }
    console.log(table(rows));

    const aims: string[] = [];
    for (const skip of [true, false])
      for (const calls of [1, 20] as const) {
        const limit = calls === 1 ? 1.3 : 1.5;
        for (const subject of ['sdk', ...USER_SIZES.map((n) => `user-${n}`)]) {
          const r = med(find(subject, calls, skip)) / med(find('empty', 0, skip));
          const rc = cpu(find(subject, calls, skip)) / cpu(find('empty', 0, skip));
          aims.push(
            `  ${label({ subject, calls, skipLibCheck: skip }).padEnd(24)} ${r.toFixed(2)}x empty (aim ≤ ${limit}x: ${r <= limit ? 'met' : 'missed'}; CPU time ${rc.toFixed(2)}x)`,
          );
        }
        const growth = med(find(`user-${USER_SIZES.at(-1)!}`, calls, skip)) / med(find('sdk', calls, skip));
        const growthCpu = cpu(find(`user-${USER_SIZES.at(-1)!}`, calls, skip)) / cpu(find('sdk', calls, skip));
        aims.push(
          `  ${`user-${USER_SIZES.at(-1)!} / sdk, ${calls} call${calls === 1 ? '' : 's'} ${skip ? 'skip' : 'full'}`.padEnd(24)} ${growth.toFixed(2)}x (aim ≤ 1.1x: ${growth <= 1.1 ? 'met' : 'missed'}; CPU time ${growthCpu.toFixed(2)}x)`,
        );
      }
    console.log(`\naims:\n${aims.join('\n')}`);

    if (values.trace) {
      for (const subject of ['sdk', `user-${USER_SIZES.at(-1)!}`]) {
        const c = find(subject, 20, true);
        const traceDir = path.join(root, `trace-${subject}`);
        await run(process.execPath, [TSC, '-p', c.dir, '--generateTrace', traceDir], {
          cwd: c.dir,
          timeoutMs: 600_000,
        });
        console.log(`\ntrace, ${label(c)} (${traceDir}):\n${summariseTrace(traceDir, path.join(c.dir, 'main.ts'))}`);
      }
    }
  } finally {
    if (values.keep) console.error(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
    .join('\n');
}

await main();
