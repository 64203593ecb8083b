/**
 * The generator pipeline: load -> (refresh) -> classify -> name -> types -> emit -> write, one
 * file per stage (see ARCHITECTURE.md). Data flows one way; no stage mutates its inputs (the load
 * stage freezes them). Nothing is written until every stage has succeeded.
 *
 * Each output file is a job with an inputs hash (`output/manifest.ts`); a file whose inputs and
 * content still match the committed manifest is reused as it is on disk, so only what changed is
 * typed, emitted and formatted, and the libraries of a stage are loaded only when it has work.
 * `--check` does not trust the manifest (a commit can edit it): it reuses only a file that this
 * machine built itself for the same inputs (`output/built.ts`) and rebuilds every other one.
 */
import path from 'node:path';
import { REPO_ROOT, specsLabel } from './paths.ts';
import { classify, type ClassifyNote } from './stages/classify.ts';
import { modelModule, type OutputFiles } from './stages/emit.ts';
import { indexModule } from './stages/index-module.ts';
import { validatorTableModule } from './stages/validator-table-module.ts';
import { paramsModule } from './stages/params-module.ts';
import { openapiModule } from './stages/openapi.ts';
import { operationsOf, type OperationsTable } from './stages/operations.ts';
import { modelsMarkdown } from './stages/reference.ts';
import { header, loadTemplates, modelDoc } from './stages/templates.ts';
import { load } from './stages/load.ts';
import { fingerprint, hash, readManifest, renderManifest, type ManifestEntry } from './output/manifest.ts';
import { fileStem, nameModels } from './stages/name.ts';
import { modelType, type ModelType } from './stages/types.ts';
import { validatorModule, type CompileValidator } from './stages/validators.ts';
import { packageTarget, RUNTIME_OPERATIONS_FILE, writesRuntime, type Target } from './output/target.ts';
import { userIndexModule, type UserIndexModel } from './stages/user-index.ts';
import { readBuilt, writeBuilt } from './output/built.ts';
import { completeInterrupted } from './output/lock.ts';
import { checkOwnedOutput } from './output/target.ts';
import { treeDigest, type HeldLock } from './output/tree-commit.ts';
import { JobQueue } from './stages/job-queue.ts';
import { write, type WriteResult } from './stages/write.ts';
import { byCodeUnits } from './order.ts';
import { operationsModule } from './stages/operations-module.ts';
import { docsInputs } from './stages/endpoint-docs.ts';
import { emptyBreakdown, layerOff, type Breakdown } from './output/layers.ts';
import { fillHoles } from './stages/layout/index.ts';
import { FORMATTED, formattedBefore, reuse, type Job } from './output/reuse.ts';
import { formatReference } from './stages/reference-layout.ts';

export { REPO_ROOT, specsLabel };
export { packageTarget, userTarget, type Target } from './output/target.ts';

/** The package name used in import paths of the model reference. */
const PACKAGE_NAME = 'oxen-inference-sdk';

/** Options of one run. */
export interface GenerateOptions {
  /** The specs directory. Default `<repo>/specs`. */
  specsDir?: string;
  /** Where `generated/` is written. Default the repository root. */
  outRoot?: string;
  /**
   * Write nothing; report what would change. Every file is regenerated and compared byte for byte
   * (unless `reuse`), except one whose bytes this machine built itself for the same inputs
   * (`output/built.ts`): `--check` does not trust the manifest, which a commit can edit along with a file.
   */
  check?: boolean;
  /**
   * Reuse a file on disk, without rebuilding it, when the manifest records its inputs as unchanged
   * and its bytes as the ones on disk: what makes an up-to-date run fast. It trusts the manifest, so
   * it never decides `check` by default; a refresh's proof run sets it (it writes what plain
   * `generate` would). @default !check
   */
  reuse?: boolean;
  /**
   * Replace the output even when its folder (`<out>`, or `generated/`) is not empty and holds no
   * manifest of this generator: by default such a folder is refused, since the run would replace
   * files it did not make (`checkOwnedOutput`).
   */
  force?: boolean;
  /** The lock of `outRoot` when the caller holds it already (a refresh that found nothing to change). */
  lock?: HeldLock;
  /**
   * How the specs directory is named in generated headers and messages. Default: its path
   * relative to the repository (`specsLabel`). Refresh sets it when it proves a staged copy, so
   * that the proof run's output is exactly the real run's.
   */
  label?: string;
  /** Where files go and how they import the runtime (default `packageTarget`: this repository's `generated/`). */
  target?: Target;
  /** The API description when it is not `<specsDir>/openapi.yaml`, and how headers and messages name it. */
  openapi?: { file: string; label: string };
  /**
   * What formats and compiles validators (`stages/job-queue.ts`), already started (the CLI
   * starts it before it fetches, so that prettier loads meanwhile); the caller closes it. Default:
   * one of the run's own.
   */
  jobs?: JobQueue;
  /**
   * Also produce `runtime/operations.ts` (the package target only: this repository's runtime), as
   * one more output file: reused through the manifest like the files of `generated/`, and written
   * in the same all-or-nothing commit. @default whether `outRoot` is this repository (`writesRuntime`)
   */
  runtime?: boolean;
}

