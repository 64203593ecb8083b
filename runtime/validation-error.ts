/**
 * `ValidationError`, in a module of its own (not `errors.ts`, which every call loads): a page that never
 * validates leaves it out, and a root `Client`'s page does not carry it for the queue functions it loads on demand.
 * Branded here (see `brandErrors` in `errors.ts`).
 */
import { SDKError, type ValidationIssue } from './errors.ts';
import { brandErrors } from './internal/brand.ts';

/** Client-side validation of model parameters failed; nothing was sent. */
export class ValidationError extends SDKError {
  override name = 'ValidationError';
  declare readonly model: string;
  declare readonly issues: ValidationIssue[];
  constructor(model: string, issues: ValidationIssue[]) {
    super(
      `Invalid parameters for model ${model}:\n` + issues.map((i) => `  ${i.pointer || '/'}: ${i.message}`).join('\n'),
    );
    this.model = model;
    this.issues = issues;
  }
}

brandErrors({ ValidationError });
