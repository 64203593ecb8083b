/**
 * The fuzzer's child process (started by `fuzz/pool.ts` with `node --import tsx`): runs cases one at
 * a time on request, each through the generator's API, so that a case that hangs or kills its
 * process (stack overflow, out of memory) can be told apart and the run goes on.
 *
 * Request `{ type: 'run', seed, index, dir, template }`: build the case, write its specs directory
 * to `<dir>/specs`, prepare `<dir>/out` (the template's files, `runtime` linked to the repository's),
 * run `generate({ specsDir, outRoot, check: false, label: 'specs' })`, import what it wrote and
 * run its validators (`exercise`), and answer a `ChildResult`.
 * Request `{ type: 'template', dir }`: generate one real model into `<dir>` (the reusable
 * `generated/openapi.ts` and manifest every case starts from).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { SpecError } from '../generator/errors.ts';
import { REPO_ROOT } from '../generator/paths.ts';
import { buildCase } from './cases.ts';
import { RawText, writeCase, type FuzzCase } from './case.ts';
import { exercise } from './exercise.ts';
import { namedRefusalProblem } from './verdict.ts';
import { writeOracleModules, type OracleCase } from './oracle-case.ts';

/** What the child reports for one case. */
export interface ChildResult {
  index: number;
  /** Milliseconds spent in `generate`. */
  ms: number;
  /** Milliseconds spent importing and running the output (`exercise`). */
  exerciseMs?: number;
  /** The output root (`<dir>/out`). */
  outRoot: string;
  /** Set when `generate` returned: the output files it reported, relative to the output root. */
  files?: string[];
  /** Set when `generate` threw. */
  error?: {
    name: string;
    message: string;
    stack: string;
    spec?: { file: string; model: string | undefined; pointer: string; problem: string };
  };
  /** Why a SpecError does not count as a named refusal (internal exception text, pointer that points nowhere). */
  unnamed?: string;
  /** Output files or entries outside the output directory. */
  escapes: string[];
  /** After a failed run: files under generated/ that differ from before, temporary files. */
  partial: string[];
  /** Unhandled rejections and uncaught exceptions seen while the case ran. */
  stray: string[];
  /** After a successful run: sentinels that ran when the output was imported, modules or validators that threw, validators slow on hostile input. */
  ran?: { sentinels: string[]; throws: string[]; slow: string[] };
  /** After a successful run: the oracle modules written under `out/oracle/` (fuzz/oracle-case.ts). */
  oracle?: OracleCase;
}

/** The files every case's `generated/` starts with (from the template run). */
const SEEDED = ['generated/openapi.ts', 'generated/manifest.json'];

