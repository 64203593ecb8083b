/**
 * The model object and the catalog's shapes (`GET /api/ai/models`, `/search`, `/{id}`,
 * `/{id}/activate`, `/{id}/deactivate`), as the service's docs show them today
 * (`inference-api/reference/models/overview.mdx` in `Oxen-AI/docs`; the API description 0.224.2
 * shows only the request schema). Every field but `id` and the normalised `request_schema` is
 * optional (a model object of 0.224.2 may lack them), every object is open to new fields, and
 * enumerated values are widened with `(string & {})` so that new values from the service type-check.
 * Kept equal to `components.schemas` of `specs/openapi.yaml` by `test/types/openapi-compat.types.ts`.
 */

/** Input and output modalities of a model, e.g. `input: ['text', 'image']`, `output: ['text']`. */
export interface ModelCapabilities {
  /** What the model takes: `text`, `image`, `video`, `audio`, ... */
  input?: string[];
  /** What the model produces: `text`, `image`, `video`, ... */
  output?: string[];
  [key: string]: unknown;
}

/**
 * How a model is billed (`method`) and its costs, in the service's billing unit. Which costs are
 * present depends on `method`; absent and null both mean "not billed that way".
 */
export interface ModelPricing {
  method?: 'token' | 'time' | 'per_image' | 'per_video_output_second' | (string & {});
  /** Cost per input token (token-billed models). */
  input_cost_per_token?: number | null;
  /** Cost per output token (token-billed models). */
  output_cost_per_token?: number | null;
  /** Cost per second (time-billed models; per output second for video). */
  cost_per_second?: number | null;
  /** Fixed cost per image (image models). */
  cost_per_image?: number | null;
  /** High-resolution video cost per second. */
  cost_per_second_high_res?: number | null;
  /** Video with audio cost per second. */
  cost_per_second_with_audio?: number | null;
  [key: string]: unknown;
}

/** How a model can be fine-tuned: its `actions` (fine-tune `script_type`s) and cost. */
export interface ModelFineTuning {
  actions?: string[];
  /** Cost per second of fine-tuning. */
  cost_per_second?: number | null;
  [key: string]: unknown;
}

/** The status of a custom model's deployment; the service may add values. */
export type ModelDeploymentStatus =
  'active' | 'inactive' | 'deploying' | 'deactivating' | 'error' | 'unknown' | (string & {});

/** One deployment of a custom model. Fields other than `status` are not shown by the docs. */
export interface ModelDeployment {
  /** `active` (callable, billed), `inactive`, or a state in between (`deploying`, `deactivating`), `error`, `unknown`. */
  status?: ModelDeploymentStatus;
  [key: string]: unknown;
}

/** The developer of a model. */
export interface ModelDeveloper {
  /** Display name, e.g. `Anthropic` (the `developer_name` filter takes the lower-case form, e.g. `anthropic`). */
  name?: string;
  /** URL of the developer's logo. */
  logo?: string | null;
  [key: string]: unknown;
}

/**
 * A model object: the answer of `models.retrieve` (and `activate`, `deactivate`), an item of
 * `models.list` and `models.search`. Its request schema is normalised to `request_schema` (the
 * service uses `request_schema` or `json_request_schema`); the catalog's items carry null there.
 */
export interface Model {
  /** The model id of requests' `model` field; a deployed fine-tune's is its `oxen:` slug. */
  id: string;
  /** Always `model`. */
  object?: 'model' | (string & {});
  /** Unix timestamp in seconds when the model was registered. */
  created?: number;
  /** `oxen` for base models, the owner namespace for custom models. */
  owned_by?: string;
  /** Human-readable name. */
  display_name?: string;
  /** Full description. */
  description?: string | null;
  /** Brief summary. */
  summary?: string | null;
  /** `base`, or `custom` for a deployed fine-tune. */
  model_type?: 'base' | 'custom' | (string & {});
  /** The path the model is served on, relative to `/api/ai`, e.g. `/images/edit`. */
  endpoint?: string;
  /** Input and output modalities. */
  capabilities?: ModelCapabilities;
  /** How the model is billed. */
  pricing?: ModelPricing;
  /** How the model can be fine-tuned, or null when it cannot. */
  fine_tuning?: ModelFineTuning | null;
  /** The deployments of a custom model; empty for base models. */
  deployments?: ModelDeployment[];
  /** Who developed the model. */
  developer?: ModelDeveloper | null;
  /** The base model a custom model was fine-tuned from. */
  source_model?: string | null;
  /** URL of an image of the model. */
  image_url?: string | null;
  /** Release time, an ISO 8601 date-time string. */
  released_at?: string | null;
  /** The model's request schema (a JSON Schema object), or null (chat models take the standard chat body; catalog items). */
  request_schema: Record<string, unknown> | null;
  [key: string]: unknown;
}

/** The catalog's list (`models.list`, `models.search`), in the OpenAI-style shape. */
export interface ModelList {
  /** Always `list`. */
  object: 'list' | (string & {});
  /** The models, each with `request_schema: null` (`models.retrieve` gives a model's schema). */
  data: Model[];
  [key: string]: unknown;
}

/** Query of `models.list` (`GET /api/ai/models`). */
export interface ModelListParams {
  /** Only models of this developer, e.g. `openai`, `anthropic`, `google`. */
  developer_name?: string | undefined;
  /** Only models that can be fine-tuned with this action (a fine-tune `script_type`, e.g. `image_editing`). */
  action?: string | undefined;
}

/** Query of `models.retrieve` (`GET /api/ai/models/{id}`). */
export interface ModelRetrieveParams {
  /** `'live'`: the service refreshes a custom deployment's status from its provider before answering. */
  deployment_status?: 'live' | (string & {}) | undefined;
}
