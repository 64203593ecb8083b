/**
 * json-schema-to-typescript (jstt) as the oracle of the type emitter (`generator/stages/types.ts`,
 * `type-emit.ts`): for one model, jstt's type of its request schema and the emitted
 * `<Pascal>Params` must be mutually assignable, unless a rule of `ORACLE_RULES` explains the
 * direction that fails. Used by `test/generator/oracle.test.ts` (every model of the snapshot) and
 * by the fuzzer (each generated case, in its batched type check; `fuzz/run.ts`).
 *
 * The comparison is compiled, not computed: a check module (`checkModuleText`) imports both types
 * and states each direction as a type argument to a constraint, one direction per line
 * (`CHECK_LINES`); the compiler's diagnostic on a line says which direction fails and why.
 */
import { compile } from 'json-schema-to-typescript';
import ts from 'typescript';
import { modelNames } from '../generator/stages/name.ts';
import { subschemas } from '../generator/stages/schema-walk.ts';
import { modelType, modelTypeText } from '../generator/stages/types.ts';

/** One direction of the comparison. */
export type Direction = 'emitted-to-jstt' | 'jstt-to-emitted';

/** The 1-based line of each direction in a check module (see `checkModuleText`). */
export const CHECK_LINES: Readonly<Record<Direction, number>> = { 'emitted-to-jstt': 4, 'jstt-to-emitted': 5 };

/**
 * jstt's options: its defaults (`unknownAny`, `maxItems` 20, ...), unformatted (types do not
 * depend on layout), no banner, and `additionalProperties: false`: the generator closes an object
 * the schema does not open (`types.ts`), which is jstt's default flipped.
 */
export const JSTT_OPTIONS = { bannerComment: '', format: false, additionalProperties: false } as const;

/** The name of jstt's root type in its module. */
export const JSTT_ROOT = 'JsttParams';

/**
 * jstt's declarations for `schema` (a copy is compiled; the root is named `JsttParams`), or why
 * jstt gave none (it refuses schemas the generator accepts, e.g. a non-boolean `deprecated`: such a
 * model is not compared). Never throws.
 */
export async function jsttModule(schema: unknown): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return { ok: false, reason: 'the schema is not an object' };
  // jstt prints what it refuses with console.error before it throws: the reason is returned instead
  const error = console.error;
  console.error = () => undefined;
  try {
    const copy = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
    delete copy['$id'];
    copy['title'] = JSTT_ROOT; // jstt names the root by its title
    return { ok: true, text: await compile(copy, JSTT_ROOT, JSTT_OPTIONS) };
  } catch (e) {
    return { ok: false, reason: (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 200) };
  } finally {
    console.error = error;
  }
}

/**
 * The check module: imports the emitted type `params` from `emittedSpecifier` and `JsttParams` from
 * `jsttSpecifier`; line 4 fails when the emitted type is not assignable to jstt's, line 5 when
 * jstt's is not assignable to the emitted one (`CHECK_LINES`). Specifiers and `params` are the
 * generator's own (file stems and names from `generator/stages/name.ts`), never schema text.
 */
export function checkModuleText(params: string, emittedSpecifier: string, jsttSpecifier: string): string {
  return [
    `import type { ${params} as Emitted } from ${JSON.stringify(emittedSpecifier)};`,
    `import type { ${JSTT_ROOT} as Jstt } from ${JSON.stringify(jsttSpecifier)};`,
    'type Extends<A extends B, B> = [A, B];',
    'export type EmittedToJstt = Extends<Emitted, Jstt>;',
    'export type JsttToEmitted = Extends<Jstt, Emitted>;',
    '',
  ].join('\n');
}

/** The direction a diagnostic at `line` (1-based) of a check module is about, or undefined (an import failed). */
export function directionOfLine(line: number): Direction | undefined {
  return (Object.keys(CHECK_LINES) as Direction[]).find((d) => CHECK_LINES[d] === line);
}

type Node = Record<string, unknown>;

/** The JSON type names of a value (`integer` values are also `number`s). */
function jsonTypes(v: unknown): string[] {
  if (v === null) return ['null'];
  if (Array.isArray(v)) return ['array'];
  if (typeof v === 'number') return Number.isInteger(v) ? ['integer', 'number'] : ['number'];
  return [typeof v];
}

