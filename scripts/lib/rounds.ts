/**
 * Interleaved benchmark rounds, shared by the benchmarks (scripts/bench/): each round runs every
 * case once, in order, so that a machine that slows down or speeds up during the run weighs on
 * every case alike; results are reported as medians.
 */

/** One measured run: wall time in milliseconds and peak RSS in MiB (and a generator's breakdown, milliseconds per activity). */
export interface Sample {
  ms: number;
  rssMiB: number;
  breakdown?: Record<string, number>;
}

/** A benchmark case: a name and one run of it. */
export interface BenchCase {
  name: string;
  run: () => Promise<Sample>;
}

/** The median of `xs` (the mean of the two middle values for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Run `rounds` interleaved rounds of `cases`, saying each finished round on stderr, and print one
 * line per case (median wall time in seconds with its min-max, the largest peak RSS) under `title`.
 * @returns the median wall time (milliseconds) of a case, by name.
 */
export async function runRounds(title: string, cases: BenchCase[], rounds: number): Promise<(name: string) => number> {
  const results = await runRoundsDetailed(cases, rounds);
  printRounds(title, results);
  return (name: string) => median(results.get(name)!.map((x) => x.ms));
}

/** Print one line per case: median wall time in seconds, its min-max, the largest peak RSS in MiB. */
export function printRounds(title: string, results: Map<string, Sample[]>): void {
  console.log(title);
  const width = Math.max(26, ...[...results.keys()].map((k) => k.length));
  for (const [name, samples] of results) {
    const ms = samples.map((x) => x.ms);
    const s = (v: number) => (v / 1000).toFixed(2);
    const peak = Math.max(...samples.map((x) => x.rssMiB));
    console.log(
      `  ${name.padEnd(width)} ${s(median(ms)).padStart(6)} s (${s(Math.min(...ms))}-${s(Math.max(...ms))})   peak RSS ${peak.toFixed(0).padStart(4)} MiB`,
    );
  }
}

/**
 * Run `rounds` interleaved rounds of `cases`, saying each finished round on stderr.
 * @returns every sample of each case, by name, in round order (for a benchmark that reports more
 * than `runRounds` prints: min-max, ratios).
 */
export async function runRoundsDetailed(cases: BenchCase[], rounds: number): Promise<Map<string, Sample[]>> {
  const results = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of cases) results.get(c.name)!.push(await c.run());
    console.error(`bench: round ${r + 1} of ${rounds} done`);
  }
  return results;
}

/** The median of each activity of the generator's breakdowns that the samples carry ("(none)" when none does). */
export function breakdownLine(samples: Sample[]): string {
  const all = samples.flatMap((x) => (x.breakdown ? [x.breakdown] : []));
  if (all.length === 0) return '(none)';
  return Object.keys(all[0]!)
    .map((k) => `${k} ${Math.round(median(all.map((b) => b[k] ?? 0)))}`)
    .join(', ');
}