const stray: string[] = [];
process.on(
  'unhandledRejection',
  (e) => void stray.push(`unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
);
process.on('uncaughtException', (e) => void stray.push(`uncaught exception: ${e.stack ?? e.message}`));

let generator: Promise<typeof import('../generator/index.ts')> | undefined;
/** `generate`, with the package's target unformatted when the fuzzer runs with `--unformatted` (as a user's default output is). */
const generate: typeof import('../generator/index.ts').generate = async (o) => {
  const g = await (generator ??= import('../generator/index.ts'));
  return g.generate(process.env['FUZZ_UNFORMATTED'] ? { ...o, target: { ...g.packageTarget, format: null } } : o);
};

/** Every entry under `dir` (files and symbolic links, not followed), relative, with its bytes for files. */
function listTree(dir: string): Map<string, Buffer | 'link'> {
  const out = new Map<string, Buffer | 'link'>();
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(e.parentPath, e.name);
    const rel = path.relative(dir, full).split(path.sep).join('/');
    if (e.isSymbolicLink()) out.set(rel, 'link');
    else if (e.isFile()) out.set(rel, readFileSync(full));
  }
  return out;
}

function prepareOut(outRoot: string, template: string): void {
  mkdirSync(path.join(outRoot, 'generated'), { recursive: true });
  for (const f of SEEDED) if (existsSync(path.join(template, f))) cpSync(path.join(template, f), path.join(outRoot, f));
  symlinkSync(path.join(REPO_ROOT, 'runtime'), path.join(outRoot, 'runtime'), 'dir');
}

async function runCase(c: FuzzCase, dir: string, template: string): Promise<ChildResult> {
  const specsDir = path.join(dir, 'specs');
  const outRoot = path.join(dir, 'out');
  const specFiles = writeCase(c, specsDir);
  prepareOut(outRoot, template);
  const before = listTree(path.join(outRoot, 'generated'));
  stray.length = 0;
  const result: ChildResult = { index: c.index, ms: 0, outRoot, escapes: [], partial: [], stray: [] };
  const t0 = performance.now();
  try {
    const r = await generate({ specsDir, outRoot, check: false, label: 'specs' });
    result.files = [...r.files.keys()];
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    result.error = { name: e.name, message: e.message, stack: e.stack ?? e.message };
    if (err instanceof SpecError) {
      result.error.spec = { file: err.file, model: err.model, pointer: err.pointer, problem: err.problem };
      const why = namedRefusalProblem(err, documentOf(c, err.file));
      if (why) result.unnamed = why;
    } else result.unnamed = `${e.name}: ${e.message}`;
  }
  result.ms = performance.now() - t0;
  if (result.files) {
    const t1 = performance.now();
    result.ran = await exercise(outRoot, requestSchemas(c));
    result.exerciseMs = performance.now() - t1;
  }
  // let late rejections of this case surface here, not in the next one
  await new Promise((r) => setImmediate(r));
  result.stray = [...stray];

  // Files outside the output directory: output paths that leave it, and new entries anywhere in the case directory.
  for (const f of result.files ?? []) {
    const abs = path.resolve(outRoot, f);
    if (path.isAbsolute(f) || !abs.startsWith(`${outRoot}${path.sep}`))
      result.escapes.push(`output path ${JSON.stringify(f)} resolves to ${abs}`);
  }
  const allowedSpecs = new Set(specFiles.map((f) => `specs/${f}`));
  for (const [rel, kind] of listTree(dir)) {
    if (allowedSpecs.has(rel) || rel === 'out/runtime' || rel.startsWith('out/generated/')) {
      if (rel.startsWith('out/generated/') && kind === 'link') result.escapes.push(`symbolic link ${rel}`);
      continue;
    }
    result.escapes.push(`unexpected ${kind === 'link' ? 'symbolic link' : 'file'} ${rel}`);
  }
  // A failed run leaves generated/ as it was, with no temporary file.
  const after = listTree(path.join(outRoot, 'generated'));
  for (const [rel, bytes] of after) {
    if (/\.tmp|~$|\.bak/.test(rel)) result.partial.push(`temporary file generated/${rel}`);
    else if (result.error) {
      const old = before.get(rel);
      if (old === undefined) result.partial.push(`generated/${rel} written by a failed run`);
      else if (old === 'link' || bytes === 'link' || !old.equals(bytes))
        result.partial.push(`generated/${rel} changed by a failed run`);
    }
  }
  if (result.error)
    for (const rel of before.keys())
      if (!after.has(rel)) result.partial.push(`generated/${rel} removed by a failed run`);
  // written after the checks above: they are the fuzzer's files, not the generator's
  if (result.files && result.escapes.length === 0)
    result.oracle = await writeOracleModules(
      outRoot,
      specsDir,
      c.list instanceof RawText ? undefined : c.list,
      result.files,
    );
  return result;
}

/** The request schema of each model file of the case, by file name (the model id of a case that generated). */
function requestSchemas(c: FuzzCase): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const f of c.files) {
    const m = f.content;
    if (m instanceof RawText || m === null || typeof m !== 'object') continue;
    const schema =
      (m as Record<string, unknown>)['request_schema'] ?? (m as Record<string, unknown>)['json_request_schema'];
    if (schema !== undefined && schema !== null) out.set(f.name, schema);
  }
  return out;
}

/** The parsed document a SpecError's file names, when it is one of the case's JSON files. */
function documentOf(c: FuzzCase, file: string): { found: boolean; value?: unknown } {
  if (file === 'specs/models.json')
    return c.list instanceof RawText ? { found: false } : { found: true, value: c.list };
  const m = /^specs\/models\/(.*)\.json$/s.exec(file);
  const f = m ? c.files.find((x) => x.name === m[1]) : undefined;
  return f && !(f.content instanceof RawText) ? { found: true, value: f.content } : { found: false };
}

async function template(dir: string): Promise<void> {
  const c: FuzzCase = {
    seed: 0,
    index: -1,
    family: 'template',
    note: 'template',
    sentinels: 0,
    list: ['flux-2-pro'],
    files: [
      {
        name: 'flux-2-pro',
        content: JSON.parse(readFileSync(path.join(REPO_ROOT, 'specs/models/flux-2-pro.json'), 'utf8')),
      },
    ],
  };
  writeCase(c, path.join(dir, 'specs'));
  mkdirSync(path.join(dir, 'out'), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, 'runtime'), path.join(dir, 'out', 'runtime'), 'dir');
  await generate({ specsDir: path.join(dir, 'specs'), outRoot: path.join(dir, 'out'), check: false, label: 'specs' });
}

type Request =
  { type: 'run'; seed: number; index: number; dir: string; template: string } | { type: 'template'; dir: string };

process.on('message', (msg: Request) => {
  const reply = (x: unknown) => process.send!(x);
  if (msg.type === 'template') {
    template(msg.dir).then(
      () => reply({ ok: true }),
      (e: unknown) => reply({ ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
    );
  } else {
    runCase(buildCase(msg.seed, msg.index), msg.dir, msg.template).then(reply, (e: unknown) =>
      reply({
        index: msg.index,
        ms: 0,
        outRoot: '',
        escapes: [],
        partial: [],
        stray: [],
        error: { name: 'FuzzerError', message: String(e), stack: e instanceof Error ? (e.stack ?? '') : String(e) },
        unnamed: `the fuzzer failed to run the case: ${e instanceof Error ? e.message : String(e)}`,
      } satisfies ChildResult),
    );
  }
});
// A child whose parent went away (killed, timed out) must not linger.
process.on('disconnect', () => process.exit(0));

// Ready once the generator is loaded, so that a case's time limit covers only its own work.
generator = import('../generator/index.ts');
generator.then(
  () => process.send!({ ready: true }),
  (e: unknown) => {
    process.stderr.write(`cannot load the generator: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
