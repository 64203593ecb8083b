/**
 * The model map the client is generic over, and the request-body types built from it.
 *
 * The runtime knows no model: `generated/index.ts` defines a `Registry` from the snapshot
 * (`ModelParams` and the per-endpoint id unions) and specialises `Client` with it. Without it
 * (`UntypedRegistry`) every model id and parameter is accepted: the escape hatch for a model newer
 * than the snapshot.
 */
import type { ChatCompletionParams, ResponseFormat } from './types.ts';

/** What the client needs to know about the models, at the type level. */
export interface Registry {
  /** Model id -> that model's own parameters (from its request schema). */
  params: object;
  /** Ids served by `images.generate`. */
  imageGenerate: string;
  /** Ids served by `images.edit`. */
  imageEdit: string;
  /** Ids served by `videos.generate`. */
  video: string;
  /** Ids accepted by the queue (image and video models). */
  queue: string;
  /** Ids served by `chat.completions.create`. */
  chat: string;
}

/** The registry of no snapshot: any id, any parameters. Used by `client.untyped`. */
export interface UntypedRegistry {
  params: Record<string, Record<string, unknown>>;
  imageGenerate: string;
  imageEdit: string;
  video: string;
  queue: string;
  chat: string;
}

/** The parameters of model `M` in registry `R`. */
export type ParamsOf<R extends Registry, M> = R['params'][M & keyof R['params']];

/** Fields added to every media request; a model's own schema overrides one of the same name. */
export interface SdkFields {
  /** Save and bill namespace (a user or organization); default the authenticated user. */
  target_namespace?: string;
}

/** Fields added to queue requests. */
export interface QueueFields extends SdkFields {
  /** Number of parallel generations, 1 to 4; default 1. */
  num_generations?: number;
}

/**
 * A request body for model `M`: `model`, `response_format` (generic `F`, so that results can be
 * typed by it) and the SDK fields, then the model's own parameters `P`, which win over an SDK
 * field of the same name — except `response_format`, which is always the SDK's
 * (`'url' | 'b64_json'`, as the description defines it for every media endpoint): TypeScript can
 * infer `F` only from a property that is not under a conditional type. Closed: an unknown property
 * is a type error.
 */
export type MediaBody<P, M extends string, F extends ResponseFormat, X = SdkFields> = { model: M } & MediaParams<P, F, X>;

/** `MediaBody` without `model`: what a per-model endpoint function takes (it sets `model` itself). */
export type MediaParams<P, F extends ResponseFormat, X = SdkFields> = { response_format?: F } & Omit<X, keyof P | 'response_format'> & Omit<P, 'response_format'>;

/** A chat request body for model `M`. */
export type ChatBody<M extends string> = { model: M } & ChatCompletionParams;
