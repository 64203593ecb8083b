/**
 * The queue's endpoints as light functions over a `Transport`: enqueue (with the body's validation), list, get and
 * cancel. A module of its own, apart from `endpoints.ts` (which re-exports them), so that a root `Client`'s page loads
 * them on the first `queue` call (`resources.ts`) rather than with the image call it makes first; the generated
 * per-model `<model>Enqueue` functions and `queue/run.ts` import them statically.
 */
import { APIPromise } from '../api-promise.ts';
import { isObject, isObjectBody, objectWithArray } from '../internal/checks.ts';
import { guarded, operationRequest } from '../internal/operation.ts';
import * as ops from '../operations.ts';
import type { HttpRequest, ResponseCheck } from '../request.ts';
import type { RequestOptions } from '../scope.ts';
import { stateOf, type Transport } from '../transport.ts';
import type { CancelResponse, EnqueueResponse, Generation, QueueListParams, QueueListResponse } from '../types.ts';
import type { CompiledValidator } from '../validation.ts';

/** Options of `queue.enqueue` (and of `queue.run`, which extends them). */
export interface EnqueueOptions extends RequestOptions {
  /**
   * Validate the body before sending (default true): against the model's compiled validator when
   * there is one, else only the queue's own fields. `false` sends the body exactly as given (the
   * service accepts invalid parameters at enqueue and the generation later fails or vanishes).
   */
  validate?: boolean | undefined;
}

// Pure: a bundle keeps only the checks its calls use.
const queueList = /* @__PURE__ */ objectWithArray('generations', 'a queue list');

/** The enqueue answer: at least one generation, each with a string `generation_id`. */
const enqueueResponse: ResponseCheck = (body) => {
  if (!isObject(body) || !Array.isArray(body['generations']))
    return 'expected an enqueue response (an object with a "generations" array)';
  const gens = body['generations'];
  if (gens.length === 0) return 'the enqueue response lists no generations';
  const bad = gens.findIndex(
    (g) => !isObject(g) || typeof g['generation_id'] !== 'string' || g['generation_id'] === '',
  );
  return bad < 0 ? undefined : `generations[${bad}] has no generation_id string`;
};

const generation: ResponseCheck = (body) =>
  isObject(body) && typeof body['generation_id'] === 'string'
    ? undefined
    : 'expected a generation (an object with a "generation_id" string)';

/**
 * `internal/issues.ts` (a validator's errors as `ValidationError` issues, and the checks of the queue's own fields),
 * loaded with `import()` by the first enqueue whose body its compiled validator rejects (or that has no validator), so
 * that a page that never enqueues (a root `Client` making an image call), or only enqueues valid bodies, loads none of
 * it. Should it fail to load, that enqueue rejects with the loader's error (nothing is sent unvalidated), and the next
 * one tries again.
 */
let issues: Promise<typeof import('../internal/issues.ts')> | undefined;
const loadIssues = () =>
  (issues ??= import('../internal/issues.ts').catch((err: unknown) => {
    issues = undefined;
    throw err;
  }));

/**
 * The validation step of `queue.enqueue` / `queue.run`: nothing when `options.validate` is false; the compiled
 * validator when there is one; else the queue's own fields (`model`, `num_generations`). Undefined (nothing to wait
 * for) when the body is valid by its compiled validator or validation is off; else a promise that rejects with the
 * `ValidationError` (or with the loader's error, see `loadIssues`), or resolves when the queue's own fields are valid.
 */
export function checkQueueBody(
  body: Record<string, unknown>,
  options: EnqueueOptions | undefined,
  validate: CompiledValidator | null | undefined,
): Promise<void> | undefined {
  if (options?.validate === false || (validate && validate(body))) return undefined;
  return loadIssues().then(({ queueBodyIssues, modelOf, ValidationError }) => {
    const found = queueBodyIssues(body, validate);
    if (!found) return;
    throw new ValidationError(modelOf(body), found);
  });
}

