/**
 * Part of stage 1 (load): what the generator supports of a model object, checked before any
 * library (ajv, json-schema-to-typescript) sees it, so that unsupported input is refused with a
 * `SpecError` naming the file, the model and the JSON pointer, never an internal exception.
 *
 * Supported: JSON Schema draft-07 (no `$schema`, or a draft-07 `$schema`), local `$ref`s
 * (`#/...` JSON pointers) that are not recursive, nesting up to `MAX_JSON_DEPTH` levels.
 * Refused: other dialects, remote or malformed `$ref`s, recursive `$ref`s, `$id` below the root,
 * `$anchor`/`$dynamicRef`/`$recursiveRef`, deeper nesting, and regular expressions (`pattern`,
 * `patternProperties` keys) that are invalid, longer than `MAX_PATTERN_LENGTH` or more than
 * `MAX_PATTERNS` (each is then proven free of catastrophic backtracking: `pattern-check.ts`, after).
 *
 * Bounded work (`checkBounds`, before any other check): at most `MAX_MODEL_BYTES` of JSON per model
 * object, `MAX_JSON_VALUES` values in it, `MAX_ENUM_VALUES` values per `enum`, `MAX_ARRAY_ITEMS`
 * items per array, `MAX_OBJECT_KEYS` keys (properties) per object, `MAX_TEXT_LENGTH` characters
 * per `description`, `title` or `display_name`, `MAX_STRING_LENGTH` per other string or key.
 * Enum values are unique (compared as canonical JSON, in linear time). Sibling property names
 * that are equal after Unicode normalization (NFKC) or look alike (the Unicode confusables
 * skeleton, UTS #39, through `unhomoglyph`) are refused.
 *
 * Model ids: 1 to 128 characters, letters, digits, `.`, `_` and `-`, starting and ending with a
 * letter or digit, never `..`, and `:` between two letters or digits (a deployed fine-tune's slug,
 * `oxen:acme-ft_123`); the real ids are in `specs/models.json`; see `MODEL_ID`.
 */
import unhomoglyph from 'unhomoglyph';
import { SpecError, pointerToken } from '../errors.ts';
import { BIDI_CONTROLS, stringLiteral } from '../escape.ts';
import { canonicalJson, canonicalRef, isMap, resolveLocalRef, subschemas } from './schema-walk.ts';

/** Most bytes of one model object's JSON (a snapshot file, or a fetched answer once decompressed). The largest real one is under 5 KiB. */
export const MAX_MODEL_BYTES = 1024 * 1024;
/** Most values (objects, arrays, strings, numbers, ...) in one model object (the corpus: under 200). */
export const MAX_JSON_VALUES = 50_000;
/** Most values of one `enum` (the corpus: 15). */
export const MAX_ENUM_VALUES = 1_000;
/** Most items of any other array (the corpus: 15). */
export const MAX_ARRAY_ITEMS = 1_000;
/** Most keys of one object, so most properties of one schema (the corpus: 15). */
export const MAX_OBJECT_KEYS = 1_000;
/** Longest `description`, `title` or `display_name`, in UTF-16 code units (the corpus: under 400). */
export const MAX_TEXT_LENGTH = 20_000;
/** Longest other string or object key (the corpus: under 50). */
export const MAX_STRING_LENGTH = 4_096;
/** Longest `pattern` or `patternProperties` key (the corpus: no pattern at all). */
export const MAX_PATTERN_LENGTH = 1_000;
/** Most distinct patterns (`pattern`s and `patternProperties` keys) in one schema (the corpus: none). */
export const MAX_PATTERNS = 20;
/** Keys whose string value is prose, with the larger `MAX_TEXT_LENGTH`. */
const TEXT_KEYS = new Set(['description', 'title', 'display_name']);

/**
 * The documented model id character set and length: 1 to 128 characters; parts of letters, digits,
 * `.`, `_` and `-`, each starting and ending with a letter or digit, joined by single `:` (a
 * deployed fine-tune's slug, `oxen:acme-ft_123`). `generator/stages/name.ts` relies on a `:`
 * standing between two letters or digits for its file names.
 */
