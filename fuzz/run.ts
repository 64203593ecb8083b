/**
 * A fuzz run: cases built from a seed (`fuzz/cases.ts`), generated in child processes
 * (`fuzz/pool.ts`, `fuzz/child.ts`), their TypeScript scanned for sentinels and type-checked in
 * batches (`fuzz/compile.ts`), and each case put in one class (`fuzz/verdict.ts`).
 */
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type ts from 'typescript';
import { REPO_ROOT } from '../generator/paths.ts';
import { FAMILIES, buildCase, familyOf } from './cases.ts';
import type { ChildResult } from './child.ts';
import { compileCases, compilerOptions, findInjections, type CompileUnit } from './compile.ts';
import { judgeOracle, type OracleCase } from './oracle-case.ts';
import { ChildPool, type PoolAnswer } from './pool.ts';
import { shrinkOracleFailure } from './shrink.ts';
import { CLASSES, CLASS_LABELS, FAILURE_CLASSES, type CaseClass } from './verdict.ts';

/** Options of a run. */
export interface FuzzOptions {
  seed: number;
  /** Run cases 0..cases-1 (default 1000), or only those of `family` among the first `cases` of it. */
  cases?: number;
  /** Run exactly these case indices instead. */
  indices?: readonly number[];
  /** Only cases of this family (see `FAMILIES`). */
  family?: string;
  /** Child processes (default 2, at most the number of CPUs). */
  jobs?: number;
  /** Time limit of one case (generate, then importing and running its output), in seconds (default 30). */
  timeoutSeconds?: number;
  /** Keep each failing case's directory (`failures`) or every case's (`all`); a run of one case always keeps it. */
  keep?: 'failures' | 'all';
  /** Cases type-checked per TypeScript program (default 100). */
  compileBatch?: number;
  /** Called once per case when its class is known. */
  onCase?: (outcome: CaseOutcome) => void;
  /** Called with progress lines (setup, batches). */
  onProgress?: (line: string) => void;
}

/** One case's result. */
export interface CaseOutcome {
  seed: number;
  index: number;
  family: string;
  /** What the case planted. */
  note: string;
  class: CaseClass;
  /** Every reason found (the first is the class's). */
  reasons: string[];
  /** Milliseconds spent in generate. */
  ms: number;
  /** Milliseconds spent importing and running the output. */
  exerciseMs?: number;
  /** The message of what generate threw, if it threw. */
  error?: string;
  /** The case directory (`specs/` and `out/`), when kept. */
  dir?: string;
  /** Models compared with json-schema-to-typescript's type (fuzz/oracle.ts). */
  oracleCompared?: number;
  /** Models the oracle could not judge: jstt refused the schema or wrote no valid type. */
  oracleSkipped?: string[];
}

/** The result of a run. */
export interface FuzzReport {
  seed: number;
  cases: number;
  counts: Record<CaseClass, number>;
  byFamily: Record<string, Record<CaseClass, number>>;
  outcomes: CaseOutcome[];
  /** Diagnostics of the runtime or template output: nobody's case, but they make every compile suspect. */
  shared: string[];
  /** Total failing cases. */
  failures: number;
  /** Models compared with json-schema-to-typescript's type, and those it could not judge. */
  oracle: { compared: number; skipped: number };
  ms: number;
  /** The run's directory when something in it was kept. */
  workDir: string;
}

/** The run cannot start (the template model does not generate, bad family name, ...). */
export class FuzzSetupError extends Error {
  override name = 'FuzzSetupError';
}

function zeroCounts(): Record<CaseClass, number> {
  return Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<CaseClass, number>;
}

