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
import { requestIssues } from './internal/issues.ts';
import { ValidationError } from './validation-error.ts';

export { issuesOf } from './internal/issues.ts';

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

/**
 * Validate a whole queue request body with the model's compiled validator.
 * @throws ValidationError listing every problem with its JSON pointer (nothing is sent).
 */
export function checkRequest(model: string, body: unknown, validate: CompiledValidator): void {
  const issues = requestIssues(body, validate);
  if (issues) throw new ValidationError(model, issues);
}
