/**
 * Stage 6a, validators: each queueable model's request validator, compiled at generate time with
 * ajv's standalone code generation (`generated/validators/<id>.ts`), so that the SDK ships no
 * validator library and never evaluates strings at run time (it works under a Content-Security-
 * Policy without `'unsafe-eval'`).
 *
 * The compiled schema is the whole queue request body: the model's request schema (annotations
 * such as `description` removed: they do not validate), plus the fields the SDK adds to every
 * queue request, each unless the model's schema declares it — `model` (string), `response_format`
 * (`url` or `b64_json`), `target_namespace` (string), `num_generations` (integer 1 to 4) — closed
 * with `additionalProperties: false` unless the schema opens it (then the types are open too). A
 * video model's body may carry `multi_prompt` instead of `prompt` (see `queueRequestSchema`).
 *
 * OpenAPI's `nullable: true` admits null (`nullable.ts`, shared with the types); extension keys
 * (`x-*`) are removed before compiling.
 *
 * Formats: ajv-formats' checks where they are regular expressions (inlined as regex literals;
 * `uri` uses its "fast" form), except `url`, whose regular expression backtracks (8.8 s on 128 KB):
 * the runtime's `isUrl` checks it in linear time (`HELPER_FORMATS`); other formats are not checked.
 * The regular expressions kept stay under 100 ms on the fuzzer's hostile strings of 10 KB
 * (`test/generator/formats.test.ts`). Schema strings reach the code only as JSON (ajv's own
 * serialisation); a key `__proto__` stays a data key.
 */
import { SpecError } from '../errors.ts';
import type { ClassifiedModel } from './classify.ts';
import { escapeControlsInCode } from '../escape.ts';
import { compileStandalone, HELPER_MODULE, type CompileOptions } from './ajv-compile.mjs';
import { loadAjvFormats, loadTsMorph } from '../libraries.ts';
import { constStatement, importDeclaration, printModule, typeNode, withDoc } from './printer.ts';
import { subschemas } from './schema-walk.ts';
import { draftNullable } from './nullable.ts';
import { packageTarget, type Target } from '../output/target.ts';

/** The fields the SDK adds to a queue request, as JSON Schema. */
export const SDK_QUEUE_FIELDS: Readonly<Record<string, Record<string, unknown>>> = {
  model: { type: 'string', minLength: 1 },
  response_format: { enum: ['url', 'b64_json'] },
  target_namespace: { type: 'string' },
  num_generations: { type: 'integer', minimum: 1, maximum: 4 },
};

/** Keywords that only annotate: removed before compiling (smaller code, no prose in it). */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'examples',
  '$comment',
  'default',
  'readOnly',
  'writeOnly',
  'deprecated',
  'basic',
]);

/**
 * Formats checked by a helper of the runtime's `validator-support` instead of ajv-formats' regular
 * expression, which backtracks: format name -> the helper's name (a function of the string).
 */
export const HELPER_FORMATS: Readonly<Record<string, string>> = { url: 'isUrl' };

let formatTable: Record<string, RegExp> | undefined;

/** ajv-formats' formats that are regular expressions (the others are not checked), loaded once; without `HELPER_FORMATS`. */
export function regexFormats(): Record<string, RegExp> {
  if (formatTable) return formatTable;
  const { fullFormats, fastFormats } = loadAjvFormats();
  const asRegex = (f: unknown): RegExp | undefined =>
    f instanceof RegExp
      ? f
      : f && typeof f === 'object' && (f as { validate?: unknown }).validate instanceof RegExp
        ? (f as { validate: RegExp }).validate
        : undefined;
  const formats: Record<string, RegExp> = {};
  for (const name of Object.keys(fullFormats).sort()) {
    const re = asRegex(fullFormats[name]) ?? asRegex(fastFormats[name]);
    if (re && !re.global && !re.sticky && !Object.hasOwn(HELPER_FORMATS, name)) formats[name] = re;
  }
  formatTable = formats;
  return formats;
}

/**
 * Compiles one validator to ajv's standalone code: here (the default, on the calling thread) or in
 * `JobQueue.compileValidator` (`job-queue.ts`, one job at a time); both run `ajv-compile.mjs`.
 */
export type CompileValidator = (schema: Record<string, unknown>, options: CompileOptions) => Promise<string>;

/** `CompileValidator` on the calling thread. */
export const compileHere: CompileValidator = (schema, options) =>
  Promise.resolve().then(() => compileStandalone(schema, options));

/** Errors that mean ajv failed inside (its message would say nothing about the schema). */
const INTERNAL_ERRORS = new Set(['RangeError', 'TypeError', 'ReferenceError', 'URIError', 'SyntaxError']);

/**
 * A copy of a schema without annotation keywords and extension keys (`x-*`: never compiled, so
 * ajv's strict mode never sees one), `nullable` as its draft-07 equivalent (`nullable.ts`), values
 * of data keywords kept as they are.
 */
