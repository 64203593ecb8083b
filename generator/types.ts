/**
 * Stage 5, types: each model's request schema to a closed TypeScript interface, with
 * json-schema-to-typescript. Enums become literal unions; `description`, `default`,
 * `minimum`/`maximum`, `format` (and the other validation keywords) and the model id and schema
 * field a member came from go into its JSDoc. Text that lands in a comment is escaped so that a
 * description can never close the comment; schema keywords that json-schema-to-typescript would
 * paste into code (`tsType`, `tsEnumNames`) are removed.
 *
 * A model whose schema is null takes the endpoint's parameters as the API description lists them
 * (a type from the runtime).
 */
import { compile } from 'json-schema-to-typescript';
import type { ClassifiedModel } from './classify.ts';
import type { ModelNames } from './name.ts';
import { SpecError } from './errors.ts';

/** The parameter type of one model. */
export interface ModelType {
  /** TypeScript declarations: the `<Pascal>Params` interface or alias, with JSDoc. */
  code: string;
  /** Runtime type names the code uses (to import from the runtime). */
  runtimeImports: string[];
  /** Required and optional parameter names, in schema order (for MODELS.md). */
  required: string[];
  optional: string[];
}

/** Keywords copied into JSDoc tags, in this order. */
const DOC_KEYWORDS = ['default', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems'] as const;

/** Keywords json-schema-to-typescript turns into code or names: never taken from input. */
const UNSAFE_KEYWORDS = new Set(['tsType', 'tsEnumNames', 'title', '$id', 'id']);

/** Make text safe inside a `/** ... *\/` comment: it can never close the comment. */
export function escapeComment(text: string): string {
  return text.replace(/\*\//g, '*\\/').replace(/\r\n?/g, '\n');
}

/** A deep copy of a schema without the unsafe keywords (inputs are frozen and never changed). */
function sanitize(node: unknown, isPropertiesMap = false): unknown {
  if (Array.isArray(node)) return node.map((n) => sanitize(n));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  // an object schema that documents its fields is closed, like the top level; one that documents none stays open
  if (!isPropertiesMap && 'properties' in node && !('additionalProperties' in node)) out['additionalProperties'] = false;
  for (const [k, v] of Object.entries(node)) {
    if (!isPropertiesMap && UNSAFE_KEYWORDS.has(k)) continue;
    // values under these keys are data, not schemas: copied as they are
    if (!isPropertiesMap && (k === 'enum' || k === 'const' || k === 'default' || k === 'examples' || k === 'basic' || k === 'required')) out[k] = structuredClone(v);
    else out[k] = sanitize(v, !isPropertiesMap && (k === 'properties' || k === 'definitions' || k === '$defs' || k === 'patternProperties'));
  }
  return out;
}

/** The JSDoc text of one property: its description, the keyword tags, and its source. */
export function propertyDoc(model: string, field: string, name: string, prop: Record<string, unknown>): string {
  const lines: string[] = [];
  if (typeof prop['description'] === 'string' && prop['description'].trim() !== '') lines.push(prop['description'].trim(), '');
  for (const k of DOC_KEYWORDS) if (prop[k] !== undefined) lines.push(`@${k} ${JSON.stringify(prop[k])}`);
  lines.push(`@see model \`${model}\`, schema field \`${field}.properties.${name}\``);
  return escapeComment(lines.join('\n'));
}

/** Build the parameter type of a model. @throws SpecError when json-schema-to-typescript rejects the schema. */
export async function modelType(m: ClassifiedModel & { names: ModelNames }, doc: string): Promise<ModelType> {
  const { params } = m.names;
  const head = `/**\n${escapeComment(doc).split('\n').map((l) => ` * ${l}`.trimEnd()).join('\n')}\n */\n`;
  if (!m.schema) {
    const described: Record<string, string> = { text: 'ChatCompletionParams', image: m.endpoints.includes('images.generate') ? 'DescribedImageGenerateParams' : 'DescribedImageEditParams', video: 'DescribedVideoGenerateParams' };
    const alias = m.uncovered === undefined ? described[m.output] : undefined;
    if (alias) return { code: `${head}export type ${params} = ${alias};\n`, runtimeImports: [alias], required: [], optional: [] };
    return { code: `${head}export interface ${params} {\n  [key: string]: unknown;\n}\n`, runtimeImports: [], required: [], optional: [] };
  }
  const field = m.schemaField ?? 'request_schema';
  const schema = sanitize(m.schema) as Record<string, unknown>;
  const props = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, prop] of Object.entries(props)) {
    if (prop && typeof prop === 'object') prop['description'] = propertyDoc(m.id, field, name, prop);
  }
  schema['description'] = escapeComment(doc);
  schema['additionalProperties'] = false; // closed: a misspelled key is a type error
  let code: string;
  try {
    code = await compile(schema as never, 'GeneratedParams', {
      bannerComment: '',
      format: false,
      additionalProperties: true, // objects with no documented fields stay open (see sanitize for documented ones)
      declareExternallyReferenced: true,
      enableConstEnums: false,
      strictIndexSignatures: false,
      unknownAny: true,
      $refOptions: { resolve: { external: false } } as never,
    });
  } catch (err) {
    throw new SpecError(m.file, m.id, `/${field}`, `json-schema-to-typescript could not compile the schema: ${(err as Error).message}`);
  }
  if (!code.includes('export interface GeneratedParams ')) throw new SpecError(m.file, m.id, `/${field}`, 'json-schema-to-typescript did not produce an interface (is the schema an object schema?)');
  code = code.replace('export interface GeneratedParams ', `export interface ${params} `);
  const req = new Set((m.schema['required'] ?? []) as string[]);
  const names = Object.keys(props);
  return { code, runtimeImports: [], required: names.filter((n) => req.has(n)), optional: names.filter((n) => !req.has(n)) };
}
