/**
 * Stage 1, load: read `specs/openapi.yaml` (checked) and the snapshot (`specs/models.json` and
 * `specs/models/<id>.json`), and normalise each model's schema to one field, `schema` (the
 * service names it `request_schema` or `json_request_schema`; this is the only place that knows).
 *
 * Every problem is a `SpecError` naming the file, the model and the JSON pointer. Inputs are
 * deep-frozen so that no later stage can mutate them. `checkModel` is synchronous (refresh and the
 * CLI check fetched objects with it); the patterns' proof against catastrophic backtracking, which
 * must let the event loop turn, comes after it here (`pattern-check.ts`), so every run that
 * generates does it.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { load as parseYaml } from 'js-yaml';
import { SpecError, pointerToken } from '../errors.ts';
import { checkPatterns } from './pattern-check.ts';
import {
  checkBounds,
  checkSupported,
  malformedText,
  MAX_JSON_DEPTH,
  MAX_MODEL_BYTES,
  modelIdProblem,
  tooDeep,
} from './schema-check.ts';
import { specFile } from './name.ts';
// ajv's code of the checks' schemas (check-schemas.ts), generated ahead so that a run compiles none
import { draft07, modelObject, openapiShape, requestSchemaShape } from './check-validators.mjs';

/** A JSON Schema object, as found in the snapshot. */
export type JsonSchema = { readonly [key: string]: unknown };

/** One model of the snapshot. */
export interface LoadedModel {
  id: string;
  /** Snapshot file, relative to the repository root, e.g. `specs/models/flux-2-pro.json`. */
  file: string;
  /** Which field held the schema in the file, or null when the schema is null or absent. */
  schemaField: 'request_schema' | 'json_request_schema' | null;
  /** The request schema, or null (chat models take the standard chat body). */
  schema: JsonSchema | null;
  displayName: string | undefined;
  description: string | undefined;
  /** The path the models API says the model is served on, e.g. `/images/edit`. */
  endpoint: string | undefined;
  capabilities: { input: readonly string[]; output: readonly string[] } | undefined;
  /** The whole model object as stored. */
  raw: JsonSchema;
}

/** The parsed OpenAPI document (only what the generator reads is typed). */
export interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

/** Everything the pipeline reads. */
export interface Specs {
  /** Absolute path of the specs directory. */
  dir: string;
  /** Path prefix used in messages and headers, e.g. `specs`. */
  label: string;
  openapi: OpenApiDoc;
  /** The models, in the order of `specs/models.json`. */
  models: LoadedModel[];
}

/** Where the pipeline reads from. */
export interface LoadOptions {
  /** The specs directory (holding openapi.yaml, models.json, models/). */
  specsDir: string;
  /** How files are named in messages (relative to the repository root). Default `specs`. */
  label?: string;
  /** The API description, when it is not `<specsDir>/openapi.yaml` (a user's snapshot uses the generator's), and how messages name it. */
  openapi?: { file: string; label: string };
}

const SCHEMA_FIELDS = ['request_schema', 'json_request_schema'] as const;

function firstProblem(errors: ErrorObject[] | null | undefined, base: string): { pointer: string; message: string } {
  const e = errors?.[0];
  if (!e) return { pointer: base, message: 'invalid' };
  const extra =
    e.keyword === 'required' ? `/${pointerToken((e.params as { missingProperty: string }).missingProperty)}` : '';
  return {
    pointer: base + e.instancePath + extra,
    message: `${e.message ?? 'invalid'}${e.keyword === 'enum' ? ` (${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)})` : ''}`,
  };
}

/** Deep-freeze a parsed JSON value so later stages cannot mutate the inputs (iterative: any depth). */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v && typeof v === 'object' && !Object.isFrozen(v)) {
      Object.freeze(v);
      for (const child of Object.values(v)) stack.push(child);
    }
  }
  return value;
}

async function readText(file: string, label: string, model?: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new SpecError(label, model, '', `cannot read: ${(err as Error).message}`);
  }
}

function parseJson(text: string, label: string, model?: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (err instanceof RangeError)
      throw new SpecError(
        label,
        model,
        '',
        `nested too deeply to parse (more than ${MAX_JSON_DEPTH} levels are not supported)`,
      );
    throw new SpecError(label, model, '', `malformed JSON: ${(err as Error).message}`);
  }
}

