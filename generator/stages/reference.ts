/**
 * Part of stage 6 (emit): the data of the model reference `generated/MODELS.md` (rendered by
 * `templates/models.md.hbs`). For each model: its import path, its function names, the client
 * methods that serve it, and each parameter with its type, enum values, default and range, read
 * from the same request schema as the types (`stages/types.ts`). Every string of the model
 * object goes into the Markdown through `markdownText`, `markdownCell` or `markdownCode` (generator/escape.ts).
 */
import type { ClassifiedModel } from './classify.ts';
import { endpointFunctionNames, endpointLabels } from './emit-model.ts';
import { markdownCell, markdownCode, markdownText } from '../escape.ts';
import type { Templates } from './templates.ts';
import { fileStem, modelAnchor, type ModelNames } from './name.ts';
import { isObject } from '../order.ts';

/** One parameter row. */
export interface ParameterRow {
  name: string;
  type: string;
  required: boolean;
  default: string;
  range: string;
  description: string;
}

/** One model's section. */
export interface ModelReference {
  id: string;
  anchor: string;
  title: string;
  description: string;
  importPath: string;
  functions: string[];
  params: string;
  methods: string[];
  schemaNote: string;
  parameters: ParameterRow[];
}

/** A short type text for a schema node (depth-limited: the reference is for people). */
export function typeText(node: unknown, depth = 0): string {
  if (node === true || node === undefined) return 'any';
  if (node === false) return 'never';
  if (!isObject(node)) return 'any';
  if (depth > 3) return '…';
  if (Array.isArray(node['enum']))
    return (node['enum'] as unknown[]).length <= 12
      ? (node['enum'] as unknown[]).map((v) => JSON.stringify(v) ?? 'null').join(' | ')
      : `one of ${(node['enum'] as unknown[]).length} values`;
  if (Object.hasOwn(node, 'const')) return JSON.stringify(node['const']) ?? 'null';
  for (const k of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(node[k])) return (node[k] as unknown[]).map((s) => typeText(s, depth + 1)).join(' | ');
  const t = node['type'];
  const types = Array.isArray(t) ? (t as unknown[]) : typeof t === 'string' ? [t] : [];
  const one = (x: unknown): string => {
    if (x === 'array')
      return node['items'] !== undefined && !Array.isArray(node['items'])
        ? `${typeText(node['items'], depth + 1)}[]`
        : 'array';
    if (x === 'object')
      return isObject(node['properties']) ? `{ ${Object.keys(node['properties']).join(', ')} }` : 'object';
    return String(x);
  };
  if (types.length > 0) return types.map(one).join(' | ');
  if (node['$ref'] !== undefined) return 'see schema';
  return 'any';
}

/** The range text of a schema node: bounds, lengths, item counts, format, pattern. */
function rangeText(p: Record<string, unknown>): string {
  const parts: string[] = [];
  const num = (k: string) => (typeof p[k] === 'number' ? String(p[k]) : undefined);
  const lo = num('minimum') ?? (num('exclusiveMinimum') !== undefined ? `>${num('exclusiveMinimum')}` : undefined);
  const hi = num('maximum') ?? (num('exclusiveMaximum') !== undefined ? `<${num('exclusiveMaximum')}` : undefined);
  if (lo !== undefined && hi !== undefined) parts.push(`${lo} to ${hi}`);
  else if (lo !== undefined) parts.push(`≥ ${lo}`);
  else if (hi !== undefined) parts.push(`≤ ${hi}`);
  if (num('multipleOf') !== undefined) parts.push(`multiple of ${num('multipleOf')}`);
  if (num('minLength') !== undefined || num('maxLength') !== undefined)
    parts.push(`length ${num('minLength') ?? 0} to ${num('maxLength') ?? '∞'}`);
  if (num('minItems') !== undefined || num('maxItems') !== undefined)
    parts.push(`${num('minItems') ?? 0} to ${num('maxItems') ?? '∞'} items`);
  if (typeof p['format'] === 'string') parts.push(`format ${p['format']}`);
  if (typeof p['pattern'] === 'string') parts.push(`pattern ${p['pattern']}`);
  return parts.join('; ');
}

const DESCRIPTION_LIMIT = 300;

/** The reference data of one model. */
export function modelReference(m: ClassifiedModel & { names: ModelNames }, packageName: string): ModelReference {
  const props = isObject(m.schema?.['properties']) ? m.schema['properties'] : {};
  const required = new Set(Array.isArray(m.schema?.['required']) ? (m.schema['required'] as unknown[]) : []);
  const parameters = Object.entries(props).map(([name, raw]): ParameterRow => {
    const p = isObject(raw) ? raw : {};
    const description = typeof p['description'] === 'string' ? p['description'].trim() : '';
    return {
      name: markdownCode(name),
      type: markdownCode(typeText(raw)),
      required: required.has(name),
      default: p['default'] !== undefined ? markdownCode(JSON.stringify(p['default']) ?? 'null') : '',
      range: markdownText(rangeText(p)),
      description: markdownText(
        description.length > DESCRIPTION_LIMIT ? `${description.slice(0, DESCRIPTION_LIMIT)}…` : description,
      ),
    };
  });
  parameters.sort((a, b) => Number(b.required) - Number(a.required));
  const schemaNote = m.schema
    ? ''
    : m.output === 'text'
      ? 'Its schema is null: it takes the standard chat-completions body (`ChatCompletionParams`).'
      : m.uncovered === undefined
        ? "Its schema is null: it takes the endpoint's parameters as the API description lists them."
        : 'Its schema is null: its parameters are unknown.';
  return {
    id: markdownCode(m.id),
    anchor: modelAnchor(m.id),
    title: markdownCell(m.displayName?.trim() || m.id), // a blank name would leave an empty cell and heading
    description: markdownText(m.description ?? ''),
    importPath: `${packageName}/models/${fileStem(m.id)}`,
    functions: endpointFunctionNames(m),
    params: m.names.params,
    methods: m.endpoints.flatMap(endpointLabels),
    schemaNote:
      m.uncovered !== undefined
        ? `${schemaNote} No endpoint function: its endpoint ${markdownCode(m.uncovered)} is not covered by the API description.`.trim()
        : schemaNote,
    parameters,
  };
}

/** Body of `generated/MODELS.md`. */
export function modelsMarkdown(
  t: Templates,
  models: Array<ClassifiedModel & { names: ModelNames }>,
  label: string,
  packageName: string,
): string {
  return t.modelsMd({ count: models.length, label, models: models.map((m) => modelReference(m, packageName)) });
}
