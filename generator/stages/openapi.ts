/**
 * Part of stage 6 (emit): `generated/openapi.ts`, openapi-typescript's types of the fixed endpoints.
 * Its own entry point (`oxen-inference-sdk/openapi`), not re-exported by the index, so that a
 * consumer's compile does not load the description's types with the client's. Built on the calling
 * thread, without a cache: a worker thread and a cache in `.tmp/` were re-measured to save under
 * 20% of the runs they served (docs/design-decisions.md, "Run machinery, re-measured").
 */
import type { OpenApiDoc } from './load.ts';
import type { ts as TS } from 'ts-morph';
import { loadOpenapiTypescript, openapiTypescriptTs } from '../libraries.ts';
import { layoutModule, NotLaidOut, type LaidOut } from './layout.ts';

/**
 * The body of `generated/openapi.ts`: openapi-typescript's types of the description (unformatted;
 * with `layOut`, in prettier's layout where `layout.ts` covers it: `LaidOut`).
 * @throws Error naming `file` when openapi-typescript fails.
 */
export async function openapiModule(doc: OpenApiDoc, file: string, layOut = false): Promise<string | LaidOut> {
  const { default: openapiTS, astToString } = loadOpenapiTypescript();
  try {
    // a copy: openapi-typescript writes into the document, which load froze;
    // defaultNonNullable: false keeps request properties that have a default optional
    const nodes = await openapiTS(structuredClone(doc) as never, { silent: true, defaultNonNullable: false });
    // its statements, printed one after the other, in prettier's layout where layout.ts covers them
    const ts = openapiTypescriptTs();
    if (layOut && ts)
      try {
        return { laidOut: layoutModule(ts, [nodes as unknown as TS.Statement[]]) };
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