/* endpoint-doc: queue.enqueue */
/**
 * Enqueue 1 to 4 generations (`num_generations`) of an image or video model: `POST /api/ai/queue`. A video model that
 * takes a prompt needs exactly one of `prompt` and `multi_prompt` (`VideoParams`). The body is validated first against
 * the model's compiled validator, unless `validate: false` (see `EnqueueOptions.validate`). `validate` is the model's
 * compiled validator; without one only the queue's own fields are checked (`checkQueueBody`). `timeoutMs`
 * (milliseconds) defaults to the client's, else 600_000 (10 minutes). Never resent unless the service surely did not
 * process it (429, connection refused).
 * @returns `{ generations: [{ generation_id, status: 'processing' }] }` (at least one, each with a `generation_id`).
 * @throws ValidationError (nothing sent), NotFoundError (`Model not found: <name>`), BadRequestError,
 * InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight, unusable answer: never resent;
 * check `queue.list()`), TimeoutError, AbortError.
 */
export function enqueueGenerations(
  t: Transport,
  body: Record<string, unknown>,
  options?: EnqueueOptions,
  validate?: CompiledValidator | null,
): APIPromise<EnqueueResponse> {
  const { validate: _v, ...rest } = options ?? {};
  const send = () => APIPromise.from(t.request<EnqueueResponse>(enqueueRequest(body), rest));
  const checking = checkQueueBody(body, options, validate);
  return checking ? APIPromise.after(checking, send) : send();
}

/** The request of `POST /api/ai/queue` (shared with `queue.run`). */
export function enqueueRequest(body: Record<string, unknown>): HttpRequest {
  return { ...ops.queueEnqueue, body, expect: enqueueResponse };
}

/* endpoint-doc: queue.list */
/**
 * List the generations of `namespace` (default the user), optionally of one `model`: `GET /api/ai/queue`. By default
 * the active ones (`queued`, `processing`; 0.224.2: the processing ones); today's service also filters by `status`
 * (then ended ones too), `media_type`, `repo` and `folder`. `timeoutMs` (milliseconds) defaults to the client's, else
 * 600_000 (10 minutes).
 * @returns `{ count, generations }`.
 * @throws AuthenticationError, PermissionDeniedError, TimeoutError, AbortError, ConnectionError.
 */
export function listGenerations(
  t: Transport,
  params: QueueListParams = {},
  options?: RequestOptions,
): APIPromise<QueueListResponse> {
  return APIPromise.from(t.request({ ...ops.queueList, query: { ...params }, expect: queueList }, options));
}

/* endpoint-doc: queue.get */
/**
 * Get one generation: `GET /api/ai/queue/{generation_id}`. Today's service keeps a generation after it ended: its
 * `status`, `result_url` (succeeded) and `error_message` (failed); 0.224.2 answers only while it is processing.
 * `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
 * @returns the `Generation`.
 * @throws NotFoundError when the generation is unknown (0.224.2: also once it ended: succeeded, failed, cancelled,
 * expired); SDKError, before sending, when `generationId` is empty, `.` or `..` (or decodes to one).
 */
export function getGeneration(t: Transport, generationId: string, options?: RequestOptions): APIPromise<Generation> {
  return guarded(() =>
    APIPromise.from(
      t.request(operationRequest(ops.queueGet, { generation_id: generationId }, { expect: generation }), options),
    ),
  );
}

/* endpoint-doc: queue.cancel */
/**
 * Cancel a queued or processing generation (no completion event follows): `DELETE /api/ai/queue/{generation_id}`. A
 * `queue.run` or `queue.follow` following it through the same client (or a transport sharing its `state`) resolves it
 * `cancelled`. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
 * @returns `{ status: 'success', generation_id }`.
 * @throws NotFoundError when the generation is unknown (0.224.2: or ended; today a cancel of an ended one has no
 * effect); SDKError, before sending, when `generationId` is empty, `.` or `..` (or decodes to one). SDKError, before
 * sending, when `t` has no `state` (see `Transport.state`).
 */
export function cancelGeneration(
  t: Transport,
  generationId: string,
  options?: RequestOptions,
): APIPromise<CancelResponse> {
  return guarded(() => {
    const state = stateOf(t);
    const call = APIPromise.from(
      t.request<CancelResponse>(
        operationRequest(
          ops.queueCancel,
          { generation_id: generationId },
          { expect: isObjectBody('a cancel response') },
        ),
        options,
      ),
    );
    // Noted as soon as the cancel succeeds (before the caller's continuation runs), whatever the caller reads.
    call.then(
      () => state.noteCancelled(generationId),
      () => undefined,
    );
    return call;
  });
}