function typeNames(s: Node): string[] {
  const t = s['type'];
  return typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

const someNode = (schema: unknown, test: (s: Node, root: boolean) => boolean): boolean => {
  for (const { node, root } of subschemas(schema)) if (test(node, root)) return true;
  return false;
};

/** The keywords the types stage types a schema by (`generator/stages/types.ts`, `typeSchema`). */
const TYPING_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'items',
  'additionalItems',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  '$ref',
]);

/** A deliberate difference between the emitted type and jstt's. */
export interface OracleRule {
  name: string;
  /** Why the generator differs (today's reason). */
  why: string;
  /** The directions it may make fail. */
  allows: readonly Direction[];
  /** Whether it applies to a model's schema (any subschema). */
  applies(schema: unknown): boolean;
}

/**
 * The deliberate differences, found by running the oracle over the snapshot and the fuzzer's
 * cases (`npm run fuzz`); the models each applies to are computed, never listed.
 */
export const ORACLE_RULES: readonly OracleRule[] = [
  {
    name: 'pattern-properties-unknown',
    why: 'an object with patternProperties takes further keys as unknown: the generator never types a key by a pattern (the validator checks it); jstt 16 types them by the union of the pattern schemas',
    allows: ['emitted-to-jstt'],
    applies: (schema) =>
      someNode(schema, (s) => s['patternProperties'] !== null && typeof s['patternProperties'] === 'object'),
  },
  {
    name: 'additional-properties-unknown',
    why: 'an object with properties and a schema as additionalProperties takes further keys as unknown (an index signature must accept every property); jstt types them by that schema',
    allows: ['emitted-to-jstt'],
    applies: (schema) =>
      someNode(
        schema,
        (s) =>
          s['properties'] !== null &&
          typeof s['properties'] === 'object' &&
          s['additionalProperties'] !== null &&
          typeof s['additionalProperties'] === 'object',
      ),
  },
  {
    name: 'structured-enum',
    why: 'an enum or const with an object or array value is typed by the JSON types of its values (or by `type`, when given): the generator writes no object or array literal types; jstt writes each value as a literal type and ignores `type`',
    allows: ['emitted-to-jstt', 'jstt-to-emitted'],
    applies: (schema) =>
      someNode(schema, (s) =>
        [...(Array.isArray(s['enum']) ? s['enum'] : []), ...('const' in s ? [s['const']] : [])].some(
          (v) => v !== null && typeof v === 'object',
        ),
      ),
  },
  {
    name: 'default-is-not-a-type',
    why: 'a value is typed by `type`, never by its `default` (which validates nothing in draft-07); jstt 16 intersects the type of a `default` that is not of the node`s `type`',
    allows: ['emitted-to-jstt', 'jstt-to-emitted'],
    applies: (schema) =>
      someNode(schema, (s) => {
        const types = typeNames(s);
        return 'default' in s && types.length > 0 && !jsonTypes(s['default']).some((t) => types.includes(t));
      }),
  },
  {
    name: 'untyped-subschema',
    why: 'a subschema (not a property) with keywords but none the generator types by (e.g. only `not`, `if`/`then`) takes any value: unknown; jstt types a schema without a typing keyword as an open object',
    allows: ['emitted-to-jstt'],
    applies: (schema) => {
      for (const { node, pointer, root } of subschemas(schema))
        if (
          !root &&
          !/\/properties\/[^/]*$/.test(pointer) &&
          Object.keys(node).length > 0 &&
          !Object.keys(node).some((k) => TYPING_KEYWORDS.has(k))
        )
          return true;
      return false;
    },
  },
  {
    name: 'untyped-root',
    why: 'a root schema with neither `type: object` nor `properties` is the empty interface, closed like every root (an empty object type already takes any object); jstt opens it with an index signature',
    allows: ['emitted-to-jstt'],
    applies: (schema) =>
      someNode(
        schema,
        (s, root) => root && !('properties' in s) && !typeNames(s).includes('object') && !typeNames(s).includes('any'),
      ),
  },
];

/** The rules that apply to `schema`. */
export function rulesFor(schema: unknown): OracleRule[] {
  return ORACLE_RULES.filter((r) => r.applies(schema));
}

