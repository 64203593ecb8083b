/**
 * `client.models`: the models catalog over a `Transport` (the light functions of `endpoints.ts`, loaded with
 * `import()` by the first call, so that a page of a `Client` that never calls `models.*` does not carry them;
 * should the module not load, that call rejects with the loader's error).
 */
import { APIPromise } from '../api-promise.ts';
import type { RequestOptions } from '../scope.ts';
import type { Transport } from '../transport.ts';
import type { Model, ModelList, ModelListParams, ModelRetrieveParams } from './types.ts';

const load = () => import('./endpoints.ts');

/** The models catalog: list, search, details (with the request schema), activation of custom deployments. */
export class Models {
  constructor(private readonly t: Transport) {}

  /* endpoint-doc: models.list */
  /**
   * List the catalog of models, optionally of one developer (`developer_name`, e.g. `openai`) or fine-tuning action
   * (`action`, a `script_type`): `GET /api/ai/models`. The items carry `request_schema: null`: a model's schema comes
   * from `models.retrieve`. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
   * @returns `{ object: 'list', data: Model[] }`.
   * @throws AuthenticationError, InvalidResponseError (a body without a `data` array), TimeoutError, AbortError,
   * ConnectionError.
   */
  list(params: ModelListParams = {}, options?: RequestOptions): APIPromise<ModelList> {
    return APIPromise.after(load(), (m) => m.listModels(this.t, params, options));
  }

  /* endpoint-doc: models.search */
  /**
   * Search the catalog of models by name: `GET /api/ai/models/search`. The items carry `request_schema: null`: a
   * model's schema comes from `models.retrieve`. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10
   * minutes).
   * @returns `{ object: 'list', data: Model[] }`, the models whose name matches.
   * @throws AuthenticationError, BadRequestError, InvalidResponseError (a body without a `data` array), TimeoutError,
   * AbortError, ConnectionError.
   */
  search(search: string, options?: RequestOptions): APIPromise<ModelList> {
    return APIPromise.after(load(), (m) => m.searchModels(this.t, search, options));
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
  retrieve(id: string, params: ModelRetrieveParams = {}, options?: RequestOptions): APIPromise<Model> {
    return APIPromise.after(load(), (m) => m.retrieveModel(this.t, id, params, options));
  }

  /* endpoint-doc: models.activate */
  /**
   * Activate an inactive custom model deployment (billing starts; base models are always active):
   * `POST /api/ai/models/{id}/activate`. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10
   * minutes). Never resent unless the service surely did not process it (429, connection refused).
   * @returns the model object (`Model`: `model_type`, `pricing`, `deployments`, ... as the service sends them), its
   * schema normalised to `request_schema` (from `request_schema` or `json_request_schema`). Its `deployments` show the
   * new status.
   * @throws NotFoundError (`Model not found: <id>`), BadRequestError, AuthenticationError, OutcomeUnknownError,
   * TimeoutError, AbortError; SDKError, before sending, when `id` is empty, `.` or `..` (or decodes to one).
   */
  activate(id: string, options?: RequestOptions): APIPromise<Model> {
    return APIPromise.after(load(), (m) => m.activateModel(this.t, id, options));
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
  deactivate(id: string, options?: RequestOptions): APIPromise<Model> {
    return APIPromise.after(load(), (m) => m.deactivateModel(this.t, id, options));
  }
}
