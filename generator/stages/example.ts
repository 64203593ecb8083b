/**
 * Part of stage 6 (emit): the `@example` of a generated per-model function, a minimal call with the
 * model's required parameters. Each value is the schema's own (`examples`, `example`, `default`,
 * the first `enum` value or `const`, in that order), else a placeholder of the parameter's type;
 * values and keys are written through `generator/escape.ts` (`stringLiteral`, `propertyKey`).
 *
 * An example is code inside a doc comment: a model value or key that would need changing there (an
 * `@` a comment parser could read as a tag, a backtick that would end the code fence, a value
 * longer than a line) is never used; the placeholder stands in for it, and a key that cannot be
 * written leaves the function without an example.
 */
import type { ClassifiedModel } from './classify.ts';
import { propertyKey, stringLiteral } from '../escape.ts';
import { resolveLocalRef } from './schema-walk.ts';

/** Longest value (as written) taken from the schema. */
const MAX_VALUE_CHARS = 60;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Whether `code` may stand in a doc comment's code block as it is. */
function commentSafe(code: string): boolean {
  return !/[@`]|\*\/|\/\*/.test(code) && code.length <= MAX_VALUE_CHARS;
}

/** A JSON value on one line (string literals and keys through escape.ts), or undefined when it is not plain JSON. */
function inline(value: unknown, depth = 0): string | undefined {
  if (depth > 3) return undefined;
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'string') return stringLiteral(value);
  if (Array.isArray(value)) {
    const items = value.map((v) => inline(v, depth + 1));
    return items.every((i) => i !== undefined) ? `[${items.join(', ')}]` : undefined;
  }
  if (isObject(value)) {
    const entries = Object.entries(value).map(([k, v]) => {
      const text = inline(v, depth + 1);
      return text === undefined || k === '__proto__' ? undefined : `${propertyKey(k)}: ${text}`;
    });
    if (entries.length === 0) return '{}';
    return entries.every((e) => e !== undefined) ? `{ ${entries.join(', ')} }` : undefined;
  }
  return undefined;
}

/** The schema node behind local `$ref`s (the load stage refused recursive ones), or `{}`. */
function deref(root: Record<string, unknown>, node: unknown): Record<string, unknown> {
  let s = node;
  for (let i = 0; i < 32 && isObject(s) && typeof s['$ref'] === 'string'; i++) s = resolveLocalRef(root, s['$ref']);
  return isObject(s) ? s : {};
}

/** A placeholder of the parameter's type. */
function placeholder(name: string, s: Record<string, unknown>, root: Record<string, unknown>, depth = 0): string {
  const t: unknown = Array.isArray(s['type']) ? (s['type'] as unknown[])[0] : s['type'];
  switch (t) {
    case 'integer':
    case 'number': {
      const min = s['minimum'];
      return typeof min === 'number' && Number.isFinite(min) ? String(min) : '1';
    }
    case 'boolean':
      return 'false';
    case 'array': {
      if (depth > 2 || !isObject(s['items'])) return '[]';
      return `[${placeholder(name, deref(root, s['items']), root, depth + 1)}]`;
    }
    case 'object':
      return '{}';
    case 'null':
      return 'null';
    default:
      return /image|video|audio|mask|url|uri/i.test(name) || s['format'] === 'uri'
        ? '"https://example.com/input"'
        : '"..."';
  }
}

/** The value written for one parameter. */
function value(name: string, s: Record<string, unknown>, root: Record<string, unknown>): string {
  const examples = s['examples'];
  const candidates: unknown[] = [];
  if (Array.isArray(examples) && examples.length > 0) candidates.push(examples[0]);
  for (const k of ['example', 'default'] as const) if (Object.hasOwn(s, k)) candidates.push(s[k]);
  if (Array.isArray(s['enum']) && s['enum'].length > 0) candidates.push(s['enum'][0]);
  if (Object.hasOwn(s, 'const')) candidates.push(s['const']);
  for (const c of candidates) {
    const text = inline(c);
    if (text !== undefined && commentSafe(text)) return text;
  }
  return placeholder(name, s, root);
}

/**
 * The argument object of a minimal call of model `m`: its required parameters (for a model whose
 * schema is null, the endpoint's), or undefined when a key cannot be written in a comment.
 */
export function exampleParams(m: ClassifiedModel): string | undefined {
  if (m.schema === null) {
    if (m.uncovered !== undefined) return '{}';
    if (m.output === 'text') return '{ messages: [{ role: "user", content: "Hello" }] }';
    return '{ prompt: "..." }';
  }
  const root = m.schema;
  const props = isObject(root['properties']) ? root['properties'] : {};
  const required = Array.isArray(root['required'])
    ? [...new Set(root['required'].filter((r): r is string => typeof r === 'string' && Object.hasOwn(props, r)))]
    : [];
  const fields: string[] = [];
  for (const name of required) {
    const key = propertyKey(name);
    if (!commentSafe(key)) return undefined;
    fields.push(`${key}: ${value(name, deref(root, props[name]), root)}`);
  }
  return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`;
}

/** The `@example` body: a TypeScript code block with one call. */
export function exampleBlock(call: string): string {
  return ['```ts', call, '```'].join('\n');
}
