/**
 * Interleaved benchmark rounds, shared by the benchmarks (scripts/bench/): each round runs every
 * case once, in order, so that a machine that slows down or speeds up during the run weighs on
 * every case alike; results are reported as medians.
 */

/** One measured run: wall time in milliseconds and peak RSS in MiB. */
export interface Sample {
  ms: number;
  rssMiB: number;
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
 * line per case (median wall time in seconds, the largest peak RSS) under `title`.
 * @returns the median wall time (milliseconds) of a case, by name.
 */
export async function runRounds(title: string, cases: BenchCase[], rounds: number): Promise<(name: string) => number> {
  const results = await runRoundsDetailed(cases, rounds);
  const med = (name: string) => median(results.get(name)!.map((x) => x.ms));
  console.log(title);
  for (const c of cases) {
    const peak = Math.max(...results.get(c.name)!.map((x) => x.rssMiB));
    console.log(
      `  ${c.name.padEnd(26)} ${(med(c.name) / 1000).toFixed(2).padStart(6)} s   peak RSS ${peak.toFixed(0).padStart(4)} MiB`,
    );
  }
  return med;
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
