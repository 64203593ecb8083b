/**
 * ajv's standalone code for one validator (stage 6a): the one compile step (`validators.ts`
 * `compileHere`). Plain JavaScript without side effects.
 *
 * The options are data: ajv's options, plus `helperFormats`, the formats
 * checked by a function of the SDK's `validator-support` instead of a regular expression (see
 * `validators.ts` `HELPER_FORMATS`). ajv gets a stand-in function for each (never called: only the
 * code is kept) and `code.formats`, so that its code names the format as
 * `require("<HELPER_MODULE>").<format>`, which `validators.ts` turns into an import of the helper.
 * ajv is loaded with `require` on first use (see `generator/libraries.ts` for why not `import`).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The module that ajv's code requires helper formats from (a name `validators.ts` replaces; never loaded). */
export const HELPER_MODULE = 'validator-support/formats';

let ajv;

/** The standalone code (an ES module's text) of a validator for `schema`. @throws what ajv throws. */
export function compileStandalone(schema, { helperFormats = [], ...options }) {
  if (!ajv) {
    const { Ajv, _ } = require('ajv');
    ajv = { Ajv, _, standalone: require('ajv/dist/standalone').default };
  }
  const formats = { ...options.formats };
  for (const name of helperFormats) formats[name] = standIn;
  const code = { ...options.code, ...(helperFormats.length > 0 ? { formats: ajv._`require(${HELPER_MODULE})` } : {}) };
  const instance = new ajv.Ajv({ ...options, formats, code });
  return ajv.standalone(instance, instance.compile(schema));
}

function standIn() {
  throw new Error('a helper format is checked by the SDK at run time, not here');
}
