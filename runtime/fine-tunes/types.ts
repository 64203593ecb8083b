/**
 * The fine-tune object and the answers of the fine-tune operations, as the service's docs show
 * them today (`fine-tuning-api/02_fine_tuning_image.mdx` in `Oxen-AI/docs`; the API description
 * 0.224.2 shows no field beyond the id). Every field but `id` is optional, every object open to new
 * fields, and statuses widened with `(string & {})`: the names of the running states are not shown.
 * Kept equal to `components.schemas` of `specs/openapi.yaml` by `test/types/openapi-compat.types.ts`.
 * The constants of `fineTunes.wait` are here too (no import of the machinery), so that the
 * generator's endpoint docs quote them.
 */
import type { FineTuneScriptType } from './params.ts';

/** The repository a fine-tune belongs to (the path of the fine-tune operations). */
export interface RepoRef {
  namespace: string;
  repo_name: string;
}

/** One fine-tune of a repository: `{ namespace, repo_name, id }`. */
export interface FineTuneRef extends RepoRef {
  /** The fine-tune id (`fine_tune.id` of the creation answer). */
  id: string;
}

/**
 * The status of a fine-tune: `created` until it runs; `completed`, `errored` and `stopped` once it
 * ended (`FINE_TUNE_TERMINAL_STATUSES`); other values (not shown by the docs) while it runs.
 */
export type FineTuneStatus = 'created' | 'completed' | 'errored' | 'stopped' | (string & {});

/** A fine-tune. */
export interface FineTune {
  /** The fine-tune id, as `FineTuneRef.id` takes it. */
  id: string;
  /** See `FineTuneStatus`. */
  status?: FineTuneStatus;
  /** The dataset file it trains on (`<revision>/<path>`). */
  resource?: string;
  /** Canonical name of its base model. */
  base_model?: string;
  /** What kind of fine-tune it is (`FineTuneCreateParams`). */
  script_type?: FineTuneScriptType | (string & {});
  /** Its training parameters, defaults filled in by the service. */
  training_params?: Record<string, unknown>;
  /** What it produced, once `completed`. */
  output_resource?: string | null;
  /** What went wrong, once `errored`. */
  error?: string | null;
  [key: string]: unknown;
}

/** The answer of `fineTunes.create`, `tokenize` and `retrieve`: the wrapped fine-tune. */
export interface FineTuneResponse {
  /** The fine-tune. */
  fine_tune: FineTune;
  [key: string]: unknown;
}

/** The answer of `fineTunes.run`: its body is not shown by the docs. */
export interface FineTuneRunResponse {
  [key: string]: unknown;
}

/** A deployed fine-tune. */
export interface FineTuneDeployment {
  /** The model id to call the deployed fine-tune with (e.g. `oxen:<name>`), on its base model's endpoint. */
  model_slug: string;
  [key: string]: unknown;
}

/** The answer of `fineTunes.deploy`. */
export interface FineTuneDeployResponse {
  /** The deployment, with the `model_slug` to call. */
  deployment: FineTuneDeployment;
  [key: string]: unknown;
}

/** Default `intervalMs` of `fineTunes.wait`: 30_000 (30 seconds, as the docs poll), in milliseconds. */
export const FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS = 30_000;

/** Default `timeoutMs` of `fineTunes.wait`: 86_400_000 (24 hours), in milliseconds. */
export const FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS = 86_400_000;

/** The statuses in which a fine-tune has ended: `completed`, `errored`, `stopped`. */
export const FINE_TUNE_TERMINAL_STATUSES: readonly string[] = Object.freeze(['completed', 'errored', 'stopped']);

/** True when the fine-tune's status is terminal (`FINE_TUNE_TERMINAL_STATUSES`). */
export function isFineTuneEnded(fineTune: FineTune): boolean {
  return typeof fineTune.status === 'string' && FINE_TUNE_TERMINAL_STATUSES.includes(fineTune.status);
}
