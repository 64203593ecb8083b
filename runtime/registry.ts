/**
 * The model map the client is generic over, and the request-body types built from it.
 *
 * The runtime knows no model: `generated/index.ts` defines a `Registry` from the snapshot
 * (`ModelParams` and the per-endpoint id unions) and specialises `Client` with it. Without it
 * (`UntypedRegistry`) every model id and parameter is accepted: the escape hatch for a model newer
 * than the snapshot.
 */
import type { ChatCompletionParams, MultiPromptShot, ResponseFormat } from './types.ts';

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
