/**
 * The fine-tune operations as light functions over a `Transport` (what `client.fineTunes` calls):
 * create, tokenize, run, retrieve and deploy, each one request whose method and path come from the
 * operations table (`../operations.ts`). Waiting for a fine-tune's end is `wait.ts`.
 */
import { APIPromise } from '../api-promise.ts';
import { isObject, isObjectBody, objectWithObject } from '../internal/checks.ts';
import { guarded, operationRequest } from '../internal/operation.ts';
import * as ops from '../operations.ts';
import type { ResponseCheck } from '../request.ts';
import type { RequestOptions } from '../scope.ts';
import type { Transport } from '../transport.ts';
import type { FineTuneCreateParams } from './params.ts';
import type { FineTuneDeployResponse, FineTuneRef, FineTuneResponse, FineTuneRunResponse, RepoRef } from './types.ts';

const fineTuneResponse = /* @__PURE__ */ objectWithObject('fine_tune', 'a wrapped fine-tune');

/** The deploy answer: `deployment.model_slug`, a non-empty string (the model to call). */
const deployResponse: ResponseCheck = (body) => {
  const deployment = isObject(body) ? body['deployment'] : undefined;
  return isObject(deployment) && typeof deployment['model_slug'] === 'string' && deployment['model_slug'] !== ''
    ? undefined
    : 'expected a deployment (an object with a "deployment" object holding a "model_slug" string)';
};

/** The path parameters of one fine-tune. */
const fineTunePath = (ref: FineTuneRef) => ({ namespace: ref.namespace, repo_name: ref.repo_name, id: ref.id });

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
export function createFineTune(
  t: Transport,
  ref: RepoRef,
  body: FineTuneCreateParams,
  options?: RequestOptions,
): APIPromise<FineTuneResponse> {
  return guarded(() =>
    APIPromise.from(
      t.request<FineTuneResponse>(
        operationRequest(
          ops.fineTunesCreate,
          { namespace: ref.namespace, repo_name: ref.repo_name },
          { body, expect: fineTuneResponse },
        ),
        options,
      ),
    ),
  );
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
export function tokenizeFineTune(
  t: Transport,
  ref: FineTuneRef,
  options?: RequestOptions,
): APIPromise<FineTuneResponse> {
  return guarded(() =>
    APIPromise.from(
      t.request<FineTuneResponse>(
        operationRequest(ops.fineTunesTokenize, fineTunePath(ref), { expect: fineTuneResponse }),
        options,
      ),
    ),
  );
}

/* endpoint-doc: fineTunes.run */
/**
 * Start the training run of a created fine-tune: `POST /api/repos/{namespace}/{repo_name}/fine_tunes/{id}/actions/run`.
 * Follow it with `fineTunes.retrieve`, or wait for its end with `fineTunes.wait`. `timeoutMs` (milliseconds) defaults
 * to the client's, else 600_000 (10 minutes). Never resent unless the service surely did not process it (429,
 * connection refused).
 * @returns the service's answer (its body is not shown by the docs: an open object).
 * @throws NotFoundError when the fine-tune does not exist; BadRequestError (e.g. already running),
 * InsufficientCreditsError, OutcomeUnknownError, TimeoutError, AbortError; SDKError, before sending, when `namespace`,
 * `repo_name` or `id` is empty, `.` or `..` (or decodes to one).
 */
export function runFineTune(t: Transport, ref: FineTuneRef, options?: RequestOptions): APIPromise<FineTuneRunResponse> {
  return guarded(() =>
    APIPromise.from(
      t.request<FineTuneRunResponse>(
        operationRequest(ops.fineTunesRun, fineTunePath(ref), { expect: isObjectBody('a run answer') }),
        options,
      ),
    ),
  );
}

/* endpoint-doc: fineTunes.retrieve */
/**
 * Get a fine-tune and its status: `GET /api/repos/{namespace}/{repo_name}/fine_tunes/{id}`. `fine_tune.status` is
 * `completed` (with `output_resource`), `errored` (with `error`) or `stopped` once it ended; other values while it
 * runs. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
 * @returns `{ fine_tune }`: the `FineTune`.
 * @throws NotFoundError when the fine-tune does not exist; InvalidResponseError (a body without a `fine_tune` object),
 * TimeoutError, AbortError, ConnectionError; SDKError, before sending, when `namespace`, `repo_name` or `id` is empty,
 * `.` or `..` (or decodes to one).
 */
export function retrieveFineTune(
  t: Transport,
  ref: FineTuneRef,
  options?: RequestOptions,
): APIPromise<FineTuneResponse> {
  return guarded(() =>
    APIPromise.from(
      t.request<FineTuneResponse>(
        operationRequest(ops.fineTunesRetrieve, fineTunePath(ref), { expect: fineTuneResponse }),
        options,
      ),
    ),
  );
}

/* endpoint-doc: fineTunes.deploy */
/**
 * Deploy a completed fine-tune as a model: `POST /api/repos/{namespace}/{repo_name}/fine_tunes/{id}/deploy`.
 * `deployment.model_slug` (e.g. `oxen:<name>`) is the `model` to call it with, on its base model's endpoint;
 * `models.retrieve(slug)` gives its request schema. `timeoutMs` (milliseconds) defaults to the client's, else 600_000
 * (10 minutes). Never resent unless the service surely did not process it (429, connection refused).
 * @returns `{ deployment: { model_slug, ... } }`.
 * @throws NotFoundError when the fine-tune does not exist; BadRequestError (not completed), InvalidResponseError or
 * OutcomeUnknownError (an answer without `deployment.model_slug`), TimeoutError, AbortError; SDKError, before sending,
 * when `namespace`, `repo_name` or `id` is empty, `.` or `..` (or decodes to one).
 */
export function deployFineTune(
  t: Transport,
  ref: FineTuneRef,
  options?: RequestOptions,
): APIPromise<FineTuneDeployResponse> {
  return guarded(() =>
    APIPromise.from(
      t.request<FineTuneDeployResponse>(
        operationRequest(ops.fineTunesDeploy, fineTunePath(ref), { expect: deployResponse }),
        options,
      ),
    ),
  );
}