/**
 * The model objects (id and JSON text) that passed `checkModel` in this process: the same
 * object again (a fetched model, then its staged file) passes without the checks being run again.
 * The checks depend on nothing else; the file label only names the file in an error.
 */
const passed = new Set<string>();

/** Check one model object and normalise it. Exported for the refresh stage, which checks fetched objects before writing them. */
export function checkModel(raw: unknown, expectedId: string, file: string): LoadedModel {
  const idProblem = modelIdProblem(expectedId);
  if (idProblem)
    throw new SpecError(
      file,
      JSON.stringify(expectedId),
      '/id',
      `model id ${JSON.stringify(expectedId)} refused: ${idProblem}`,
    );
  const deep = tooDeep(raw, MAX_JSON_DEPTH + 1);
  if (deep !== undefined)
    throw new SpecError(file, expectedId, deep, `nested deeper than ${MAX_JSON_DEPTH} levels: not supported`);
  checkBounds(raw, file, expectedId); // before the schema checks: each of them is then bounded
  const key = `${expectedId}\0${JSON.stringify(raw)}`;
  if (!passed.has(key)) {
    verifyModel(raw, expectedId, file);
    passed.add(key);
  }
  return normalise(raw as Record<string, unknown>, expectedId, file);
}

/** The checks of `checkModel` after the bounds. @throws SpecError naming the file, the model and the JSON pointer. */
function verifyModel(raw: unknown, expectedId: string, file: string): void {
  const malformed = malformedText(raw);
  if (malformed !== undefined)
    throw new SpecError(
      file,
      expectedId,
      malformed,
      'a name or text that is not well-formed Unicode (a lone surrogate): not supported',
    );
  if (!modelObject(raw)) {
    const p = firstProblem(modelObject.errors, '');
    throw new SpecError(file, expectedId, p.pointer, `not a model-details object: ${p.message}`);
  }
  const obj = raw as Record<string, unknown>;
  if (obj['id'] !== expectedId)
    throw new SpecError(
      file,
      expectedId,
      '/id',
      `id is ${JSON.stringify(obj['id'])}, but the snapshot lists ${JSON.stringify(expectedId)} for this file`,
    );
  const present = SCHEMA_FIELDS.filter((f) => obj[f] !== undefined && obj[f] !== null);
  if (present.length > 1)
    throw new SpecError(
      file,
      expectedId,
      `/${present[1]}`,
      `both request_schema and json_request_schema are set; expected one`,
    );
  const schemaField = present[0] ?? null;
  const schema = schemaField ? (obj[schemaField] as JsonSchema) : null;
  if (schema && schemaField) {
    const base = `/${schemaField}`;
    checkSupported(schema, file, expectedId, base);
    // $schema (draft-07, checked above) and a root $id are not given to ajv: they would select or register meta-schemas.
    const { $schema: _dialect, $id: _id, ...plain } = schema as Record<string, unknown>;
    let valid: boolean;
    try {
      valid = draft07(plain);
    } catch {
      throw new SpecError(
        file,
        expectedId,
        base,
        'not a valid JSON Schema (draft-07): the meta-schema check failed on it',
      );
    }
    if (!valid) {
      const p = firstProblem(draft07.errors, base);
      throw new SpecError(file, expectedId, p.pointer, `not a valid JSON Schema: ${p.message}`);
    }
    if (!requestSchemaShape(schema)) {
      const p = firstProblem(requestSchemaShape.errors, base);
      throw new SpecError(file, expectedId, p.pointer, `request schema must be an object schema: ${p.message}`);
    }
    const props = (schema['properties'] ?? {}) as Record<string, unknown>;
    for (const [i, name] of ((schema['required'] ?? []) as string[]).entries()) {
      if (!Object.hasOwn(props, name))
        throw new SpecError(
          file,
          expectedId,
          `${base}/required/${i}`,
          `required property ${JSON.stringify(name)} is not in properties`,
        );
    }
  }
}

