/**
 * The generator pipeline: load -> (refresh) -> classify -> name -> types -> emit -> write, one
 * file per stage (see ARCHITECTURE.md). Data flows one way; no stage mutates its inputs (the load
 * stage freezes them). Nothing is written until every stage has succeeded.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT, specsLabel } from './paths.ts';
import { classify, type ClassifyNote } from './classify.ts';
import { OutputCache, hash, packageVersion } from './cache.ts';
import { emit, loadTemplates, modelDoc, startOpenapiModule, type OutputFiles } from './emit.ts';
import { load } from './load.ts';
import { nameModels } from './name.ts';
import { modelType } from './types.ts';
import { format, prettierOptions, write, type WriteResult } from './write.ts';

export { REPO_ROOT, specsLabel };

/** Options of one run. */
export interface GenerateOptions {
  /** The specs directory. Default `<repo>/specs`. */
  specsDir?: string;
  /** Where `generated/` is written. Default the repository root. */
  outRoot?: string;
  /** Write nothing; report what would change. */
  check?: boolean;
  /**
   * How the specs directory is named in generated headers and messages. Default: its path
   * relative to the repository (`specsLabel`). Refresh sets it when it proves a staged copy, so
   * that the proof run's output (and the output cache) is exactly the real run's.
   */
  label?: string;
}



/** What a run did (or, with `check`, would do). */
export interface GenerateResult extends WriteResult {
  /** Notes said once per model (e.g. an endpoint the description does not cover). */
  notes: ClassifyNote[];
  /** Every output file (formatted), by path relative to `outRoot`. */
  files: OutputFiles;
  models: number;
}

/** Run the pipeline. @throws SpecError (file, model, JSON pointer) on bad input; nothing is written then. */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const t0 = performance.now();
  const lap = (stage: string) => { if (process.env['GENERATE_TIMING']) console.error(`[timing] ${stage} ${Math.round(performance.now() - t0)} ms`); };
  const specsDir = path.resolve(options.specsDir ?? path.join(REPO_ROOT, 'specs'));
  const outRoot = path.resolve(options.outRoot ?? REPO_ROOT);
  const templates = loadTemplates(path.join(REPO_ROOT, 'templates'));
  const specs = await load({ specsDir, label: options.label ?? specsLabel(specsDir) });
  lap('load');
  const t = await templates;
  const cache = await OutputCache.open(REPO_ROOT);
  // generated/openapi.ts is built on the other core while the models are typed and emitted here,
  // unless the cache shows that the file on disk is already what it would be.
  const openapiFile = `${specs.label}/openapi.yaml`;
  const openapiTarget = 'generated/openapi.ts';
  const openapiOptions = await prettierOptions(REPO_ROOT, openapiTarget);
  const openapiKey = hash('openapi-typescript', await packageVersion(REPO_ROOT, 'openapi-typescript'), await readFile(new URL('./openapi-worker.mjs', import.meta.url), 'utf8'), await packageVersion(REPO_ROOT, 'prettier'), JSON.stringify(openapiOptions), t.header({ sources: [openapiFile] }), JSON.stringify(specs.openapi));
  const openapiReused = await cache.reuse(openapiKey, path.join(outRoot, openapiTarget));
  const openapi = openapiReused !== undefined ? Promise.resolve(openapiReused) : startOpenapiModule(t, specs.openapi, openapiFile, openapiOptions);
  openapi.catch(() => undefined); // awaited below; a failure before then must not be unhandled
  const { models, notes } = classify(specs.models, specs.openapi);
  const named = nameModels(models, `${specs.label}/models.json`);
  const typed = await Promise.all(named.map(async (m) => ({ ...m, type: await modelType(m, modelDoc(t, m)) })));
  lap('classify, name, types');
  const emitted = emit(specs, typed, t);
  lap('emit');
  const files = await format(emitted, REPO_ROOT, { cache, outRoot });
  lap('format');
  files.set(openapiTarget, await openapi);
  cache.remember(openapiKey, files.get(openapiTarget)!);
  lap('openapi worker');
  const result = await write(files, outRoot, { check: options.check ?? false });
  if (!options.check) await cache.save();
  lap('write');
  return { ...result, notes, files, models: typed.length };
}
