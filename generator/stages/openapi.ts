/**
 * Part of stage 6 (emit): `generated/openapi.ts`, openapi-typescript's types of the fixed endpoints.
 * Its own entry point (`oxen-inference-sdk/openapi`), not re-exported by the index, so that a
 * consumer's compile does not load the description's types with the client's. Built on the calling
 * thread, without a cache: a worker thread and a cache in `.tmp/` were re-measured to save under
 * 20% of the runs they served (docs/design-decisions.md, "Run machinery, re-measured").
 */
import type { OpenApiDoc } from './load.ts';
import { loadOpenapiTypescript } from '../libraries.ts';

/**
 * The body of `generated/openapi.ts`: openapi-typescript's types of the description (unformatted).
 * @throws Error naming `file` when openapi-typescript fails.
 */
export async function openapiModule(doc: OpenApiDoc, file: string): Promise<string> {
  const { default: openapiTS, astToString } = loadOpenapiTypescript();
  try {
    // a copy: openapi-typescript writes into the document, which load froze;
    // defaultNonNullable: false keeps request properties that have a default optional
    return astToString(await openapiTS(structuredClone(doc) as never, { silent: true, defaultNonNullable: false }));
  } catch (err) {
    throw new Error(`openapi-typescript failed on ${file}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
}