function stripAnnotations(schema: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(schema);
  for (const { node } of subschemas(copy)) {
    const plain = draftNullable(node);
    if (plain !== node) {
      // in place: the walk visits the children of what the node now holds (an `anyOf` member too)
      for (const k of Object.keys(node)) delete node[k];
      Object.assign(node, plain);
    }
    for (const k of Object.keys(node)) if (ANNOTATIONS.has(k) || k.startsWith('x-')) delete node[k];
  }
  return copy;
}

/** `multi_prompt`, the description's endpoint parameter of video generation: one `{ prompt, duration }` per shot (`duration` in whole seconds). */
export const MULTI_PROMPT_SCHEMA: Readonly<Record<string, unknown>> = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['prompt', 'duration'],
    properties: { prompt: { type: 'string' }, duration: { type: 'integer' } },
    additionalProperties: false,
  },
};

/**
 * The queue request schema of a model as compiled: `queueBodySchema` without annotation keywords.
 */
export function queueRequestSchema(schema: Record<string, unknown>, video = false): Record<string, unknown> {
  return queueBodySchema(stripAnnotations(schema), video);
}

/**
 * The queue request body schema of a model: its schema plus the SDK fields, closed unless it opens
 * itself; annotations (`description`, `default`, `x-order`, ...) kept as the model gives them, `$schema`
 * and `$id` dropped. For a video model (`video`) whose schema has `prompt` but no `multi_prompt`:
 * `multi_prompt` is added, and not both of them (`not`); when the schema requires `prompt`, one of
 * the two is required instead (`anyOf`). `runtime/validation.ts` words those two failures.
 * Compiled without annotations (`queueRequestSchema`); with them, the JSON Schema of the model's
 * Standard Schema object (`json-schema-drafts.ts`).
 */
export function queueBodySchema(schema: Record<string, unknown>, video = false): Record<string, unknown> {
  const { $schema: _d, $id: _i, ...rest } = structuredClone(schema);
  const properties = { ...((rest['properties'] ?? {}) as Record<string, unknown>) };
  for (const [name, sub] of Object.entries(SDK_QUEUE_FIELDS))
    if (!Object.hasOwn(properties, name)) properties[name] = sub;
  const opened =
    (Object.hasOwn(rest, 'additionalProperties') && rest['additionalProperties'] !== false) ||
    Object.hasOwn(rest, 'patternProperties');
  const out: Record<string, unknown> = {
    ...rest,
    type: 'object',
    properties,
    ...(opened ? {} : { additionalProperties: false }),
  };
  if (video && Object.hasOwn(properties, 'prompt') && !Object.hasOwn(properties, 'multi_prompt')) {
    properties['multi_prompt'] = MULTI_PROMPT_SCHEMA;
    const required = Array.isArray(rest['required']) ? (rest['required'] as unknown[]) : [];
    const choice: Record<string, unknown>[] = [{ not: { required: ['prompt', 'multi_prompt'] } }];
    if (required.includes('prompt')) {
      out['required'] = required.filter((r) => r !== 'prompt');
      choice.push({ anyOf: [{ required: ['prompt'] }, { required: ['multi_prompt'] }] });
    }
    out['allOf'] = [...(Array.isArray(rest['allOf']) ? (rest['allOf'] as unknown[]) : []), ...choice];
  }
  return out;
}

/** ajv's `require(...)` of its run-time helpers and of the helper formats, mapped to the SDK runtime's equivalents. */
const RUNTIME_HELPERS: Record<string, string> = {
  'require("ajv/dist/runtime/ucs2length").default': 'ucs2length',
  'require("ajv/dist/runtime/equal").default': 'equal',
  // as ajv names a format: `.name`, or `["name"]` when it is not an identifier
  ...Object.fromEntries(
    Object.entries(HELPER_FORMATS).map(([format, helper]) => [
      `require(${JSON.stringify(HELPER_MODULE)})${/^[A-Za-z_$][\w$]*$/.test(format) ? `.${format}` : `[${JSON.stringify(format)}]`}`,
      helper,
    ]),
  ),
};

