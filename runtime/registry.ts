/**
 * The model map the client is generic over, and the request-body types built from it.
 *
 * The runtime knows no model: `generated/index.ts` defines a `Registry` from the snapshot
 * (`ModelParams`, the per-endpoint id unions and each model's request bodies) and specialises
 * `Client` with it. Without it (`UntypedRegistry`) every model id and parameter is accepted: the
 * escape hatch for a model newer than the snapshot.
 *
 * A call's body is looked up by its `model` in per-model entries (`RequestBody`), which the
 * generator writes out one per model, so that the compiler resolves only the entries a program
 * names. The methods take the map of entries as a type parameter `B` of their own, unconstrained,
 * defaulting to the registry's and inferred from nothing: while TypeScript infers `model`, it
 * types the object literal against `B[M & keyof B]` with `M` unresolved, and reads each property's
 * contextual type from its constraint. With the registry's map there that is the union of the
 * entries of every id the endpoint serves (each `VideoParams` and `OwnParams` resolved): the cost
 * of every call grew with the catalog. With an unconstrained `B` it is nothing; once `M` is
 * inferred, `B` is the registry's map and the body is checked against `M`'s entry alone, with the
 * same errors.
 */
import type { ChatCompletionParams, MultiPromptShot, ResponseFormat } from './types.ts';

/** What the client needs to know about the models, at the type level. */
export interface Registry {
  /** Model id -> that model's own parameters (from its request schema). */
  params: object;
  /**
   * Model id -> the body of its media requests (`images.generate` and `images.edit`, or
   * `videos.generate` for a video model) without `model` and `response_format`: its parameters (a
   * video model's with `multi_prompt`, `VideoParams`) and the SDK fields they do not declare, as
   * `OwnParams<P, SdkFields>` gives them.
   */
  mediaBodies: object;
  /**
   * Model id -> the body of its queue requests (`queue.enqueue`, `queue.run`) without `model` and
   * `response_format`: as `OwnParams<P, QueueFields>` gives it (a video model's `P` with `multi_prompt`).
   */
  queueBodies: object;
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
  mediaBodies: Record<string, OwnParams<Record<string, unknown>, SdkFields>>;
  queueBodies: Record<string, OwnParams<Record<string, unknown>, QueueFields>>;
  imageGenerate: string;
  imageEdit: string;
  video: string;
  queue: string;
  chat: string;
}

/**
 * A request body for model `M` from a map of per-model entries `B` (`Registry['mediaBodies']` or
 * `['queueBodies']`): `model`, `response_format` (generic `F`, so that results can be typed by it)
 * and `M`'s entry. Closed: an unknown property is a type error. For a model of the map, the same
 * type as `MediaBody` (media) and `QueueBody` (queue) give.
 */
export type RequestBody<B, M extends string, F extends ResponseFormat> = { model: M } & {
  response_format?: F;
} & B[M & keyof B];

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
export type MediaBody<P, M extends string, F extends ResponseFormat, X = SdkFields> = { model: M } & MediaParams<
  P,
  F,
  X
>;

/** `MediaBody` without `model`: what a per-model endpoint function takes (it sets `model` itself). */
export type MediaParams<P, F extends ResponseFormat, X = SdkFields> = { response_format?: F } & OwnParams<P, X>;

/** The SDK fields `X` the model's parameters `P` do not declare, then `P`; distributed over a union `P` (e.g. `VideoParams`). */
export type OwnParams<P, X> = P extends unknown
  ? Omit<X, keyof P | 'response_format'> & Omit<P, 'response_format'>
  : never;

/**
 * The parameters of a video model with the endpoint's `multi_prompt` (items `{ prompt, duration }`,
 * one per shot): exactly one of `prompt` and `multi_prompt`, as the description states for
 * `POST /api/ai/videos/generate` (and the queue, which passes them to the model). A schema that
 * requires `prompt` means "one of the two"; one where `prompt` is optional allows neither but not
 * both. Unchanged when the schema declares `multi_prompt` itself (the schema wins) or takes no
 * `prompt` (e.g. an upscaler).
 */
export type VideoParams<P> = 'multi_prompt' extends keyof P
  ? P
  : 'prompt' extends keyof P
    ? Omit<P, 'prompt'> &
        ((Pick<P, 'prompt'> & { multi_prompt?: never }) | { prompt?: never; multi_prompt: MultiPromptShot[] })
    : P;

/** A chat request body for model `M`: `model` and the chat parameters (`stream` a boolean known at run time). */
export type ChatBody<M extends string> = { model: M } & ChatCompletionParams;
