/**
 * The load stage's checks run ajv's code generated ahead (generator/stages/check-validators.mjs):
 * the committed file is what scripts/check-validators.ts makes from the schemas with the installed ajv,
 * and its validators give what ajv compiling the same schemas at run time gives (verdict and errors).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import * as checks from '../../generator/stages/check-validators.mjs';
import { CHECK_AJV_OPTIONS, checkSchemas } from '../../generator/stages/check-schemas.ts';
import { CHECK_VALIDATORS_FILE, checkValidatorsModule } from '../../scripts/check-validators.ts';
import { REPO_ROOT } from '../support/index.ts';

describe('the checks compiled ahead', () => {
  test(`${CHECK_VALIDATORS_FILE} is what scripts/check-validators.ts makes (run it after changing generator/stages/check-schemas.ts or ajv)`, () => {
    expect(readFileSync(path.join(REPO_ROOT, CHECK_VALIDATORS_FILE), 'utf8')).toBe(checkValidatorsModule());
  });

  const samples: unknown[] = [
    {},
    null,
    [],
    'text',
    { id: '' },
    { id: 'a', display_name: 3, capabilities: { input: [1], output: 'x' } },
    { id: 'a', request_schema: { type: 'object', properties: { p: { type: 'strng' } } } },
    { type: 'object', properties: { a: { type: 'integer', minimum: 'x', enum: 'no' } }, required: [1] },
    { type: 'array', items: [{ $ref: 3 }], additionalItems: 'no', definitions: { d: { const: 1 } } },
    { type: 'string', pattern: 3, format: 7, dependencies: { a: 'b' }, allOf: [] },
    { type: 'object', properties: [], required: 'a' },
    { openapi: '3.0.0', info: {}, paths: {} },
    { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/a': {} } },
  ];
  test.each(Object.entries(checkSchemas()))(
    '%s: the same verdict and errors as ajv compiling it now',
    (name, schema) => {
      const ajv = new Ajv({ ...CHECK_AJV_OPTIONS, code: { optimize: false } });
      const compiled = ajv.compile(schema);
      const ahead = checks[name as keyof typeof checks];
      for (const data of samples) {
        expect(ahead(data), JSON.stringify(data)).toBe(compiled(data));
        expect(ahead.errors ?? null).toEqual(compiled.errors ?? null);
      }
    },
  );
});
