/**
 * The models catalog as light functions over a `Transport` (what `client.models` calls): list,
 * search, retrieve, activate and deactivate, each one request whose method and path come from the
 * operations table (`../operations.ts`). Every model object is normalised (`normaliseModel`): its
 * request schema under `request_schema`, whichever name the service used.
 */
import { APIPromise } from '../api-promise.ts';
import { isObject, isObjectBody, objectWithArray } from '../internal/checks.ts';
import { guarded, operationRequest } from '../internal/operation.ts';
import * as ops from '../operations.ts';
import type { RequestOptions } from '../scope.ts';
import type { Transport } from '../transport.ts';
import type { Model, ModelList, ModelListParams, ModelRetrieveParams } from './types.ts';

const modelList = /* @__PURE__ */ objectWithArray('data', 'a model list');
const modelObject = /* @__PURE__ */ isObjectBody('a model object');

/** Normalise a model object: the schema under `request_schema` (the service uses either name), `id` a string. */
export function normaliseModel(raw: Record<string, unknown>): Model {
  const { json_request_schema, request_schema, ...rest } = raw;
  const schema = (request_schema ?? json_request_schema ?? null) as Model['request_schema'];
  return {
    ...rest,
    id: typeof rest['id'] === 'string' || typeof rest['id'] === 'number' ? String(rest['id']) : '',
    request_schema: schema,
  };
}

/** A list answer with each object item normalised (items that are not objects are left out). */
function normaliseList(raw: Record<string, unknown>): ModelList {
  const data = (raw['data'] as unknown[]).filter(isObject).map(normaliseModel);
  return { ...raw, object: typeof raw['object'] === 'string' ? raw['object'] : 'list', data };
}

/* endpoint-doc: models.list */
/**
 * List the catalog of models, optionally of one developer (`developer_name`, e.g. `openai`) or fine-tuning action
 * (`action`, a `script_type`): `GET /api/ai/models`. The items carry `request_schema: null`: a model's schema comes
 * from `models.retrieve`. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
 * @returns `{ object: 'list', data: Model[] }`.
 * @throws AuthenticationError, InvalidResponseError (a body without a `data` array), TimeoutError, AbortError,
 * ConnectionError.
 */
export function listModels(
  t: Transport,
  params: ModelListParams = {},
  options?: RequestOptions,
): APIPromise<ModelList> {
  return APIPromise.from(
    t.request<Record<string, unknown>>({ ...ops.modelsList, query: { ...params }, expect: modelList }, options),
  ).map(normaliseList);
}

/* endpoint-doc: models.search */
/**
 * Search the catalog of models by name: `GET /api/ai/models/search`. The items carry `request_schema: null`: a model's
 * schema comes from `models.retrieve`. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
 * @returns `{ object: 'list', data: Model[] }`, the models whose name matches.
 * @throws AuthenticationError, BadRequestError, InvalidResponseError (a body without a `data` array), TimeoutError,
 * AbortError, ConnectionError.
 */
export function searchModels(t: Transport, search: string, options?: RequestOptions): APIPromise<ModelList> {
  return APIPromise.from(
    t.request<Record<string, unknown>>({ ...ops.modelsSearch, query: { search }, expect: modelList }, options),
  ).map(normaliseList);
}

/* endpoint-doc: models.retrieve */
/**
 * Get a model's details, its request schema included: `GET /api/ai/models/{id}`. `deployment_status: 'live'` has the
 * service refresh a custom deployment's status first. A deployed fine-tune is retrieved by its `oxen:` slug.
 * `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
 * @returns the model object (`Model`: `model_type`, `pricing`, `deployments`, ... as the service sends them), its
 * schema normalised to `request_schema` (from `request_schema` or `json_request_schema`).
 * @throws NotFoundError (`Model not found: <id>`), InvalidResponseError (an empty, `null` or non-object body);
 * SDKError, before sending, when `id` is empty, `.` or `..` (or decodes to one).
 */
export function retrieveModel(
  t: Transport,
  id: string,
  params: ModelRetrieveParams = {},
  options?: RequestOptions,
): APIPromise<Model> {
  return guarded(() =>
    APIPromise.from(
      t.request<Record<string, unknown>>(
        operationRequest(ops.modelsRetrieve, { id }, { query: { ...params }, expect: modelObject }),
        options,
      ),
    ).map(normaliseModel),
  );
}

/* endpoint-doc: models.activate */
/**
 * Activate an inactive custom model deployment (billing starts; base models are always active):
 * `POST /api/ai/models/{id}/activate`. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
 * Never resent unless the service surely did not process it (429, connection refused).
 * @returns the model object (`Model`: `model_type`, `pricing`, `deployments`, ... as the service sends them), its
 * schema normalised to `request_schema` (from `request_schema` or `json_request_schema`). Its `deployments` show the
 * new status.
 * @throws NotFoundError (`Model not found: <id>`), BadRequestError, AuthenticationError, OutcomeUnknownError,
 * TimeoutError, AbortError; SDKError, before sending, when `id` is empty, `.` or `..` (or decodes to one).
 */
export function activateModel(t: Transport, id: string, options?: RequestOptions): APIPromise<Model> {
  return guarded(() =>
    APIPromise.from(
      t.request<Record<string, unknown>>(
        operationRequest(ops.modelsActivate, { id }, { expect: modelObject }),
        options,
      ),
    ).map(normaliseModel),
  );
}

/* endpoint-doc: models.deactivate */
/**
 * Deactivate an active custom model deployment, which stops its billing: `POST /api/ai/models/{id}/deactivate`.
 * `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes). Never resent unless the service
 * surely did not process it (429, connection refused).
 * @returns the model object (`Model`: `model_type`, `pricing`, `deployments`, ... as the service sends them), its
 * schema normalised to `request_schema` (from `request_schema` or `json_request_schema`). Its `deployments` show the
 * new status.
 * @throws NotFoundError (`Model not found: <id>`), BadRequestError, AuthenticationError, OutcomeUnknownError,
 * TimeoutError, AbortError; SDKError, before sending, when `id` is empty, `.` or `..` (or decodes to one).
 */
export function deactivateModel(t: Transport, id: string, options?: RequestOptions): APIPromise<Model> {
  return guarded(() =>
    APIPromise.from(
      t.request<Record<string, unknown>>(
        operationRequest(ops.modelsDeactivate, { id }, { expect: modelObject }),
        options,
      ),
    ).map(normaliseModel),
  );
}