/** The directions among `failing` that no rule of `rules` allows (an empty list: the model agrees with jstt). */
export function unexplained(failing: readonly Direction[], rules: readonly OracleRule[]): Direction[] {
  return failing.filter((d) => !rules.some((r) => r.allows.includes(d)));
}

/** One model to compare in `compareAll`. */
export interface OracleEntry {
  /** The text of a module exporting the emitted type (a generated model module, or `modelType`'s code). */
  emitted: string;
  /** The emitted type's name (`<Pascal>Params`). */
  params: string;
  /** jstt's module (`jsttModule`). */
  jstt: string;
}

/** A model's comparison: the failing directions with the compiler's message, and diagnostics of jstt's own module. */
export interface OracleResult {
  failing: Array<{ direction: Direction; message: string }>;
  /** jstt's module does not compile (then nothing is compared). */
  jsttBroken: string[];
  /** Other diagnostics of the check module (an import that does not resolve: a wrong name or module). */
  errors: string[];
}

const VIRTUAL = '/oracle-virtual';
/** Library files, parsed once per process (the shrinker compiles many small programs). */
const libCache = new Map<string, ts.SourceFile>();

/**
 * Compare every entry in ONE TypeScript program (strict, as tsconfig.json; ES2022 library, no
 * ambient types): in-memory modules `<i>/emitted.ts`, `<i>/jstt.ts` and `<i>/check.ts`. The
 * emitted module's own imports (the runtime) are not resolved: the parameter type uses none.
 */
export function compareAll(entries: readonly OracleEntry[]): OracleResult[] {
  const files = new Map<string, string>();
  entries.forEach((e, i) => {
    files.set(`${VIRTUAL}/${i}/emitted.ts`, e.emitted);
    files.set(`${VIRTUAL}/${i}/jstt.ts`, e.jstt);
    files.set(`${VIRTUAL}/${i}/check.ts`, checkModuleText(e.params, './emitted.ts', './jstt.ts'));
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: false,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    lib: ['lib.es2022.d.ts'],
    types: [],
  };
  const host = ts.createCompilerHost(options, true);
  const inMemory = (f: string) => f.startsWith(`${VIRTUAL}/`);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, onError, create) => {
    if (inMemory(f)) return files.has(f) ? ts.createSourceFile(f, files.get(f)!, lang, true) : undefined;
    let sf = libCache.get(f);
    if (!sf) {
      sf = getSourceFile(f, lang, onError, create);
      if (sf) libCache.set(f, sf);
    }
    return sf;
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => (inMemory(f) ? files.has(f) : fileExists(f));
  const readFile = host.readFile.bind(host);
  host.readFile = (f) => (inMemory(f) ? files.get(f) : readFile(f));
  host.directoryExists = (d) => d === VIRTUAL || inMemory(d) || ts.sys.directoryExists(d);
  const program = ts.createProgram({
    rootNames: [...files.keys()].filter((f) => !f.endsWith('/emitted.ts')),
    options,
    host,
  });
  const text = (d: ts.Diagnostic) => ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 600);
  const diagnostics = (f: string) => {
    const sf = program.getSourceFile(f)!;
    return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
  };
  return entries.map((_, i) => {
    const jsttBroken = diagnostics(`${VIRTUAL}/${i}/jstt.ts`).map(text);
    const failing: OracleResult['failing'] = [];
    const errors: string[] = [];
    if (jsttBroken.length === 0)
      for (const d of diagnostics(`${VIRTUAL}/${i}/check.ts`)) {
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        const direction = directionOfLine(line);
        if (direction) failing.push({ direction, message: text(d) });
        else errors.push(text(d));
      }
    return { failing, jsttBroken, errors };
  });
}

/**
 * The emitted parameter type of a model `id` with `schema`, as the generator's types stage writes
 * it (`modelType`; the declaration alone, without the rest of the model module).
 * @throws SpecError when the generator refuses the schema.
 */
export function emittedModule(id: string, schema: Record<string, unknown>): { text: string; params: string } {
  const names = modelNames(id);
  const m = { id, file: 'oracle.json', schemaField: 'request_schema', schema, names, endpoints: [], output: 'image' };
  return { text: modelTypeText(modelType(m as unknown as Parameters<typeof modelType>[0], id)), params: names.params };
}
