/**
 * The JSON Schemas of the load stage's checks (`load.ts`) and ajv's options for them: the source of
 * their validators' code, `check-validators.mjs`, which `scripts/compile-ahead.ts` generates with
 * ajv's standalone code so that a run does not compile them (draft-07's meta-schema alone was about
 * 0.05 s of every run that checks models). Their schemas are constants here (a model's schema is only
 * ever their data), so they are not checked against a meta-schema (`validateSchema: false`) and no
 * meta-schema is added (`meta: false`). Every error is kept (`allErrors`); formats are not checked.
 */
import { createRequire } from 'node:module';

/** JSON Schema of a model-details object, as far as the generator depends on it. Other fields are allowed (the description does not show them). */
export const MODEL_OBJECT_SCHEMA = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string', minLength: 1 },
    // null where the service has none (today's catalog shows `description: null` for custom models)
    display_name: { type: ['string', 'null'] },
    description: { type: ['string', 'null'] },
    endpoint: { type: 'string' },
    capabilities: {
      type: 'object',
      properties: {
        input: { type: 'array', items: { type: 'string' } },
        output: { type: 'array', items: { type: 'string' } },
      },
    },
    request_schema: { type: ['object', 'null'] },
    json_request_schema: { type: ['object', 'null'] },
  },
} as const;

/** What the generator needs of a request schema: an object schema whose properties are schemas. */
export const REQUEST_SCHEMA_SHAPE = {
  type: 'object',
  properties: {
    type: { const: 'object' },
    properties: { type: 'object', additionalProperties: { type: ['object', 'boolean'] } },
    required: { type: 'array', items: { type: 'string' } },
  },
} as const;

/** What the generator needs of the API description. */
export const OPENAPI_SHAPE = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.' },
    info: { type: 'object', required: ['title', 'version'] },
    paths: { type: 'object', minProperties: 1 },
  },
} as const;

/**
 * The draft-07 meta-schema without `uniqueItems` on `enum`: ajv checks that pairwise (quadratic in
 * the enum's length for values of any type); `checkSupported` (`schema-check.ts`) checks it in linear
 * time instead.
 */
export function draft07(): Record<string, unknown> {
  const meta = structuredClone(
    createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-07.json') as Record<string, unknown>,
  );
  const props = meta['properties'] as Record<string, Record<string, unknown>>;
  delete props['enum']!['uniqueItems'];
  meta['$id'] = 'https://oxen-inference-sdk.invalid/draft-07-enum-checked-apart';
  return meta;
}

/** The checks' schemas by the name of their validator in `check-validators.mjs`. */
export function checkSchemas(): Record<'modelObject' | 'requestSchemaShape' | 'openapiShape' | 'draft07', object> {
  return {
    modelObject: MODEL_OBJECT_SCHEMA,
    requestSchemaShape: REQUEST_SCHEMA_SHAPE,
    openapiShape: OPENAPI_SHAPE,
    draft07: draft07(),
  };
}

/** ajv's options for the checks' validators. */
export const CHECK_AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  validateSchema: false,
  validateFormats: false,
  meta: false,
} as const;
