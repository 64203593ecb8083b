/**
 * Type tests of the generated models' Standard Schema objects (`<camel>QueueSchema`) against the
 * published interfaces of `@standard-schema/spec`. Never run: compiled by `tsc --noEmit` with the
 * project (test/generator/typecheck.test.ts) and under the strictest flags
 * (test/types/tsconfig.strict.json, in the same file). Each negative case carries
 * `@ts-expect-error`, so the compile fails both when it stops being an error and when a positive
 * case breaks.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1, StandardTypedV1 } from '@standard-schema/spec';
import { expectTypeOf } from 'vitest';
import type { StandardQueueSchema } from 'oxen-inference-sdk/runtime';
import { flux2ProQueueSchema, type Flux2ProQueueParams } from 'oxen-inference-sdk/models/flux-2-pro';
import {
  bytedanceSeedance20TextToVideoQueueSchema,
  type BytedanceSeedance20TextToVideoQueueParams,
} from 'oxen-inference-sdk/models/bytedance-seedance-2-0-text-to-video';

// The inferred input and output are the parameters of `<camel>Enqueue` / `<camel>Run`, exactly.
expectTypeOf<StandardSchemaV1.InferInput<typeof flux2ProQueueSchema>>().toEqualTypeOf<Flux2ProQueueParams>();
expectTypeOf<StandardSchemaV1.InferOutput<typeof flux2ProQueueSchema>>().toEqualTypeOf<Flux2ProQueueParams>();
expectTypeOf<StandardJSONSchemaV1.InferInput<typeof flux2ProQueueSchema>>().toEqualTypeOf<Flux2ProQueueParams>();
expectTypeOf<StandardTypedV1.InferOutput<typeof flux2ProQueueSchema>>().toEqualTypeOf<Flux2ProQueueParams>();
// a video model's: its parameters with `multi_prompt` (exactly one of it and `prompt`)
expectTypeOf<
  StandardSchemaV1.InferInput<typeof bytedanceSeedance20TextToVideoQueueSchema>
>().toEqualTypeOf<BytedanceSeedance20TextToVideoQueueParams>();

// Assignable to both interfaces, typed and untyped, and to their intersection (what the MCP SDK takes).
export const asSchema: StandardSchemaV1<Flux2ProQueueParams> = flux2ProQueueSchema;
export const asJsonSchema: StandardJSONSchemaV1<Flux2ProQueueParams> = flux2ProQueueSchema;
export const asAnySchema: StandardSchemaV1 = flux2ProQueueSchema;
export const asAnyJsonSchema: StandardJSONSchemaV1 = bytedanceSeedance20TextToVideoQueueSchema;
export const asBoth: { readonly '~standard': StandardSchemaV1.Props & StandardJSONSchemaV1.Props } =
  flux2ProQueueSchema;
expectTypeOf(flux2ProQueueSchema).toEqualTypeOf<StandardQueueSchema<Flux2ProQueueParams>>();
// @ts-expect-error -- another model's parameters are not this schema's
export const wrongParams: StandardSchemaV1<BytedanceSeedance20TextToVideoQueueParams> = flux2ProQueueSchema;

export function useIt(value: unknown): void {
  const std = flux2ProQueueSchema['~standard'];
  expectTypeOf(std.version).toEqualTypeOf<1>();
  // validate is synchronous: the result is not a promise
  const result = std.validate(value);
  expectTypeOf(result).toEqualTypeOf<StandardSchemaV1.Result<Flux2ProQueueParams>>();
  // @ts-expect-error -- not a promise
  void result.then;
  if (result.issues) {
    expectTypeOf(result.issues[0]!.message).toEqualTypeOf<string>();
    expectTypeOf(result.issues[0]!.path).toEqualTypeOf<
      ReadonlyArray<PropertyKey | StandardSchemaV1.PathSegment> | undefined
    >();
  } else {
    expectTypeOf(result.value).toEqualTypeOf<Flux2ProQueueParams>();
    // the value types the per-model parameters: a wrong enum value is an error
    // @ts-expect-error -- not one of the model's aspect ratios
    result.value.aspect_ratio = '2:1';
  }
  expectTypeOf(std.jsonSchema.input({ target: 'draft-07' })).toEqualTypeOf<Record<string, unknown>>();
  expectTypeOf(std.jsonSchema.output({ target: 'draft-2020-12' })).toEqualTypeOf<Record<string, unknown>>();
}