export const MODEL_ID =
  /^(?=[^]{1,128}$)[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?(?::[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)*$/;

/** Why an id is refused, or undefined when it is valid. */
export function modelIdProblem(id: string): string | undefined {
  if (!MODEL_ID.test(id))
    return 'a model id must be 1 to 128 characters of letters, digits, ".", "_", "-" and ":", starting and ending with a letter or digit, with a letter or digit on each side of a ":"';
  if (id.includes('..')) return 'a model id cannot contain ".."';
  return undefined;
}

/** Deepest nesting of objects and arrays accepted in a model object (the corpus uses under 10). */
export const MAX_JSON_DEPTH = 64;

/** `$schema` values accepted (draft-07, with or without the trailing `#`, http or https). */
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** A local `$ref`: `#` then a JSON pointer (RFC 6901, URI fragment form). */
const LOCAL_REF = /^#(?:\/(?:[^~%/]|~[01]|%[0-9A-Fa-f]{2})*)*$/;

/**
 * The first place where `value` nests deeper than `max` (iterative: no recursion, so hostile depth
 * cannot overflow the stack), as a JSON pointer, or undefined.
 */
export function tooDeep(value: unknown, max = MAX_JSON_DEPTH): string | undefined {
  const stack: Array<{ v: unknown; depth: number; pointer: string }> = [{ v: value, depth: 0, pointer: '' }];
  while (stack.length > 0) {
    const { v, depth, pointer } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return pointer;
    for (const [k, child] of Object.entries(v))
      stack.push({ v: child, depth: depth + 1, pointer: `${pointer}/${pointerToken(k)}` });
  }
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATE_G = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * The first string (key or value) of `value` that is not well-formed Unicode (a lone surrogate,
 * which JSON's `\ud800` escape can carry but no UTF-8 file can hold), as a JSON pointer, or undefined.
 */
export function malformedText(value: unknown): string | undefined {
  const wellFormed = (t: string) => !LONE_SURROGATE.test(t);
  const stack: Array<{ v: unknown; pointer: string }> = [{ v: value, pointer: '' }];
  while (stack.length > 0) {
    const { v, pointer } = stack.pop()!;
    if (typeof v === 'string') {
      if (!wellFormed(v)) return pointer;
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const p = `${pointer}/${pointerToken(k.replace(LONE_SURROGATE_G, '\uFFFD'))}`;
        if (!wellFormed(k)) return p;
        stack.push({ v: child, pointer: p });
      }
    }
  }
  return undefined;
}

/**
 * Check the size of a model object (see the module comment for the caps), iteratively, in time
 * linear in its size and stopping at the first excess.
 * @throws SpecError naming the file, the model and the JSON pointer of the first value over a cap.
 */
export function checkBounds(value: unknown, file: string, model: string): void {
  const fail = (pointer: string, problem: string): never => {
    throw new SpecError(file, model, pointer, problem);
  };
  let count = 1;
  const counted = (pointer: string, n: number) => {
    count += n;
    if (count > MAX_JSON_VALUES)
      fail(pointer, `the model object holds more than ${MAX_JSON_VALUES} values: not supported`);
  };
  const stack: Array<{ v: unknown; pointer: string; key: string }> = [{ v: value, pointer: '', key: '' }];
  while (stack.length > 0) {
    const { v, pointer, key } = stack.pop()!;
    if (typeof v === 'string') {
      const max = TEXT_KEYS.has(key) ? MAX_TEXT_LENGTH : MAX_STRING_LENGTH;
      if (v.length > max)
        fail(
          pointer,
          `a string of ${v.length} characters: longer than the ${max} supported${TEXT_KEYS.has(key) ? ` for ${key}` : ''}`,
        );
    } else if (Array.isArray(v)) {
      const max = key === 'enum' ? MAX_ENUM_VALUES : MAX_ARRAY_ITEMS;
      if (v.length > max)
        fail(
          pointer,
          `${key === 'enum' ? 'an enum' : 'an array'} of ${v.length} values: more than the ${max} supported`,
        );
      counted(pointer, v.length);
      v.forEach((child, i) => stack.push({ v: child, pointer: `${pointer}/${i}`, key: '' }));
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length > MAX_OBJECT_KEYS)
        fail(pointer, `an object of ${keys.length} keys (properties): more than the ${MAX_OBJECT_KEYS} supported`);
      counted(pointer, keys.length);
      for (const k of keys) {
        const p = `${pointer}/${pointerToken(k)}`;
        if (k.length > MAX_STRING_LENGTH)
          fail(p, `a key of ${k.length} characters: longer than the ${MAX_STRING_LENGTH} supported`);
        stack.push({ v: (v as Record<string, unknown>)[k], pointer: p, key: k });
      }
    }
  }
}

/**
 * The form under which two property names count as the same to a reader: NFKC, bidirectional
 * controls and default-ignorable format characters removed, then the confusables skeleton of
 * UTS #39 (`unhomoglyph`'s data, decomposed).
 */
export function nameSkeleton(name: string): string {
  const plain = name
    .normalize('NFKC')
    .replace(BIDI_CONTROLS, '')
    // eslint-disable-next-line no-misleading-character-class -- invisible joiners and variation selectors, one by one
    .replace(/[\u00AD\u034F\u180B-\u180F\u200B-\u200D\u2060-\u2064\uFE00-\uFE0F\uFEFF]/g, '');
  return unhomoglyph(plain.normalize('NFD')).normalize('NFD');
}

/**
 * Check a request schema for the features the generator supports. `base` is the JSON pointer of
 * the schema in its file (e.g. `/request_schema`).
 * @throws SpecError naming the file, model and pointer of the first unsupported feature.
 */
export function checkSupported(schema: Record<string, unknown>, file: string, model: string, base: string): void {
  const fail = (pointer: string, problem: string): never => {
    throw new SpecError(file, model, base + pointer, problem);
  };
  const deep = tooDeep(schema);
  if (deep !== undefined) fail(deep, `nested deeper than ${MAX_JSON_DEPTH} levels: not supported`);
  const $schema = schema['$schema'];
  if ($schema !== undefined && (typeof $schema !== 'string' || !DRAFT_07.test($schema))) {
    fail(
      '/$schema',
      `the JSON Schema dialect ${JSON.stringify($schema)} is not supported: only draft-07 (http://json-schema.org/draft-07/schema#)`,
    );
  }
  // Walk every subschema, checking the keywords that libraries would otherwise choke on.
  const refs: Array<{ ref: string; pointer: string }> = [];
  const patterns = new Set<string>();
  for (const { node: s, pointer, root } of subschemas(schema)) {
    if (Array.isArray(s['enum'])) {
      const first = new Map<string, number>();
      (s['enum'] as unknown[]).forEach((v, i) => {
        const c = canonicalJson(v);
        const j = first.get(c);
        if (j !== undefined)
          fail(`${pointer}/enum/${i}`, `enum value ${i} repeats value ${j}: enum values must be unique`);
        first.set(c, i);
      });
    }
    if (isMap(s['properties'])) {
      const seen = new Map<string, string>();
      for (const name of Object.keys(s['properties'] as object)) {
        const k = nameSkeleton(name);
        const other = seen.get(k);
        if (other !== undefined) {
          const how =
            other.normalize('NFKC') === name.normalize('NFKC')
              ? 'equal after Unicode normalization (NFKC)'
              : 'look alike (Unicode confusables)';
          fail(
            `${pointer}/properties/${pointerToken(name)}`,
            `property names ${stringLiteral(other)} and ${stringLiteral(name)} ${how}: they would read as the same member`,
          );
        }
        seen.set(k, name);
      }
    }
    for (const k of ['$anchor', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor', '$vocabulary']) {
      if (Object.hasOwn(s, k)) fail(`${pointer}/${pointerToken(k)}`, `${k} is not supported (only draft-07 is)`);
    }
    for (const { where, source, what } of regexesOf(s)) {
      try {
        new RegExp(source, 'u');
      } catch {
        fail(`${pointer}/${where}`, `${what} is not a valid regular expression (ECMA-262, unicode mode)`);
      }
      // each is then proven free of catastrophic backtracking, at a cost that grows with both (pattern-check.ts)
      if (source.length > MAX_PATTERN_LENGTH)
        fail(
          `${pointer}/${where}`,
          `${what} of ${source.length} characters: longer than the ${MAX_PATTERN_LENGTH} supported`,
        );
      patterns.add(source);
      if (patterns.size > MAX_PATTERNS)
        fail(`${pointer}/${where}`, `more than ${MAX_PATTERNS} distinct patterns in one schema: not supported`);
    }
    if (!root && (Object.hasOwn(s, '$id') || Object.hasOwn(s, '$schema')))
      fail(
        `${pointer}/${Object.hasOwn(s, '$id') ? '$id' : '$schema'}`,
        '$id and $schema are supported only at the root of a request schema',
      );
    if (Object.hasOwn(s, '$ref')) {
      const ref = s['$ref'];
      if (typeof ref !== 'string') fail(`${pointer}/$ref`, '$ref must be a string');
      const r = ref as string;
      if (!r.startsWith('#'))
        fail(`${pointer}/$ref`, `remote $ref ${JSON.stringify(r)} is not supported: only local references (#/...)`);
      if (!LOCAL_REF.test(r)) fail(`${pointer}/$ref`, `$ref ${JSON.stringify(r)} is not a JSON pointer fragment`);
      let target: unknown;
      let canonical = '';
      try {
        canonical = canonicalRef(r);
        target = resolveLocalRef(schema, r);
      } catch {
        target = undefined; // a malformed percent-escape
      }
      if (target === undefined) fail(`${pointer}/$ref`, `$ref ${JSON.stringify(r)} points to nothing in the schema`);
      if (typeof target !== 'boolean' && (target === null || typeof target !== 'object' || Array.isArray(target)))
        fail(`${pointer}/$ref`, `$ref ${JSON.stringify(r)} points to a value that is not a schema`);
      refs.push({ ref: canonical, pointer: `${pointer}/$ref` });
    }
  }
  // Recursion: following $refs from any reference must never come back to it.
  for (const { ref, pointer } of refs) {
    const seen = new Set<string>([ref]);
    const queue = [ref];
    while (queue.length > 0) {
      const target = resolveLocalRef(schema, queue.pop()!);
      let inners: string[];
      try {
        inners = refsIn(target);
      } catch {
        return fail(pointer, `$ref ${JSON.stringify(ref)} leads to a malformed $ref`);
      }
      for (const inner of inners) {
        if (inner === ref || inner === '#' || ref.startsWith(`${inner}/`))
          fail(pointer, `recursive $ref ${JSON.stringify(ref)} is not supported`);
        if (!seen.has(inner)) {
          seen.add(inner);
          queue.push(inner);
        }
      }
    }
  }
}

/**
 * The regular expressions of one subschema that are strings: its `pattern` and its
 * `patternProperties` keys, each with its place relative to the subschema and how a reason names it.
 */
export function regexesOf(s: Record<string, unknown>): Array<{ where: string; source: string; what: string }> {
  const out: Array<{ where: string; source: string; what: string }> = [];
  if (typeof s['pattern'] === 'string') out.push({ where: 'pattern', source: s['pattern'], what: 'pattern' });
  if (isMap(s['patternProperties']))
    for (const k of Object.keys(s['patternProperties'] as object))
      out.push({ where: `patternProperties/${pointerToken(k)}`, source: k, what: 'a patternProperties key' });
  return out;
}

/** Every `$ref` of the subschemas below `node`, canonical (see `canonicalRef`). */
function refsIn(node: unknown): string[] {
  const out: string[] = [];
  for (const { node: s } of subschemas(node)) if (typeof s['$ref'] === 'string') out.push(canonicalRef(s['$ref']));
  return out;
}
