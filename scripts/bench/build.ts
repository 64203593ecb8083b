/**
 * `npm run bench:build`: what `npm run build` costs, as a whole process (npm and the build it starts):
 * wall time and peak resident memory (the sum over the process tree, sampled from /proc every 20 ms),
 * - from clean: no `dist/` and no stamp, and
 * - nothing changed: right after a build, with the same inputs (the build finds `dist/` current).
 * Runs in a scratch copy of what the build reads (node_modules linked), so the working tree's `dist/` is
 * left alone. Each round is one clean build then one unchanged build; the figures are medians over the
 * rounds. Aims: from clean at most 15 s and 600 MiB; nothing changed at most 2 s. When GNU time is at
 * /usr/bin/time, the CPU time of the tree (user + system) is shown too: unlike the wall time, it hardly
 * depends on what else the machine runs.
 *
 *   --runs N   rounds (default 3)
 *   --keep     keep the scratch copy (its path is printed)
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT } from '../../generator/root.mjs';
import { parseArgs } from 'node:util';
import { BUILD_INPUTS } from '../build/inputs.mjs';
import { median } from '../lib/rounds.ts';

const ROOT = REPO_ROOT;
const AIM = { cleanMs: 15_000, cleanMiB: 600, unchangedMs: 2_000 };
const SAMPLE_MS = 20;

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, keep: { type: 'boolean', default: false } },
  strict: true,
});
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`bench:build: --runs needs a positive integer, got ${JSON.stringify(values.runs)}`);
  process.exit(2);
}
if (!existsSync('/proc/self/status')) {
  console.error('bench:build: needs Linux /proc to measure the memory of the build process tree');
  process.exit(2);
}

interface Sample {
  wallMs: number;
  peakMiB: number;
  /** User + system CPU time of the process tree, when /usr/bin/time measured it. */
  cpuMs: number | undefined;
  /** What the build printed (its first line says whether it built). */
  output: string;
}

const PAGE_BYTES = 4096;
const GNU_TIME = '/usr/bin/time';

/** Resident bytes of one process (0 when it is gone). */
function rssBytes(pid: number): number {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_BYTES : 0;
  } catch {
    return 0;
  }
}

/** `pid` and all its descendants. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // the command name (2nd field) is in parentheses and may hold spaces: the parent pid follows the last ')'
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // the process ended while the list was read
    }
  }
  const tree: number[] = [];
  const walk = (p: number) => {
    tree.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return tree;
}

/** `npm run build` in `dir`: wall time, peak tree memory, output; throws when it fails. */
function runBuild(dir: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const cpuFile = path.join(dir, '..', 'cpu.txt');
    rmSync(cpuFile, { force: true });
    const [command, ...commandArgs] = [
      ...(existsSync(GNU_TIME) ? [GNU_TIME, '-o', cpuFile, '-f', '%U %S'] : []),
      'npm',
      'run',
      '--silent',
      'build',
    ];
    const child = spawn(command, commandArgs, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    let peak = 0;
    const sample = () => {
      if (child.pid === undefined) return;
      peak = Math.max(
        peak,
        processTree(child.pid).reduce((sum, p) => sum + rssBytes(p), 0),
      );
    };
    const timer = setInterval(sample, SAMPLE_MS);
    sample();
    child.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(timer);
      const wallMs = performance.now() - started;
      if (code !== 0) reject(new Error(`npm run build failed (exit ${code}):\n${output}`));
      else resolve({ wallMs, peakMiB: peak / 2 ** 20, cpuMs: cpuTime(cpuFile), output });
    });
  });
}

/** The user + system seconds GNU time wrote to `file`, in milliseconds, if it did. */
function cpuTime(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const [user, system] = readFileSync(file, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  return user !== undefined && system !== undefined ? (user + system) * 1000 : undefined;
}

const scratch = mkdtempSync(path.join(tmpdir(), 'bench-build-'));
const dir = path.join(scratch, 'package');
try {
  for (const p of BUILD_INPUTS) cpSync(path.join(ROOT, p), path.join(dir, p), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const clean: Sample[] = [];
  const unchanged: Sample[] = [];
  for (let round = 1; round <= RUNS; round++) {
    rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
    rmSync(path.join(dir, '.tmp'), { recursive: true, force: true });
    const c = await runBuild(dir);
    const u = await runBuild(dir);
    if (!/up to date/.test(u.output)) throw new Error(`the build after a build was not skipped:\n${u.output}`);
    clean.push(c);
    unchanged.push(u);
    console.error(
      `  round ${round}/${RUNS}: clean ${(c.wallMs / 1000).toFixed(2)} s ${c.peakMiB.toFixed(0)} MiB; ` +
        `unchanged ${(u.wallMs / 1000).toFixed(2)} s ${u.peakMiB.toFixed(0)} MiB` +
        (c.cpuMs === undefined
          ? ''
          : ` (CPU ${(c.cpuMs / 1000).toFixed(2)} s and ${((u.cpuMs ?? 0) / 1000).toFixed(2)} s)`),
    );
  }
  const cleanMs = median(clean.map((s) => s.wallMs));
  const cleanMiB = median(clean.map((s) => s.peakMiB));
  const unchangedMs = median(unchanged.map((s) => s.wallMs));
  const unchangedMiB = median(unchanged.map((s) => s.peakMiB));
  const cpu = (samples: Sample[]) =>
    samples.every((s) => s.cpuMs !== undefined)
      ? `, CPU ${(median(samples.map((s) => s.cpuMs!)) / 1000).toFixed(2)} s`
      : '';
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`bench:build: npm run build, whole process tree, median of ${RUNS} interleaved rounds`);
  // other work on the machine shows in the wall times (not in the memory): say how busy it was
  console.log(`  load average ${loadavg()[0]!.toFixed(2)} at the end, on ${cpus().length} cores`);
  console.log(
    `  from clean       ${(cleanMs / 1000).toFixed(2)} s (aim <= ${AIM.cleanMs / 1000} s: ${verdict(cleanMs <= AIM.cleanMs)})` +
      `  ${cleanMiB.toFixed(0)} MiB peak (aim <= ${AIM.cleanMiB} MiB: ${verdict(cleanMiB <= AIM.cleanMiB)})${cpu(clean)}`,
  );
  console.log(
    `  nothing changed  ${(unchangedMs / 1000).toFixed(2)} s (aim <= ${AIM.unchangedMs / 1000} s: ${verdict(unchangedMs <= AIM.unchangedMs)})` +
      `  ${unchangedMiB.toFixed(0)} MiB peak${cpu(unchanged)}`,
  );
} finally {
  if (values.keep) console.error(`scratch copy kept: ${dir}`);
  else rmSync(scratch, { recursive: true, force: true });
}