/** The normalised model of an object that passed the checks: one schema field (`request_schema` or `json_request_schema`) becomes `schema`. */
function normalise(obj: Record<string, unknown>, expectedId: string, file: string): LoadedModel {
  const schemaField = SCHEMA_FIELDS.find((f) => obj[f] !== undefined && obj[f] !== null) ?? null;
  const schema = schemaField ? (obj[schemaField] as JsonSchema) : null;
  const caps = obj['capabilities'] as { input?: string[]; output?: string[] } | undefined;
  return {
    id: expectedId,
    file,
    schemaField,
    schema,
    displayName: (obj['display_name'] as string | null | undefined) ?? undefined,
    description: (obj['description'] as string | null | undefined) ?? undefined,
    endpoint: obj['endpoint'] as string | undefined,
    capabilities: caps ? { input: caps.input ?? [], output: caps.output ?? [] } : undefined,
    raw: obj,
  };
}

/**
 * The API description this process last parsed and checked, with the text it came from and how it was parsed: a process that
 * generates again from the same description (the fuzzer's cases, the tests) parses it once (js-yaml takes
 * about 8 ms for this repository's). Frozen, so every run may share it.
 */
let lastOpenapi: { text: string; json: boolean; doc: OpenApiDoc } | undefined;

/** Reads, parses and checks the API description `file` (YAML, or JSON by extension). @throws SpecError naming `label`. */
async function loadOpenapi(file: string, label: string): Promise<OpenApiDoc> {
  const text = await readText(file, label);
  const json = file.endsWith('.json');
  if (lastOpenapi?.text === text && lastOpenapi.json === json) return lastOpenapi.doc;
  let openapi: unknown;
  try {
    // the generator package ships the description pre-parsed as JSON (JSON.parse is ~10x faster than js-yaml)
    openapi = json ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new SpecError(label, undefined, '', `malformed YAML: ${(err as Error).message}`);
  }
  if (!openapiShape(openapi)) {
    const p = firstProblem(openapiShape.errors, '');
    throw new SpecError(label, undefined, p.pointer, `not an OpenAPI 3.1 document: ${p.message}`);
  }
  const doc = deepFreeze(openapi) as OpenApiDoc;
  lastOpenapi = { text, json, doc };
  return doc;
}

/** Load and check the specs. @throws SpecError on any bad input (nothing is written by this stage). */
export async function load(options: LoadOptions): Promise<Specs> {
  const dir = path.resolve(options.specsDir);
  const label = options.label ?? 'specs';

  const openapiLabel = options.openapi?.label ?? `${label}/openapi.yaml`;
  const openapi = await loadOpenapi(options.openapi?.file ?? path.join(dir, 'openapi.yaml'), openapiLabel);

  const listLabel = `${label}/models.json`;
  const ids = parseJson(await readText(path.join(dir, 'models.json'), listLabel), listLabel);
  if (!Array.isArray(ids)) throw new SpecError(listLabel, undefined, '', 'expected a JSON array of model ids');
  const seen = new Map<string, number>();
  ids.forEach((id, i) => {
    if (typeof id !== 'string' || id === '')
      throw new SpecError(listLabel, undefined, `/${i}`, 'expected a non-empty string model id');
    const problem = modelIdProblem(id);
    if (problem)
      throw new SpecError(
        listLabel,
        JSON.stringify(id),
        `/${i}`,
        `model id ${JSON.stringify(id)} refused: ${problem} (see generator/schema-check.ts)`,
      );
    const dup = seen.get(id);
    if (dup !== undefined) throw new SpecError(listLabel, id, `/${i}`, `duplicate model id (also at /${dup})`);
    seen.set(id, i);
  });

  const models = await Promise.all(
    (ids as string[]).map(async (id) => {
      const file = `${label}/${specFile(id)}`;
      const size = (await stat(path.join(dir, specFile(id))).catch(() => undefined))?.size ?? 0;
      if (size > MAX_MODEL_BYTES)
        throw new SpecError(
          file,
          id,
          '',
          `the file is ${size} bytes: larger than the ${MAX_MODEL_BYTES} bytes supported for a model object`,
        );
      const raw = parseJson(await readText(path.join(dir, specFile(id)), file, id), file, id);
      return checkModel(deepFreeze(raw), id, file); // deepFreeze is iterative: checkModel's depth check comes after it safely
    }),
  );
  // one model after the other: each check holds memory until the event loop turns (pattern-check.ts)
  for (const m of models) await checkPatterns(m);
  return { dir, label, openapi, models };
}
