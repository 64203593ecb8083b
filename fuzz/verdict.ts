/**
 * The outcome classes of a fuzz case, and the rule that tells a named refusal from an internal
 * exception passed off as one.
 */
import type { SpecError } from '../generator/errors.ts';

/**
 * The classes, in the order a case is classified (the first that applies wins; every reason is
 * still reported). `generated` and `refused` are successes; the others are failures.
 */
export const CLASSES = [
  'hang',
  'escape',
  'injection',
  'partial-write',
  'unnamed-crash',
  'slow-validator',
  'invalid-ts',
  'oracle',
  'refused',
  'generated',
] as const;
export type CaseClass = (typeof CLASSES)[number];

/** The failure classes: a run passes when each count is 0. */
export const FAILURE_CLASSES: readonly CaseClass[] = [
  'unnamed-crash',
  'invalid-ts',
  'injection',
  'escape',
  'partial-write',
  'hang',
  'slow-validator',
  'oracle',
];

/** How each class is named in the summary. */
export const CLASS_LABELS: Record<CaseClass, string> = {
  generated: 'generated and compiled',
  refused: 'refused with a named error',
  'unnamed-crash': 'unnamed crash',
  'invalid-ts': 'invalid TypeScript (or throws when run)',
  injection: 'injection (sentinel as code)',
  escape: 'file outside the output directory',
  'partial-write': 'partial write on failure',
  hang: 'hang (over the time limit)',
  'slow-validator': 'slow validator (over 100 ms on an input of 10 KB)',
  oracle: "parameter type not json-schema-to-typescript's (no rule explains it)",
};

/**
 * Texts of internal exceptions (JavaScript engine, file system, library internals, parsers of
 * generated code): a SpecError whose problem is one of these names no real problem of the input.
 */
const INTERNAL: readonly RegExp[] = [
  /URI malformed/,
  /is not a function/,
  /is not a constructor/,
  /is not iterable/,
  /is not defined/,
  /Maximum call stack size exceeded/,
  /Cannot (?:read|set) propert(?:y|ies) of/,
  /Cannot convert .* to/,
  /Cannot create property/,
  /(?:undefined|null) is not an? /,
  /Invalid (?:array|string) length/,
  /no schema with key or ref/,
  /can't resolve reference/,
  /ENAMETOOLONG|EISDIR|ENOTDIR|EACCES|EEXIST/,
  /Unterminated (?:string constant|template|comment|regular expression)/, // babel (prettier); JSON.parse says "Unterminated string in JSON"
  /\(\d+:\d+\)\s*$/m, // babel/prettier position suffix: a parse error in generated code
  /\n\s+at .*:\d+:\d+\)?$/m, // a stack trace
];

/** A JSON pointer (RFC 6901) resolved in `doc`: whether it exists. */
function resolves(doc: unknown, pointer: string): boolean {
  if (pointer === '') return true;
  let v = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, token)) return false;
    v = (v as Record<string, unknown>)[token];
  }
  return true;
}

/**
 * Why a SpecError is not a named refusal, or undefined when it is one. Named: a non-empty file,
 * the model when the file is a model file, a JSON pointer that exists in the file (or whose parent
 * does: a missing member), and a problem that is not an internal exception's text.
 * @param doc the parsed document of the named file, when the case wrote it as JSON.
 */
export function namedRefusalProblem(err: SpecError, doc: { found: boolean; value?: unknown }): string | undefined {
  const internal = INTERNAL.find((re) => re.test(err.problem));
  if (internal) return `SpecError passing on an internal exception: ${err.problem.split('\n')[0]}`;
  if (!err.file) return 'SpecError names no file';
  if (/\/models\/.*\.json$/s.test(err.file) && !err.model) return `SpecError names no model (file ${err.file})`;
  if (err.pointer !== '' && !err.pointer.startsWith('/'))
    return `SpecError pointer ${JSON.stringify(err.pointer)} is not a JSON pointer`;
  if (doc.found && !resolves(doc.value, err.pointer) && !resolves(doc.value, err.pointer.replace(/\/[^/]*$/, ''))) {
    return `SpecError pointer ${err.pointer} does not exist in ${err.file}: ${err.problem}`;
  }
  return undefined;
}
