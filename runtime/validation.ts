/**
 * Client-side validation of queue requests with validators compiled at generate time.
 *
 * The service does not validate model parameters at enqueue: an invalid generation is accepted,
 * billed, and later fails or vanishes. `queue.enqueue` and `queue.run` therefore validate first.
 * The generator compiles each model's validator with ajv's standalone code generation
 * (`generated/validators/<id>.ts`): it validates the whole queue body — the model's schema plus
 * the SDK fields `model`, `response_format`, `target_namespace` and `num_generations` (each unless
 * the schema declares it), closed with `additionalProperties: false`. At run time the SDK only
 * runs that function and maps its errors to `ValidationError` issues: no validator library, no
 * code evaluated from strings (so it works under a Content-Security-Policy without
 * `'unsafe-eval'`).
 */
import { ValidationError, type ValidationIssue } from './errors.ts';
import { brandErrors } from './internal/brand.ts';

// Branded here, where it is thrown, rather than with the other classes in `errors.ts` (see there).
brandErrors({ ValidationError });

/** One error of an ajv standalone validator (`validate.errors`), structurally (no ajv import). */
export interface ValidatorErrorObject {
  /** JSON pointer of the offending value (`/aspect_ratio`), `` for the body itself. */
  instancePath: string;
  schemaPath?: string;
  /** The JSON Schema keyword that failed (`enum`, `required`, `additionalProperties`, `type`, ...). */
  keyword: string;
  /** The keyword's parameters (`missingProperty`, `additionalProperty`, `allowedValues`, ...). */
  params: Record<string, unknown>;
  message?: string;
}

/** ajv's standalone validate function shape (structural; no ajv import): true when valid, else `errors` says why. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: readonly ValidatorErrorObject[] | null;
}

/**
 * Loads the compiled validator of a model id (lazily, e.g. through a dynamic `import()` that a
 * bundler splits off): `null` = the model has no schema, `undefined` = a model the source does not
 * know. Neither is validated beyond the queue's own fields (`model`, `num_generations`).
 */
export type ValidatorSource = (model: string) => Promise<CompiledValidator | null | undefined>;

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
 * `required`s (see `generator/validators.ts`), whose own messages ("must NOT be valid", two
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

/**
 * Validate a whole queue request body with the model's compiled validator.
 * @throws ValidationError listing every problem with its JSON pointer (nothing is sent).
 */
export function checkRequest(model: string, body: unknown, validate: CompiledValidator): void {
  if (validate(body)) return;
  const issues = promptChoice(body, issuesOf(validate.errors));
  throw new ValidationError(model, issues.length > 0 ? issues : [{ pointer: '', message: 'is invalid' }]);
}

/**
 * The checks of the queue's own fields, for a body no compiled validator covers (a model without
 * schema, or one the validator source does not know): `model` is a non-empty string,
 * `num_generations`, when given, an integer from 1 to 4 (the description's range), and not both
 * `prompt` and `multi_prompt`.
 * @throws ValidationError (nothing is sent).
 */
export function checkQueueFields(body: Record<string, unknown>): void {
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
  if (issues.length > 0)
    throw new ValidationError(typeof model === 'string' && model !== '' ? model : '(none)', issues);
}
