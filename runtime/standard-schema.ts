/**
 * The generated models' request schemas as Standard Schema objects (https://standardschema.dev):
 * `StandardSchemaV1` (`~standard.validate`) and `StandardJSONSchemaV1` (`~standard.jsonSchema`),
 * so that a model's schema can be handed to libraries that accept either (the Vercel AI SDK's
 * `tool({ inputSchema })`, the MCP TypeScript SDK's `registerTool`, form and route validators).
 *
 * Validation runs the model's validator compiled at generate time (`generated/validators/<id>.ts`),
 * the one `queue.enqueue` runs: no validator library, no code evaluated from strings. The JSON
 * Schema is data the generator wrote beside it; each call returns a fresh copy (consumers such as
 * the AI SDK edit the schema they are given).
 *
 * The interfaces come from `@standard-schema/spec` as types only: nothing of it is imported at run time.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { SDKError } from './errors.ts';
import { ValidationError } from './validation-error.ts';
import { checkRequest, type CompiledValidator } from './validation.ts';

/** The `~standard.vendor` of every schema object of this SDK. */
export const STANDARD_SCHEMA_VENDOR = 'oxen-inference-sdk';

/** The `$schema` of each JSON Schema target a `StandardQueueSchema` converts to. */
const META_SCHEMAS = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  'draft-2020-12': 'https://json-schema.org/draft/2020-12/schema',
} as const;

/**
 * A model's queue request body schema, as `StandardSchemaV1` and `StandardJSONSchemaV1` of
 * `Params` (the model's `<Pascal>QueueParams`), input and output alike: validation neither
 * coerces nor fills defaults, and a valid value is returned as it was given.
 *
 * - `~standard.validate(value)` is synchronous: `{ value }`, or `{ issues }`, each issue with a
 *   `message` (`is required`, `must be one of "1:1", "16:9"`, ...; the same as `ValidationError`'s
 *   issues) and a `path` (the JSON pointer split into keys, array indexes as numbers; `[]` for the
 *   body itself).
 * - `~standard.jsonSchema.input({ target })` and `.output({ target })` (the same schema) return the
 *   JSON Schema the validator was compiled from, with the model's annotations (`description`,
 *   `default`, ...) kept, for `target` `'draft-07'` (the models' own draft) or `'draft-2020-12'`,
 *   with its `$schema` set; a fresh copy on each call.
 */
export interface StandardQueueSchema<Params> extends StandardSchemaV1<Params>, StandardJSONSchemaV1<Params> {
  /** The Standard Schema and Standard JSON Schema properties (`version` 1, `vendor`, `validate`, `jsonSchema`; `types` for inference only, absent at run time). */
  readonly '~standard': Omit<StandardSchemaV1.Props<Params>, 'validate'> &
    StandardJSONSchemaV1.Props<Params> & {
      /** Validates a value: synchronous, never a promise. */
      readonly validate: (value: unknown, options?: StandardSchemaV1.Options) => StandardSchemaV1.Result<Params>;
    };
}

/** An RFC 6901 pointer as path keys: the index of an array as a number, every other key as a string. */
function pathOf(pointer: string, value: unknown): PropertyKey[] {
  if (pointer === '') return [];
  const path: PropertyKey[] = [];
  let node = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const index = Array.isArray(node) && /^(?:0|[1-9]\d*)$/.test(key) ? Number(key) : undefined;
    path.push(index ?? key);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return path;
}

/**
 * A model's `StandardQueueSchema` (`<camel>QueueSchema` of a generated model module; generated
 * code calls this, one line per model).
 * @param validate The model's compiled validator (`generated/validators/<id>.ts`).
 * @param schema The JSON Schema `validate` was compiled from (draft-07, annotations kept), as data
 * that no one else holds.
 * @param model The model id, named in the error of an unsupported target.
 * @param schema2020 The same schema in draft 2020-12, when it differs from `schema` other than in
 * `$schema` (`definitions`, tuple `items`, `additionalItems` or `dependencies`); else `schema` is used.
 * @returns The schema object; its `jsonSchema.input` and `.output` throw `SDKError` for a target
 * other than `'draft-07'` and `'draft-2020-12'` (as the Standard JSON Schema spec asks).
 */
export function standardSchemaFor<Params>(
  validate: CompiledValidator,
  schema: Record<string, unknown>,
  model: string,
  schema2020?: Record<string, unknown>,
): StandardQueueSchema<Params> {
  const convert = (options: StandardJSONSchemaV1.Options): Record<string, unknown> => {
    const target = options?.target;
    const meta = Object.hasOwn(META_SCHEMAS, target) ? META_SCHEMAS[target as keyof typeof META_SCHEMAS] : undefined;
    if (meta === undefined)
      throw new SDKError(
        `The JSON Schema of model ${model} is available for targets "draft-07" and "draft-2020-12", not ${JSON.stringify(target)}`,
      );
    const source = target === 'draft-2020-12' && schema2020 ? schema2020 : schema;
    return { $schema: meta, ...structuredClone(source) };
  };
  return {
    '~standard': {
      version: 1,
      vendor: STANDARD_SCHEMA_VENDOR,
      validate: (value) => {
        try {
          checkRequest(model, value, validate);
        } catch (err) {
          if (!(err instanceof ValidationError)) throw err;
          return { issues: err.issues.map((i) => ({ message: i.message, path: pathOf(i.pointer, value) })) };
        }
        return { value: value as Params };
      },
      jsonSchema: { input: convert, output: convert },
    },
  };
}
