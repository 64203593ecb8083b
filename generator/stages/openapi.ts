/**
 * Part of stage 6 (emit): `generated/openapi.ts`, openapi-typescript's types of the fixed endpoints.
 * Its own entry point (`oxen-inference-sdk/openapi`), not re-exported by the index, so that a
 * consumer's compile does not load the description's types with the client's. Built on the calling
 * thread, without a cache: a worker thread and a cache in `.tmp/` were re-measured to save under
 * 20% of the runs they served (docs/measurements/run-machinery.md).
 *
 * openapi-typescript's transform runs without its entry (`openapiTS`), whose Redocly lint and
 * bundling cost a full run about 2 s (1.3 s of it loading Redocly) and change nothing here: the
 * description is one file (load.ts checks its shape; test/openapi.test.ts lints it with Redocly's
 * recommended rules, stricter than openapi-typescript's `minimal`), so bundling a description
 * whose `$ref`s are all local gives it back as it is. One with another `$ref`, or an
 * openapi-typescript other than the 7.x whose `openapiTS` this follows, goes through `openapiTS`.
 */
import type { OpenApiDoc } from './load.ts';
import type { ts as TS } from 'ts-morph';
import { loadOpenapiTransform, loadOpenapiTypescript, openapiTypescriptTs } from '../libraries.ts';
import { layoutModule, NotLaidOut, type LaidOut } from './layout/index.ts';

/** openapi-typescript's options here: `defaultNonNullable: false` keeps request properties that have a default optional. */
const OPTIONS = { silent: true, defaultNonNullable: false } as const;

/**
 * The body of `generated/openapi.ts`: openapi-typescript's types of the description (unformatted;
 * with `layOut`, in prettier's layout where `layout/` covers it: `LaidOut`).
 * @throws Error naming `file` when openapi-typescript fails, or two operations share an `operationId`.
 */
export async function openapiModule(doc: OpenApiDoc, file: string, layOut = false): Promise<string | LaidOut> {
  try {
    // a copy: openapi-typescript writes into the document, which load froze
    const { nodes, astToString } = await transform(structuredClone(doc) as unknown as Record<string, unknown>);
    // its statements, printed one after the other, in prettier's layout where layout/ covers them
    const ts = openapiTypescriptTs();
    if (layOut && ts)
      try {
        return { laidOut: layoutModule(ts, [nodes as TS.Statement[]]) };
      } catch (err) {
        if (!(err instanceof NotLaidOut)) throw err;
      }
    return astToString(nodes);
  } catch (err) {
    throw new Error(`openapi-typescript failed on ${file}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
}

/** openapi-typescript's nodes of `schema` (which it writes into), and its printer. */
async function transform(
  schema: Record<string, unknown>,
): Promise<{ nodes: unknown; astToString: (nodes: unknown) => string }> {
  const o = localRefsOnly(schema) ? loadOpenapiTransform() : undefined;
  if (!o || !/^7\./.test(o.version)) {
    const { default: openapiTS, astToString } = loadOpenapiTypescript();
    return { nodes: await openapiTS(schema as never, OPTIONS), astToString: astToString as (n: unknown) => string };
  }
  uniqueOperationIds(schema);
  // openapiTS's context (openapi-typescript 7.x, `dist/index.cjs`) for OPTIONS, every other option at its default
  const ctx: Record<string, unknown> = {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: OPTIONS.defaultNonNullable,
    discriminators: o.utils.scanDiscriminators(schema, OPTIONS),
    emptyObjectsUnknown: false,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    redoc: undefined,
    silent: OPTIONS.silent,
    inject: undefined,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve: ($ref: string) => o.utils.resolveRef(schema, $ref, { silent: OPTIONS.silent }),
  };
  return { nodes: o.transformSchema(schema, ctx), astToString: o.astToString };
}

/** Whether every `$ref` of `value` points into the same document (`#...`): bundling leaves such a description as it is. */
function localRefsOnly(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      stack.push(...(v as unknown[]));
      continue;
    }
    for (const [k, child] of Object.entries(v)) {
      if (k === '$ref' && (typeof child !== 'string' || !child.startsWith('#'))) return false;
      stack.push(child);
    }
  }
  return true;
}

/** The rule openapiTS raises to an error (`operation-operationId-unique`). @throws Error naming the id and both operations. */
function uniqueOperationIds(schema: Record<string, unknown>): void {
  const seen = new Map<string, string>();
  const paths = schema['paths'];
  if (typeof paths !== 'object' || paths === null) return;
  for (const [p, item] of Object.entries(paths)) {
    if (typeof item !== 'object' || item === null) continue;
    for (const [method, op] of Object.entries(item as Record<string, unknown>)) {
      const id = typeof op === 'object' && op !== null ? (op as { operationId?: unknown }).operationId : undefined;
      if (typeof id !== 'string') continue;
      const where = `${method.toUpperCase()} ${p}`;
      const before = seen.get(id);
      if (before !== undefined) throw new Error(`operationId "${id}" of ${where} is also ${before}'s`);
      seen.set(id, where);
    }
  }
}