/** Every `.ts` file under `<root>/generated`, absolute, sorted. */
function tsFiles(root: string): string[] {
  try {
    return readdirSync(path.join(root, 'generated'), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
  } catch {
    return [];
  }
}

/** The indices a run covers. */
export function caseIndices(options: Pick<FuzzOptions, 'cases' | 'indices' | 'family'>): number[] {
  if (options.indices) return [...options.indices];
  const n = options.cases ?? 1000;
  if (options.family === undefined) return Array.from({ length: n }, (_, i) => i);
  if (!FAMILIES.some((x) => x.name === options.family))
    throw new FuzzSetupError(
      `unknown family ${JSON.stringify(options.family)}; families: ${FAMILIES.map((x) => x.name).join(', ')}`,
    );
  const out: number[] = [];
  for (let i = 0; out.length < n; i++) if (familyOf(i).family.name === options.family) out.push(i);
  return out;
}

interface Pending {
  outcome: CaseOutcome;
  unit: CompileUnit;
  oracle: OracleCase | undefined;
}

/** Run the fuzzer. @throws FuzzSetupError when the run cannot start. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const indices = caseIndices(options);
  const say = options.onProgress ?? (() => undefined);
  const workDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'inference-sdk-fuzz-')));
  // Generated validators import packages: resolve them from the repository's node_modules.
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(workDir, 'node_modules'), 'dir');
  // ... and compile them as ES modules, as in the repository.
  writeFileSync(path.join(workDir, 'package.json'), '{ "type": "module", "private": true }\n');
  const jobs = Math.max(1, Math.min(options.jobs ?? 2, os.availableParallelism()));
  const pool = new ChildPool({ size: jobs, timeoutMs: (options.timeoutSeconds ?? 30) * 1000 });
  const keepOne = indices.length === 1;
  let kept = keepOne;
  const outcomes: CaseOutcome[] = [];
  const shared = new Set<string>();
  try {
    say(`fuzz: preparing the template output (one real model) in ${workDir}`);
    const t = await pool
      .request(
        { type: 'template', dir: path.join(workDir, 'template') },
        Math.max(120_000, (options.timeoutSeconds ?? 30) * 1000),
      )
      .catch((e: unknown) => {
        throw new FuzzSetupError(e instanceof Error ? e.message : String(e));
      });
    if (t.kind !== 'reply' || t.value['ok'] !== true)
      throw new FuzzSetupError(
        `the template model (specs/models/flux-2-pro.json) does not generate, so no case can be judged: ${t.kind === 'reply' ? String(t.value['error']) : t.kind === 'died' ? t.reason : 'hang'}`,
      );
    const templateRoot = path.join(workDir, 'template', 'out');
    const template: CompileUnit = { root: templateRoot, files: tsFiles(templateRoot) };
    const tsOptions = compilerOptions();
    const sharedCache = { check: true, cache: new Map<string, ts.SourceFile>() };

    const pending: Pending[] = [];
    const finish = (o: CaseOutcome) => {
      o.class =
        CLASSES.find((c) => o.reasons.some((r) => r.startsWith(`${c}: `))) ??
        (o.class === 'refused' ? 'refused' : 'generated');
      const failing = FAILURE_CLASSES.includes(o.class);
      if (keepOne || options.keep === 'all' || (failing && options.keep === 'failures')) {
        o.dir = path.join(workDir, `case-${o.index}`);
        kept = true;
      } else rmSync(path.join(workDir, `case-${o.index}`), { recursive: true, force: true });
      outcomes.push(o);
      options.onCase?.(o);
    };
    const compileBatch = async (batch: Pending[]) => {
      if (batch.length === 0) return;
      const t0 = performance.now();
      let result: { perUnit: string[][]; shared: string[] } | undefined;
      try {
        result = compileCases(
          batch.map((p) => p.unit),
          template,
          tsOptions,
          sharedCache,
        );
      } catch {
        result = undefined; // a compiler crash on one case: check them one by one below
      }
      say(`fuzz: type-checked ${batch.length} case outputs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      sharedCache.check = false;
      for (const [i, p] of batch.entries()) {
        let diagnostics = result?.perUnit[i];
        if (!diagnostics) {
          try {
            diagnostics = compileCases([p.unit], template, tsOptions, { check: false, cache: sharedCache.cache })
              .perUnit[0]!;
          } catch (e) {
            diagnostics = [
              `the TypeScript compiler crashed on this output: ${e instanceof Error ? e.message : String(e)}`,
            ];
          }
        }
        const oracle = judgeOracle(diagnostics, p.oracle);
        diagnostics = oracle.rest;
        if (diagnostics.length > 0)
          p.outcome.reasons.push(
            `invalid-ts: ${diagnostics.slice(0, 3).join(' | ')}${diagnostics.length > 3 ? ` (+${diagnostics.length - 3} more)` : ''}`,
          );
        p.outcome.oracleCompared = (p.oracle?.models.length ?? 0) - oracle.notes.length;
        p.outcome.oracleSkipped = [...(p.oracle?.skipped ?? []), ...oracle.notes];
        const first = oracle.failures[0];
        if (first) {
          // the smallest schema that still fails so, by the in-process types stage and jstt
          const spec = path.join(workDir, `case-${p.outcome.index}`, 'specs', first.spec);
          let shrunk: string;
          try {
            const m = JSON.parse(readFileSync(spec, 'utf8')) as Record<string, unknown>;
            const s = await shrinkOracleFailure(
              first.model,
              m['request_schema'] ?? m['json_request_schema'],
              first.direction,
            );
            shrunk = ` | shrunk in ${s.tries} tries to ${JSON.stringify(s.schema)}`;
          } catch (e) {
            shrunk = ` | not shrunk: ${e instanceof Error ? e.message : String(e)}`;
          }
          p.outcome.reasons.push(
            `oracle: ${first.model} ${first.direction}: ${first.message}${shrunk}`,
            ...oracle.failures.slice(1).map((f) => `oracle: ${f.model} ${f.direction}: ${f.message}`),
          );
        }
        finish(p.outcome);
      }
      for (const d of result?.shared ?? []) shared.add(d);
    };

    const batchSize = options.compileBatch ?? 100;
    let next = 0;
    const worker = async () => {
      while (next < indices.length) {
        const index = indices[next++]!;
        const c = buildCase(options.seed, index);
        const answer = await pool.request({
          type: 'run',
          seed: options.seed,
          index,
          dir: path.join(workDir, `case-${index}`),
          template: templateRoot,
        });
        const p = judge(answer, { seed: options.seed, index, family: c.family, note: c.note });
        if (p) {
          pending.push(p);
          if (pending.length >= batchSize) await compileBatch(pending.splice(0));
        }
      }
    };
    const judge = (answer: PoolAnswer, o: Omit<CaseOutcome, 'class' | 'reasons' | 'ms'>): Pending | undefined => {
      const outcome: CaseOutcome = { ...o, class: 'generated', reasons: [], ms: 0 };
      if (answer.kind === 'hang') {
        outcome.ms = answer.ms;
        outcome.reasons.push(`hang: generating and running the case took over ${options.timeoutSeconds ?? 30} s`);
      } else if (answer.kind === 'died') outcome.reasons.push(`unnamed-crash: ${answer.reason}`);
      else if (answer.kind === 'reply')
        outcome.reasons.push(
          `unnamed-crash: unexpected answer from the child ${JSON.stringify(answer.value).slice(0, 200)}`,
        );
      else return classifyResult(answer.result, outcome);
      finish(outcome);
      return undefined;
    };
    const classifyResult = (r: ChildResult, outcome: CaseOutcome): Pending | undefined => {
      outcome.ms = r.ms;
      if (r.exerciseMs !== undefined) outcome.exerciseMs = r.exerciseMs;
      for (const e of r.escapes) outcome.reasons.push(`escape: ${e}`);
      for (const e of r.partial) outcome.reasons.push(`partial-write: ${e}`);
      for (const e of r.stray) outcome.reasons.push(`unnamed-crash: ${e.split('\n')[0]}`);
      if (r.error) {
        outcome.error = r.error.message;
        if (r.unnamed)
          outcome.reasons.push(
            `unnamed-crash: ${r.unnamed.split('\n')[0]}${r.error.stack ? ` [${stackHint(r.error.stack)}]` : ''}`,
          );
        outcome.class = 'refused';
        finish(outcome);
        return undefined;
      }
      for (const x of r.ran?.sentinels ?? []) outcome.reasons.push(`injection: ${x}`);
      for (const x of r.ran?.throws ?? []) outcome.reasons.push(`invalid-ts: ${x}`);
      for (const x of r.ran?.slow ?? []) outcome.reasons.push(`slow-validator: ${x}`);
      const files = tsFiles(r.outRoot);
      for (const f of files) {
        try {
          for (const hit of findInjections(f, readFileSync(f, 'utf8')))
            outcome.reasons.push(`injection: ${hit} in ${path.relative(r.outRoot, f)}`);
        } catch (e) {
          outcome.reasons.push(
            `invalid-ts: the TypeScript parser failed on ${path.relative(r.outRoot, f)}: ${e instanceof Error ? e.message : String(e)}`,
          );
        }
      }
      // no raw bidirectional control in any output file ("Trojan Source")
      for (const f of r.files ?? []) {
        const hit = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/.exec(
          readFileSync(path.join(r.outRoot, f), 'utf8'),
        );
        if (hit)
          outcome.reasons.push(
            `injection: raw bidirectional control U+${hit[0].charCodeAt(0).toString(16).toUpperCase()} in ${f}`,
          );
      }
      if (outcome.reasons.some((x) => x.startsWith('invalid-ts: '))) {
        finish(outcome);
        return undefined;
      }
      // jstt's modules and the check modules: compiled with the output, never scanned as the generator's
      const oracleFiles = (r.oracle?.models ?? []).flatMap((m) => [
        path.join(r.outRoot, m.check),
        path.join(r.outRoot, m.jstt),
      ]);
      return { outcome, unit: { root: r.outRoot, files: [...files, ...oracleFiles] }, oracle: r.oracle };
    };

    say(`fuzz: seed ${options.seed}, ${indices.length} case(s), ${jobs} child process(es)`);
    await Promise.all(Array.from({ length: jobs }, worker));
    await compileBatch(pending.splice(0));
  } finally {
    pool.close();
    if (!kept) rmSync(workDir, { recursive: true, force: true });
  }

  outcomes.sort((a, b) => a.index - b.index);
  const counts = zeroCounts();
  const byFamily: Record<string, Record<CaseClass, number>> = {};
  for (const o of outcomes) {
    counts[o.class]++;
    (byFamily[o.family] ??= zeroCounts())[o.class]++;
  }
  return {
    seed: options.seed,
    cases: outcomes.length,
    counts,
    byFamily,
    outcomes,
    shared: [...shared].sort(),
    failures: FAILURE_CLASSES.reduce((n, c) => n + counts[c], 0),
    oracle: {
      compared: outcomes.reduce((n, o) => n + (o.oracleCompared ?? 0), 0),
      skipped: outcomes.reduce((n, o) => n + (o.oracleSkipped?.length ?? 0), 0),
    },
    ms: performance.now() - started,
    workDir,
  };
}

/** The first stack frame inside the repository (where an unnamed error was thrown). */
function stackHint(stack: string): string {
  const frame = stack
    .split('\n')
    .find((l) => l.includes(REPO_ROOT) && !l.includes('/node_modules/') && !l.includes('/fuzz/'));
  const any = frame ?? stack.split('\n').find((l) => /^\s+at /.test(l));
  return (any ?? '').trim().replace(`${REPO_ROOT}/`, '');
}

/** The summary: one line per class, then a table of classes per family. */
export function formatSummary(r: FuzzReport): string {
  const lines = [
    `fuzz: seed ${r.seed}, ${r.cases} cases, ${(r.ms / 1000).toFixed(1)} s; ${r.oracle.compared} parameter types compared with json-schema-to-typescript's (${r.oracle.skipped} it could not type)`,
  ];
  const width = Math.max(...CLASSES.map((c) => CLASS_LABELS[c].length));
  for (const c of ['generated', 'refused', ...FAILURE_CLASSES] as CaseClass[])
    lines.push(
      `  ${CLASS_LABELS[c].padEnd(width)}  ${String(r.counts[c]).padStart(5)}${FAILURE_CLASSES.includes(c) && r.counts[c] > 0 ? '  FAIL' : ''}`,
    );
  const cols = ['generated', 'refused', ...FAILURE_CLASSES] as CaseClass[];
  const fw = Math.max(8, ...Object.keys(r.byFamily).map((f) => f.length));
  lines.push('', `  ${'family'.padEnd(fw)}  ${cols.map((c) => c.slice(0, 9).padStart(9)).join(' ')}`);
  for (const f of FAMILIES.map((x) => x.name).filter((n) => r.byFamily[n]))
    lines.push(`  ${f.padEnd(fw)}  ${cols.map((c) => String(r.byFamily[f]![c]).padStart(9)).join(' ')}`);
  if (r.shared.length > 0)
    lines.push(
      '',
      `  ${r.shared.length} diagnostic(s) outside the cases (runtime or template output; no case is blamed for them):`,
      ...r.shared.slice(0, 10).map((d) => `    ${d}`),
    );
  return `${lines.join('\n')}\n`;
}

/** Make case text printable on one terminal line. */
function oneLine(s: string): string {
  return s.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** One line for a failing case: seed, index, family, class, reason, and how to reproduce it. */
export function formatFailure(o: CaseOutcome): string {
  return (
    oneLine(
      `FAIL seed=${o.seed} case=${o.index} family=${o.family} class=${o.class}: ${o.reasons[0]!.replace(/^[a-z-]+: /, '').slice(0, 400)} | ${o.note.slice(0, 120)}`,
    ) + `  (npm run fuzz -- --seed ${o.seed} --case ${o.index})`
  );
}
