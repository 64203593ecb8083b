/**
 * `client.fineTunes`: fine-tunes of a repository over a `Transport` (the light functions of
 * `endpoints.ts` and `wait.ts`), from creation to a deployed model: `create`, `run`, `wait`,
 * `deploy`, then call the deployment's `model_slug`. Those modules are loaded with `import()` by the
 * first call that needs them, so that a page of a `Client` that never calls `fineTunes.*` does not
 * carry them; should one not load, that call rejects with the loader's error.
 */
import { APIPromise } from '../api-promise.ts';
import type { RequestOptions } from '../scope.ts';
import type { Transport } from '../transport.ts';
import type { FineTuneCreateParams } from './params.ts';
import type {
  FineTune,
  FineTuneDeployResponse,
  FineTuneRef,
  FineTuneResponse,
  FineTuneRunResponse,
  RepoRef,
} from './types.ts';
import type { FineTuneWaitOptions } from './wait.ts';

const load = () => import('./endpoints.ts');

/** Fine-tunes of a repository. */
export class FineTunes {
  constructor(private readonly t: Transport) {}

  /* endpoint-doc: fineTunes.create */
  /**
   * Create a fine-tune from a dataset file of the repository: `POST /api/repos/{namespace}/{repo_name}/fine_tunes`.
   * `body` is typed by `script_type` (see `FineTuneCreateParams`): e.g. `{ resource: 'main/train.jsonl', base_model,
   * script_type: 'text_generation', training_params: { question_column, answer_column } }`. It starts in status
   * `created`: start it with `fineTunes.run`. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10
   * minutes). Never resent unless the service surely did not process it (429, connection refused).
   * @returns `{ fine_tune }`: the `FineTune` (`id`, `status`, ...).
   * @throws NotFoundError (repository unknown), BadRequestError, AuthenticationError, PermissionDeniedError,
   * InsufficientCreditsError, OutcomeUnknownError, TimeoutError, AbortError; SDKError, before sending, when `namespace`
   * or `repo_name` is empty, `.` or `..` (or decodes to one).
   */
  create(ref: RepoRef, body: FineTuneCreateParams, options?: RequestOptions): APIPromise<FineTuneResponse> {
    return APIPromise.after(load(), (m) => m.createFineTune(this.t, ref, body, options));
  }

  /* endpoint-doc: fineTunes.tokenize */
  /**
   * Tokenize a fine-tune's dataset, only for a fine-tune in the `created` state:
   * `POST /api/repos/{namespace}/{repo_name}/fine_tunes/{id}/tokenize`. `timeoutMs` (milliseconds) defaults to the
   * client's, else 600_000 (10 minutes). Never resent unless the service surely did not process it (429, connection
   * refused).
   * @returns `{ fine_tune }`: the wrapped `FineTune`.
   * @throws NotFoundError when the fine-tune does not exist; OutcomeUnknownError, TimeoutError, AbortError; SDKError,
   * before sending, when `namespace`, `repo_name` or `id` is empty, `.` or `..` (or decodes to one).
   */
  tokenize(ref: FineTuneRef, options?: RequestOptions): APIPromise<FineTuneResponse> {
    return APIPromise.after(load(), (m) => m.tokenizeFineTune(this.t, ref, options));
  }

  /* endpoint-doc: fineTunes.run */
  /**
   * Start the training run of a created fine-tune:
   * `POST /api/repos/{namespace}/{repo_name}/fine_tunes/{id}/actions/run`. Follow it with `fineTunes.retrieve`, or wait
   * for its end with `fineTunes.wait`. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
   * Never resent unless the service surely did not process it (429, connection refused).
   * @returns the service's answer (its body is not shown by the docs: an open object).
   * @throws NotFoundError when the fine-tune does not exist; BadRequestError (e.g. already running),
   * InsufficientCreditsError, OutcomeUnknownError, TimeoutError, AbortError; SDKError, before sending, when
   * `namespace`, `repo_name` or `id` is empty, `.` or `..` (or decodes to one).
   */
  run(ref: FineTuneRef, options?: RequestOptions): APIPromise<FineTuneRunResponse> {
    return APIPromise.after(load(), (m) => m.runFineTune(this.t, ref, options));
  }

  /* endpoint-doc: fineTunes.retrieve */
  /**
   * Get a fine-tune and its status: `GET /api/repos/{namespace}/{repo_name}/fine_tunes/{id}`. `fine_tune.status` is
   * `completed` (with `output_resource`), `errored` (with `error`) or `stopped` once it ended; other values while it
   * runs. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
   * @returns `{ fine_tune }`: the `FineTune`.
   * @throws NotFoundError when the fine-tune does not exist; InvalidResponseError (a body without a `fine_tune`
   * object), TimeoutError, AbortError, ConnectionError; SDKError, before sending, when `namespace`, `repo_name` or `id`
   * is empty, `.` or `..` (or decodes to one).
   */
  retrieve(ref: FineTuneRef, options?: RequestOptions): APIPromise<FineTuneResponse> {
    return APIPromise.after(load(), (m) => m.retrieveFineTune(this.t, ref, options));
  }

  /* endpoint-doc: fineTunes.wait */
  /**
   * Wait until a fine-tune ends (`completed`, `errored` or `stopped`), reading it every `intervalMs` (milliseconds):
   * `GET /api/repos/{namespace}/{repo_name}/fine_tunes/{id}`. `intervalMs` defaults to 30_000 (30 seconds, as the docs
   * poll); `onStatus` is called with each fine-tune read. Each read is a `fineTunes.retrieve` (retried as a GET).
   * `timeoutMs` (milliseconds) covers the whole wait: default 86_400_000 (24 hours); `signal` ends it.
   * @returns the `FineTune` in its terminal status (an `errored` or `stopped` one too: check `status`).
   * @throws FineTuneWaitTimeoutError after `timeoutMs` (with the last fine-tune read), AbortError on `signal`, the
   * errors of `fineTunes.retrieve`, the error `onStatus` throws; SDKError, before sending, for an `intervalMs` or
   * `timeoutMs` that is not a number above 0; SDKError, before sending, when `namespace`, `repo_name` or `id` is empty,
   * `.` or `..` (or decodes to one).
   */
  wait(ref: FineTuneRef, options?: FineTuneWaitOptions): Promise<FineTune> {
    return import('./wait.ts').then((m) => m.waitForFineTune(this.t, ref, options));
  }

  /* endpoint-doc: fineTunes.deploy */
  /**
   * Deploy a completed fine-tune as a model: `POST /api/repos/{namespace}/{repo_name}/fine_tunes/{id}/deploy`.
   * `deployment.model_slug` (e.g. `oxen:<name>`) is the `model` to call it with, on its base model's endpoint;
   * `models.retrieve(slug)` gives its request schema. `timeoutMs` (milliseconds) defaults to the client's, else 600_000
   * (10 minutes). Never resent unless the service surely did not process it (429, connection refused).
   * @returns `{ deployment: { model_slug, ... } }`.
   * @throws NotFoundError when the fine-tune does not exist; BadRequestError (not completed), InvalidResponseError or
   * OutcomeUnknownError (an answer without `deployment.model_slug`), TimeoutError, AbortError; SDKError, before
   * sending, when `namespace`, `repo_name` or `id` is empty, `.` or `..` (or decodes to one).
   */
  deploy(ref: FineTuneRef, options?: RequestOptions): APIPromise<FineTuneDeployResponse> {
    return APIPromise.after(load(), (m) => m.deployFineTune(this.t, ref, options));
  }
}
