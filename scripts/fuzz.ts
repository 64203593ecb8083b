/**
 * `npm run fuzz`: the seeded fuzzer of the generator. It builds hostile model-details
 * objects, runs each through `generate()` (generator/index.ts) in a child process, type-checks
 * and scans what it wrote, and counts every case in one class.
 *
 *   npm run fuzz -- --seed N --cases 1000     run cases 0..999 of seed N; one line per failing case
 *   npm run fuzz -- --seed N --case K         run case K alone, keep its directory and print its path
 *   npm run fuzz -- --list                    the families and classes
 *
 *   --family NAME   only cases of that family (the first --cases of it)
 *   --jobs N        child processes (default 2)
 *   --timeout S     time limit of one case in seconds (default 30): over it is a hang
 *   --keep          keep the directories of failing cases (their paths are printed)
 *   --keep-all      keep every case's directory
 *   --json          print the report as JSON instead of text
 *   --unformatted   generate without prettier (as a user's files are by default): the printer's output is checked as it is
 *
 * Classes (fuzz/verdict.ts); a case is in the first that applies:
 *   hang            generating and running the case took longer than --timeout (its process is killed)
 *   escape          a file written outside the output directory (an output path leaving it, or a
 *                   new entry elsewhere in the case directory, or a symbolic link under generated/)
 *   injection       a planted sentinel is code: an Identifier INJECTED_<n> or __sentinel in the
 *                   TypeScript AST of the output (not in a string, template text or comment), or a
 *                   sentinel that runs when the output is imported (fuzz/exercise.ts)
 *   partial-write   a failed run changed generated/ or left a temporary file
 *   unnamed-crash   generate threw something other than a SpecError, or a SpecError whose problem
 *                   is an internal exception's text (URI malformed, ... is not a function, Maximum
 *                   call stack size exceeded, Cannot read properties of ...), or that names no
 *                   model or a JSON pointer that is not in the file; or its process died
 *   slow-validator  a generated validator took over 100 ms on an input of at most 10 KB: hostile
 *                   strings for each pattern and format of its schema (fuzz/adversarial.ts), long
 *                   runs of the characters it is about and one that breaks the match
 *   invalid-ts      the output does not type-check with the repository's tsconfig.json (strict),
 *                   or a module of it throws when imported, or a generated validator throws (or
 *                   answers a non-boolean) on {}, null, [], a string, 0 or __proto__/constructor keys
 *   oracle          a generated parameter type and json-schema-to-typescript's type of the same
 *                   schema are not mutually assignable, and no rule of fuzz/oracle.ts (ORACLE_RULES)
 *                   explains the failing direction; the reason ends with the schema shrunk to what
 *                   still fails (fuzz/shrink.ts)
 *   refused         generate threw a named SpecError (file, model, JSON pointer): a success
 *   generated       generate wrote output that type-checks and holds no injected code: a success
 *
 * Families (fuzz/families/schema.ts, patterns.ts, model.ts; `--list` prints them): hostile
 * strings, property keys, patternProperties, required, enums, values, nesting, $ref, $schema
 * dialects, combinators, invalid JSON Schema, request-schema shapes, backtracking patterns,
 * formats, model ids, id collisions,
 * model fields, file text, random mutations of real models, random JSON, size, and a control of
 * real models. Case K of seed N is built from its own PRNG (fuzz/rng.ts): it is the same alone.
 *
 * Exit codes: 0 every failure class is 0, 1 some case failed, 2 bad arguments or the run could not start.
 */
import { parseArgs } from 'node:util';
import { FAMILIES, ORDER } from '../fuzz/cases.ts';
import { formatFailure, formatSummary, FuzzSetupError, runFuzz } from '../fuzz/run.ts';
import { CLASS_LABELS, CLASSES } from '../fuzz/verdict.ts';

function usage(message: string): never {
  process.stderr.write(
    `fuzz: ${message}\nusage: npm run fuzz -- --seed N [--cases N | --case K] [--family NAME] [--jobs N] [--timeout S] [--keep | --keep-all] [--json] [--unformatted] | --list\n`,
  );
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      seed: { type: 'string', default: '1' },
      cases: { type: 'string', default: '1000' },
      case: { type: 'string' },
      family: { type: 'string' },
      jobs: { type: 'string', default: '2' },
      timeout: { type: 'string', default: '30' },
      keep: { type: 'boolean', default: false },
      'keep-all': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      unformatted: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
    },
    strict: true,
  }));
} catch (err) {
  usage((err as Error).message);
}

if (values.list) {
  const w = Math.max(...FAMILIES.map((f) => f.name.length));
  process.stdout.write(
    `families (case K belongs to the family at K mod ${ORDER.length} of this order, issue-8 three times per round):\n${FAMILIES.map((f) => `  ${f.name.padEnd(w)}  ${f.about}`).join('\n')}\n\nclasses:\n${CLASSES.map((c) => `  ${c.padEnd(14)} ${CLASS_LABELS[c]}`).join('\n')}\n`,
  );
  process.exit(0);
}

const int = (name: string, v: string, min: number): number => {
  if (!/^-?\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v)))
    usage(`--${name} needs an integer >= ${min}, got ${JSON.stringify(v)}`);
  return Number(v);
};
const seed = int('seed', values.seed, -(2 ** 31));
const single = values.case !== undefined ? int('case', values.case, 0) : undefined;
if (values.unformatted) process.env['FUZZ_UNFORMATTED'] = '1'; // read by the child processes (fuzz/child.ts)

try {
  const report = await runFuzz({
    seed,
    ...(single !== undefined ? { indices: [single] } : { cases: int('cases', values.cases, 1) }),
    ...(values.family ? { family: values.family } : {}),
    jobs: int('jobs', values.jobs, 1),
    timeoutSeconds: int('timeout', values.timeout, 1),
    ...(values['keep-all'] ? { keep: 'all' as const } : values.keep ? { keep: 'failures' as const } : {}),
    onProgress: (line) => void process.stderr.write(`${line}\n`),
    onCase: (o) => {
      if (values.json) return;
      if (o.class !== 'generated' && o.class !== 'refused') process.stdout.write(`${formatFailure(o)}\n`);
      if (single !== undefined) {
        process.stdout.write(
          `case ${o.index} (${o.family}): ${o.class}\n  note: ${JSON.stringify(o.note)}\n${o.reasons.map((r) => `  ${JSON.stringify(r)}`).join('\n')}${o.reasons.length ? '\n' : ''}${o.error ? `  error: ${JSON.stringify(o.error)}\n` : ''}  generate: ${Math.round(o.ms)} ms\n  kept: ${o.dir}\n`,
        );
      } else if (o.dir) process.stdout.write(`  kept: ${o.dir}\n`);
    },
  });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatSummary(report));
  process.exitCode = report.failures > 0 ? 1 : 0;
} catch (err) {
  if (err instanceof FuzzSetupError) usage(err.message);
  throw err;
}
