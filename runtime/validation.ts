/**
 * Client-side validation of queue requests against the model's JSON schema (ajv + ajv-formats).
 *
 * The service does not validate model parameters at enqueue: an invalid generation is accepted,
 * billed, and later fails or vanishes. `queue.enqueue` and `queue.run` therefore validate first:
 * - `num_generations` must be an integer from 1 to 4;
 * - the SDK-level fields (`model`, `response_format`, `target_namespace`, `num_generations`) are
 *   set aside unless the model's schema declares them, and the rest is validated against the
 *   schema closed at the top level (`additionalProperties: false`, so typos are caught);
 * - a model the schema source does not know, or whose schema is null, is not validated.
 * Compiled validators are cached per model; schemas are cloned, never mutated.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import type { SchemaSource } from './client.ts';
import { ValidationError, type ValidationIssue } from './errors.ts';

/** Fields the SDK adds to every queue request; validated by the SDK, not by the model's schema. */
export const SDK_FIELDS = ['model', 'response_format', 'target_namespace', 'num_generations'] as const;

type AddFormats = (ajv: Ajv) => Ajv;
// ajv-formats is CommonJS: its default export is `module.exports` (Node) or `exports.default` (bundlers); both carry `.default`.
const formatsModule = ajvFormats as unknown as { default: AddFormats & { default?: AddFormats } };
const addFormats: AddFormats = formatsModule.default.default ?? formatsModule.default;

/** Escape one JSON-pointer segment (RFC 6901). */
function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The issues of ajv errors, each located by the JSON pointer of the offending (or missing / extra) property. */
export function issuesOf(errors: ErrorObject[] | null | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    let pointer = e.instancePath;
    let message = e.message ?? 'is invalid';
    const p = e.params as Record<string, unknown>;
    if (e.keyword === 'required' && typeof p['missingProperty'] === 'string') {
      pointer += '/' + escapePointer(p['missingProperty']);
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' && typeof p['additionalProperty'] === 'string') {
      pointer += '/' + escapePointer(p['additionalProperty']);
      message = 'is not a parameter of this model';
    } else if (e.keyword === 'enum' && Array.isArray(p['allowedValues'])) {
      message = `must be one of ${p['allowedValues'].map((v) => JSON.stringify(v)).join(', ')}`;
    }
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ pointer, message, keyword: e.keyword });
  }
  return issues;
}

/**
 * Validates queue request bodies for one client (`await validator.check(body)`), with one ajv
 * instance and one compiled validator per model, compiled on first use.
 */
export class RequestValidator {
  private ajv: Ajv | undefined;
  private readonly cache = new Map<string, Promise<{ validate: ValidateFunction; declared: Set<string> } | null>>();

  constructor(private readonly source: SchemaSource | undefined) {}

  private compiler(): Ajv {
    if (!this.ajv) {
      this.ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, addUsedSchema: false });
      addFormats(this.ajv);
    }
    return this.ajv;
  }

  /** The compiled validator of `model` (cached), or null when the model is unknown or has no schema. */
  private validatorFor(model: string): Promise<{ validate: ValidateFunction; declared: Set<string> } | null> {
    let entry = this.cache.get(model);
    if (!entry) {
      entry = (async () => {
        const schema = this.source ? await this.source(model) : undefined;
        if (!schema || typeof schema !== 'object') return null;
        const closed = { ...(JSON.parse(JSON.stringify(schema)) as object), additionalProperties: false } as Record<string, unknown>;
        delete closed['$id']; // the cache is ours: never let two models collide on an id
        const props = (closed['properties'] ?? {}) as Record<string, unknown>;
        return { validate: this.compiler().compile(closed), declared: new Set(Object.keys(props)) };
      })();
      // A failing source is not cached: the next call asks again.
      entry.catch(() => this.cache.delete(model));
      this.cache.set(model, entry);
    }
    return entry;
  }

  /**
   * Check a queue request body.
   * @throws ValidationError listing every problem with its JSON pointer (nothing was sent).
   */
  async check(body: Record<string, unknown>): Promise<void> {
    const issues: ValidationIssue[] = [];
    const model = body['model'];
    if (typeof model !== 'string' || model === '') {
      issues.push({ pointer: '/model', message: 'is required (a model id string)', keyword: 'required' });
      throw new ValidationError(String(model ?? '(none)'), issues);
    }
    const n = body['num_generations'];
    if (n !== undefined && !(typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 4)) {
      issues.push({ pointer: '/num_generations', message: 'must be an integer from 1 to 4', keyword: 'range' });
    }
    const v = await this.validatorFor(model);
    if (v) {
      const params: Record<string, unknown> = {};
      for (const [k, value] of Object.entries(body)) {
        if ((SDK_FIELDS as readonly string[]).includes(k) && !v.declared.has(k)) continue;
        params[k] = value;
      }
      if (!v.validate(params)) issues.push(...issuesOf(v.validate.errors));
    }
    if (issues.length > 0) throw new ValidationError(model, issues);
  }
}
