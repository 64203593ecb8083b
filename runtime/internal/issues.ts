/**
 * The issues of a queue body, as `ValidationError` lists them: the compiled validator's errors
 * (`issuesOf`), or, for a body no validator covers, the checks of the queue's own fields. Imports
 * nothing at run time, so that a bundler makes one chunk of it: `enqueueGenerations` loads it with
 * `import()` at its first validated enqueue, and throws the `ValidationError` itself (`validation.ts`
 * throws it for `queue.run` and `checkRequest`).
 */
import type { ValidationIssue } from '../errors.ts';
import type { CompiledValidator, ValidatorErrorObject } from '../validation.ts';

// (for `checkQueueBody` of `queue/endpoints.ts`, which loads this module before it throws one)
export { ValidationError } from '../validation-error.ts';

/** Escape one JSON-pointer segment (RFC 6901). */
function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The issues of validator errors, each located by the JSON pointer of the offending (or missing,
 * or extra) property: `required` -> `is required`, `additionalProperties` -> `is not a parameter
 * of this model`, `enum` -> `must be one of "a", "b"`; other keywords keep the validator's message.
 * Duplicates (same pointer and message) are dropped.
 */
export function issuesOf(errors: readonly ValidatorErrorObject[] | null | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    let pointer = e.instancePath;
    let message = e.message ?? 'is invalid';
    const p = e.params ?? {};
    const missing = p['missingProperty'];
    const extra = p['additionalProperty'];
    const allowed = p['allowedValues'];
    if (e.keyword === 'required' && typeof missing === 'string') {
      pointer += '/' + escapePointer(missing);
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' && typeof extra === 'string') {
      pointer += '/' + escapePointer(extra);
      message = 'is not a parameter of this model';
    } else if (e.keyword === 'enum' && Array.isArray(allowed)) {
      message = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ pointer, message, keyword: e.keyword });
  }
  return issues;
}

/**
 * The video endpoint's rule "exactly one of `prompt` and `multi_prompt`" in words: the generated
 * validators state it as `not: { required: [prompt, multi_prompt] }` and `anyOf` of the two
 * `required`s (see `generator/stages/validators.ts`), whose own messages ("must NOT be valid", two
 * "is required" and "must match a schema in anyOf") would not say it.
 */
function promptChoice(body: unknown, issues: ValidationIssue[]): ValidationIssue[] {
  if (typeof body !== 'object' || body === null) return issues;
  const has = (k: string) => (body as Record<string, unknown>)[k] !== undefined;
  if (has('prompt') && has('multi_prompt') && issues.some((i) => i.pointer === '' && i.keyword === 'not')) {
    return [
      {
        pointer: '/multi_prompt',
        message: 'cannot be given together with prompt: give exactly one of prompt and multi_prompt',
        keyword: 'not',
      },
      ...issues.filter((i) => !(i.pointer === '' && i.keyword === 'not')),
    ];
  }
  const missing = (k: string) => issues.some((i) => i.pointer === `/${k}` && i.keyword === 'required');
  if (!has('prompt') && !has('multi_prompt') && missing('prompt') && missing('multi_prompt')) {
    const rest = issues.filter(
      (i) =>
        !((i.pointer === '/prompt' || i.pointer === '/multi_prompt') && i.keyword === 'required') &&
        !(i.pointer === '' && i.keyword === 'anyOf'),
    );
    return [
      {
        pointer: '/prompt',
        message: 'is required (or multi_prompt instead: exactly one of prompt and multi_prompt)',
        keyword: 'required',
      },
      ...rest,
    ];
  }
  return issues;
}

/** The issues of `body` by `validate`, or undefined when it is valid (`is invalid` at the root when the validator says no more). */
export function requestIssues(body: unknown, validate: CompiledValidator): ValidationIssue[] | undefined {
  if (validate(body)) return undefined;
  const issues = promptChoice(body, issuesOf(validate.errors));
  return issues.length > 0 ? issues : [{ pointer: '', message: 'is invalid' }];
}

/**
 * The issues of the queue's own fields, for a body no compiled validator covers (a model without
 * schema, or one the validator source does not know): `model` is a non-empty string,
 * `num_generations`, when given, an integer from 1 to 4 (the description's range), and not both
 * `prompt` and `multi_prompt`; undefined when there is none.
 */
export function queueFieldIssues(body: Record<string, unknown>): ValidationIssue[] | undefined {
  const model = body['model'];
  const issues: ValidationIssue[] = [];
  if (typeof model !== 'string' || model === '')
    issues.push({ pointer: '/model', message: 'is required (a model id string)', keyword: 'required' });
  const n = body['num_generations'];
  if (n !== undefined && !(typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 4)) {
    issues.push({ pointer: '/num_generations', message: 'must be an integer from 1 to 4', keyword: 'maximum' });
  }
  // The description's rule for every video model; an image model takes no multi_prompt at all.
  if (body['prompt'] !== undefined && body['multi_prompt'] !== undefined) {
    issues.push({
      pointer: '/multi_prompt',
      message: 'cannot be given together with prompt: give exactly one of prompt and multi_prompt',
      keyword: 'not',
    });
  }
  return issues.length > 0 ? issues : undefined;
}

/** The issues of a queue body: by its compiled validator when there is one, else of the queue's own fields. */
export function queueBodyIssues(
  body: Record<string, unknown>,
  validate: CompiledValidator | null | undefined,
): ValidationIssue[] | undefined {
  return validate ? requestIssues(body, validate) : queueFieldIssues(body);
}

/** The body's model for a `ValidationError`: its `model`, or `(none)` when that is not a non-empty string. */
export function modelOf(body: Record<string, unknown>): string {
  const model = body['model'];
  return typeof model === 'string' && model !== '' ? model : '(none)';
}