/** What a run did (or, with `check`, would do). */
export interface GenerateResult extends WriteResult {
  /** Notes said once per model (e.g. an endpoint the description does not cover). */
  notes: ClassifyNote[];
  /** Every output file, by path relative to `outRoot`. */
  files: OutputFiles;
  models: number;
  /** Files rebuilt by this run (the others were reused from disk through the manifest). */
  rebuilt: string[];
  /** Of `rebuilt`, the files the generator laid out as prettier would (`stages/layout/`): prettier did not run on them. */
  laidOut: string[];
  /** The operations table of the API description (`stages/operations.ts`). */
  operations: OperationsTable;
}

/** Run the pipeline. @throws SpecError (file, model, JSON pointer) on bad input; nothing is written then. */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const t0 = performance.now();
  const lap = (stage: string) => {
    if (process.env['GENERATE_TIMING'])
      console.error(
        `[timing] ${stage} ${Math.round(performance.now() - t0)} ms, rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`,
      );
  };
  const specsDir = path.resolve(options.specsDir ?? path.join(REPO_ROOT, 'specs'));
  const outRoot = path.resolve(options.outRoot ?? REPO_ROOT);
  const target = options.target ?? packageTarget;
  const out = target.prefix;
  const manifestFile = `${out}manifest.json`;
  if (!options.check) {
    await completeInterrupted(outRoot); // a killed run may have moved specs/ or generated/ aside
    await checkOwnedOutput(outRoot, target, { force: options.force ?? false });
  }
  // what the output is made from, checked again before writing: an `add` meanwhile is not undone
  const inputsDigest = options.check ? undefined : treeDigest(specsDir);
  inputsDigest?.catch(() => undefined); // awaited by the write; a failure before then must not be unhandled
  const templatesP = loadTemplates(path.join(REPO_ROOT, 'templates'));
  // a user's target has no openapi.ts: the generator package does not depend on openapi-typescript
  const fingerprintP = fingerprint(REPO_ROOT, target.packageFiles ? [] : ['openapi-typescript']);
  const priorP =
    (options.reuse ?? !options.check) && !layerOff('manifest')
      ? readManifest(outRoot, manifestFile)
      : Promise.resolve(new Map<string, ManifestEntry>());
  const specs = await load({
    specsDir,
    label: options.label ?? specsLabel(specsDir),
    ...(options.openapi ? { openapi: options.openapi } : {}),
  });
  const [t, fp, prior] = await Promise.all([templatesP, fingerprintP, priorP]);
  lap('load');
  const { models, notes } = classify(specs.models, specs.openapi);
  const named = nameModels(models, `${specs.label}/models.json`);
  const label = specs.label;
  const openapiFile = options.openapi?.label ?? `${label}/openapi.yaml`;
  const operations = operationsOf(specs.openapi, openapiFile);
  // Classification depends on the description's paths; the model modules' docs on the operations
  // table (method, path) and the runtime's default timeouts; on nothing else of it.
  const pathsKey = hash(
    JSON.stringify(Object.keys(specs.openapi.paths).sort()),
    JSON.stringify([...operations.values()]),
    docsInputs(),
  );
  const validated = new Set(named.filter((m) => m.schema && m.endpoints.includes('queue')).map((m) => m.id));

  const queue = options.jobs ?? new JobQueue(REPO_ROOT, { preloadPrettier: target.format !== null });
  // how files are formatted is part of every file's inputs: a change rebuilds them all
  const formatKey = JSON.stringify(target.format);
  const prettierConfig = target.format === 'repository' || target.format === null ? undefined : target.format.prettier;
  // modules laid out by the generator as prettier would (`stages/layout/`) need no prettier run:
  // only with the options and the prettier version that layout reproduces
  const layOut = target.format !== null && queue.laysOut(prettierConfig);
  const compileQueued: CompileValidator = (schema, o) => queue.compileValidator(schema, o);
  const spent = emptyBreakdown();
  /** `work`'s time on this thread, added to the breakdown's `activity`. */
  const timed = async <T>(activity: keyof Breakdown, work: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      spent[activity] += performance.now() - start;
    }
  };

  // The reference and the index first: the reference is the largest file to format, so prettier
  // starts on it while the models are typed (the package's index needs no type; a user's declares
  // the parameter types, so it waits for them).
  const jobs: Job[] = [];
  const modelJobs: Job[] = [];
  const modelKeys: string[] = [];
  /** Each model with its parameter type, typed at most once for every module that prints it. */
  const typedModels = new Map<string, () => Promise<(typeof named)[number] & { type: ModelType }>>();
  for (const m of named) {
    const raw = JSON.stringify(m.raw);
    const key = hash(fp, target.kind, formatKey, label, m.id, raw, pathsKey);
    modelKeys.push(key);
    // typed once for both modules that print it (its time counted as `types`, the printing as `emit`)
    let type: Promise<ReturnType<typeof modelType>> | undefined;
    const typed = async () => ({ ...m, type: await (type ??= timed('types', () => modelType(m, modelDoc(m)))) });
    typedModels.set(m.id, typed);
    modelJobs.push({
      file: `${out}models/${fileStem(m.id)}.ts`,
      inputs: hash('model', key),
      sources: [m.file, openapiFile],
      formatted: true,
      build: async (layOut) => {
        const t = await typed();
        return timed('emit', () => modelModule(t, validated.has(m.id), operations, target, layOut));
      },
    });
    // a user's index declares the parameter types itself
    if (target.kind === 'package')
      modelJobs.push({
        file: `${out}params/${fileStem(m.id)}.ts`,
        inputs: hash('params', key),
        sources: [m.file],
        formatted: true,
        build: async (layOut) => {
          const t = await typed();
          return timed('emit', () => paramsModule(t, target, layOut));
        },
      });
    if (validated.has(m.id))
      modelJobs.push({
        file: `${out}validators/${fileStem(m.id)}.ts`,
        inputs: hash('validator', key),
        sources: [m.file],
        formatted: false,
        // the compile's own time is `queue.spent`'s
        build: async () => (await validatorModule(m, target, compileQueued))!,
      });
  }
  const allKey = hash(fp, target.kind, formatKey, label, ...modelKeys);
  const list = [`${label}/models.json`, `${label}/models/*.json`];
  if (target.packageFiles) {
    const openapiKey = hash('openapi', fp, JSON.stringify(specs.openapi));
    jobs.push({
      file: `${out}openapi.ts`,
      inputs: hash(openapiKey, label),
      sources: [openapiFile],
      formatted: true,
      build: (layOut) => timed('openapi', () => openapiModule(specs.openapi, openapiFile, layOut)),
    });
    jobs.push({
      file: `${out}MODELS.md`,
      inputs: hash('models.md', allKey),
      sources: list,
      formatted: true,
      build: () => timed('emit', () => modelsMarkdown(t, named, label, PACKAGE_NAME)),
    });
  }
  jobs.push({
    file: `${out}index.ts`,
    inputs: hash('index', allKey),
    sources: list,
    formatted: true,
    build: async (layOut) => {
      // one after another: each typing's time is its own in the breakdown
      const typed: Array<UserIndexModel> = [];
      if (target.kind === 'user') for (const m of named) typed.push(await typedModels.get(m.id)!());
      return timed('emit', () =>
        target.kind === 'package'
          ? indexModule(named, validated, label, layOut)
          : userIndexModule(typed, label, layOut),
      );
    },
  });
  jobs.push({
    file: `${out}validator-table.ts`,
    inputs: hash('validator-table', allKey),
    sources: list,
    formatted: true,
    build: (layOut) =>
      timed('emit', () =>
        validatorTableModule(
          named,
          validated,
          target.kind === 'user' ? { runtimeTypes: target.runtime.types } : undefined,
          layOut,
        ),
      ),
  });
  const runtime = target.kind === 'package' && (options.runtime ?? writesRuntime(target, outRoot, REPO_ROOT));
  if (runtime)
    jobs.push({
      file: RUNTIME_OPERATIONS_FILE,
      // made from the operations table alone (and the generator: `fp`)
      inputs: hash('runtime-operations', fp, formatKey, openapiFile, JSON.stringify([...operations.values()])),
      sources: [openapiFile],
      formatted: true,
      build: (layOut) => timed('emit', () => operationsModule(operations, layOut)),
    });
  jobs.push(...modelJobs);

  const files: OutputFiles = new Map();
  const manifest = new Map<string, ManifestEntry>();
  const rebuilt: string[] = [];
  const laidOut: string[] = [];
  // Reuse what the manifest allows; build the rest in turn, each text formatted after it is built.
  // with the manifest switched off, a run reuses nothing: a fresh clone has no record of this machine's either
  const built = layerOff('manifest') ? new Map<string, string>() : readBuilt(outRoot);
  const reused = layerOff('inputs')
    ? jobs.map(() => undefined)
    : await Promise.all(jobs.map((job) => reuse(job, { prior, built }, outRoot)));
  const texts: Array<Promise<string>> = [];
  /** Per formatted file this run built: `formatKey` of its text, recorded with the formatted text's hash. */
  const formatKeys = new Map<string, string>();
  try {
    for (const [i, job] of jobs.entries()) {
      const kept = reused[i];
      if (kept !== undefined) {
        texts.push(Promise.resolve(kept.text));
        continue;
      }
      rebuilt.push(job.file);
      const body = await job.build(layOut);
      const head = header(t, job.sources, job.file.endsWith('.md'), target);
      if (typeof body !== 'string') {
        // in prettier's layout already (but for the statements it leaves to prettier), under a header prettier keeps as it is
        laidOut.push(job.file);
        const holes = body.holes ?? [];
        if (holes.length === 0) {
          texts.push(Promise.resolve(`${head}\n${body.laidOut}`));
          continue;
        }
        // the record of formatted texts serves such a file too: its key covers the laid-out text and every hole
        const key = queue.formatKey(`${head}\n${body.laidOut}\u0000${holes.join('\u0000')}`, job.file, prettierConfig);
        if (key !== undefined) formatKeys.set(job.file, key);
        const same = key === undefined ? undefined : await formattedBefore(job.file, key, built, outRoot);
        const filled =
          same !== undefined
            ? Promise.resolve(same)
            : fillHoles(body, (part) => queue.format(part, job.file, prettierConfig)).then((b) => `${head}\n${b}`);
        filled.catch(() => undefined); // awaited below; a failure before then must not be unhandled
        texts.push(filled);
        continue;
      }
      const text = `${head}\n${body}`;
      const key = job.formatted && target.format !== null ? queue.formatKey(text, job.file, prettierConfig) : undefined;
      if (key !== undefined) formatKeys.set(job.file, key);
      const same = key === undefined ? undefined : await formattedBefore(job.file, key, built, outRoot);
      const formatted =
        same !== undefined
          ? Promise.resolve(same)
          : job.formatted && target.format !== null
            ? layOut && job.file === `${out}MODELS.md`
              ? formatReference(text, (part) => queue.format(part, job.file, prettierConfig))
              : queue.format(text, job.file, prettierConfig)
            : Promise.resolve(text);
      formatted.catch(() => undefined); // awaited below; a failure before then must not be unhandled
      texts.push(formatted);
    }
    const builtNow = new Map<string, string>();
    for (const [i, job] of jobs.entries()) {
      const text = await texts[i]!;
      const content = hash(text);
      files.set(job.file, text);
      manifest.set(job.file, { inputs: job.inputs, content });
      // what this run built, or found as this machine built it: never a file only the manifest vouches for
      if (reused[i] === undefined || reused[i].built) builtNow.set(job.inputs, content);
      // how the text was formatted: this run's, or the record's when the file was reused unchanged
      const key = formatKeys.get(job.file);
      const before = built.get(`${FORMATTED}${job.file}`);
      if (key !== undefined) builtNow.set(`${FORMATTED}${job.file}`, `${key} ${content}`);
      else if (reused[i] !== undefined && before?.endsWith(` ${content}`))
        builtNow.set(`${FORMATTED}${job.file}`, before);
    }
    writeBuilt(outRoot, builtNow);
  } finally {
    spent.format = queue.spent.format;
    spent.validators = queue.spent.validator;
    if (!options.jobs) await queue.close();
  }
  lap('emit and format');
  files.set(
    manifestFile,
    renderManifest(manifest, target.header.command, target.kind === 'user' ? { format: target.format !== null } : {}),
  );
  const sorted: OutputFiles = new Map([...files].sort(([a], [b]) => byCodeUnits(a, b)));
  const result = await timed('write', () =>
    write(sorted, outRoot, {
      check: options.check ?? false,
      managed: target.managed,
      ...(runtime ? { outside: [RUNTIME_OPERATIONS_FILE] } : {}),
      ...(inputsDigest ? { inputs: { dir: specsDir, digest: inputsDigest } } : {}),
      ...(options.lock ? { lock: options.lock } : {}),
    }),
  );
  lap('write');
  if (process.env['GENERATE_TIMING'])
    console.error(
      `[timing] breakdown ${JSON.stringify(spent, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v) : v))}`,
    );
  return {
    ...result,
    notes,
    files: sorted,
    models: named.length,
    rebuilt: rebuilt.sort(),
    laidOut: laidOut.sort(),
    operations,
  };
}