/** ajv's standalone module head with `code: { esm: true, lines: true }`: the strict directive and the two exports of the validate function. */
const STANDALONE_HEAD = /^"use strict";\nexport const validate = (validate\d+);\nexport default \1;\n/;
/** A `require(...)` of ajv's code (a run-time helper, or a helper format as `code.formats` names it). */
const REQUIRE = /require\("[^"]*"\)(?:\.[A-Za-z_$][\w$]*|\["[^"]*"\])?/g;
/** A JSON object key `"__proto__"` in ajv's serialised schema (a literal with it would set the prototype). */
const PROTO_KEY = /([{,])"__proto__":/g;

/** What `rewriteStandalone` made of ajv's code, and what it rewrote (pinned by test/generator/ajv-rewrite.test.ts). */
export interface StandaloneRewrite {
  /** The module body: ajv's code without its head, helpers and `__proto__` keys rewritten. */
  body: string;
  /** The name of ajv's validate function (`validate10`). */
  validateName: string;
  /** The runtime helpers the body uses (to import from `validator-support`), sorted. */
  imports: string[];
  /** How many of each rewrite matched. */
  counts: { head: number; requires: number; protoKeys: number };
}

/**
 * ajv's standalone output as the body of a validator module. ajv's options cover its module form
 * (`code.esm`, `code.lines`) and its format code (`code.formats`), but not its run-time helpers,
 * which it always `require`s; so three text rewrites remain, each anchored to the exact shape ajv
 * 8 writes (test/generator/ajv-rewrite.test.ts pins the input and output and fails if that shape
 * changes): the head (`"use strict"` and the two exports: removed, the name kept), each
 * `require(...)` (to a helper of `validator-support`, imported), each JSON key `"__proto__"` (to
 * a computed key, so that it stays data). Control characters are escaped by `escape.ts`.
 * @throws Error when ajv's head is not the expected one, or it requires a module without a helper
 * (the caller reports both as the model's `SpecError`).
 */
export function rewriteStandalone(code: string): StandaloneRewrite {
  const head = STANDALONE_HEAD.exec(code);
  if (!head) throw new Error('ajv produced no validate function');
  const imports = new Set<string>();
  let requires = 0;
  let protoKeys = 0;
  const body = escapeControlsInCode(code.slice(head[0].length))
    .replace(REQUIRE, (req) => {
      const helper = RUNTIME_HELPERS[req];
      if (!helper)
        throw new Error(
          `the schema uses a JSON Schema feature whose validator needs ${/"([^"]*)"/.exec(req)![1]}: not supported`,
        );
      requires++;
      imports.add(helper);
      return helper;
    })
    .replace(PROTO_KEY, (_key, before: string) => {
      protoKeys++;
      return `${before}["__proto__"]:`;
    });
  return {
    body: body.trim(),
    validateName: head[1]!,
    imports: [...imports].sort(),
    counts: { head: 1, requires, protoKeys },
  };
}

/**
 * ajv's options for a validator: every error, standalone ES module code on lines, the formats of
 * `regexFormats` and `HELPER_FORMATS`. No meta-schema is added to the instance (`meta: false`): the
 * schema is not checked against one here (`validateSchema: false`; load.ts checks it) and cannot
 * refer to one (schema-check.ts refuses a remote `$ref`), so the code is the same without it, and
 * each model's instance is made in about half the time.
 */
export function compileOptions(): CompileOptions {
  return {
    allErrors: true,
    strict: false,
    logger: false,
    validateSchema: false,
    meta: false,
    addUsedSchema: false,
    formats: regexFormats(),
    helperFormats: Object.keys(HELPER_FORMATS),
    code: { source: true, esm: true, lines: true },
  };
}

/**
 * The text of `generated/validators/<id>.ts` (without the generated-file header), or undefined
 * for a model that is not queueable or has no schema (the SDK does not validate those): a
 * `// @ts-nocheck` line, the imports and the typed export (printed by `printer.ts`) around ajv's
 * code (`rewriteStandalone`).
 * @throws SpecError (file, model, JSON pointer) when ajv cannot compile the schema.
 */
export async function validatorModule(
  m: ClassifiedModel,
  target: Target = packageTarget,
  compile: CompileValidator = compileHere,
): Promise<string | undefined> {
  if (!m.schema || !m.endpoints.includes('queue')) return undefined;
  const field = m.schemaField ?? 'request_schema';
  const fail = (problem: string): never => {
    throw new SpecError(m.file, m.id, `/${field}`, problem);
  };
  let code: string;
  try {
    code = await compile(queueRequestSchema(m.schema, m.output === 'video'), compileOptions());
  } catch (err) {
    const internal = err instanceof Error && INTERNAL_ERRORS.has(err.name);
    return fail(
      `ajv could not compile a validator for the schema${internal ? '' : `: ${String((err as Error).message).slice(0, 200)}`}`,
    );
  }
  let rewritten: StandaloneRewrite;
  try {
    rewritten = rewriteStandalone(code);
  } catch (err) {
    return fail((err as Error).message);
  }
  const { ts } = loadTsMorph();
  const f = ts.factory;
  const imports = [
    importDeclaration(ts, ['CompiledValidator'], target.runtime.validation, true, true),
    ...(rewritten.imports.length > 0
      ? [importDeclaration(ts, rewritten.imports, target.runtime.validatorSupport, false, true)]
      : []),
  ];
  const exportValidate = withDoc(
    ts,
    constStatement(ts, 'validate', typeNode(ts, 'CompiledValidator'), f.createIdentifier(rewritten.validateName)),
    `Validates a whole \`queue.enqueue\` / \`queue.run\` body for model \`${m.id}\` against its request schema (\`${m.file}\`, field \`${field}\`) and the SDK's queue fields; \`validate.errors\` lists each problem with its JSON pointer (\`instancePath\`).`,
    false,
  );
  return printModule(ts, [
    [
      "// @ts-nocheck -- ajv's standalone code, compiled by generator/stages/validators.ts; typed by the export below",
      printModule(ts, [imports]).trimEnd(),
      rewritten.body,
    ].join('\n'),
    exportValidate,
  ]);
}
