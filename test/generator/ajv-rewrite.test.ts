/**
 * The one text rewrite left in the generator: ajv's standalone output into a validator module's body
 * (`rewriteStandalone`, generator/stages/validators.ts). ajv's options give its module form and its
 * format code; its run-time helpers it always `require`s, so the head, the `require(...)`s and the
 * `"__proto__"` keys are rewritten. These tests pin the exact input (ajv's output for a schema that
 * needs every rewrite: a length, `uniqueItems`, the `url` helper format, a `__proto__` property) and
 * the exact output, so an ajv release that changes the shape fails here rather than in a user's build.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileHere, compileOptions, rewriteStandalone } from '../../generator/stages/validators.ts';

const dir = path.join(import.meta.dirname, 'fixtures', 'ajv-rewrite');
const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');
const schema = JSON.parse(read('schema.json')) as Record<string, unknown>;
const ajvOutput = read('ajv-output.txt');

describe("ajv's standalone output, rewritten into a validator module", () => {
  it('is, for the fixture schema, exactly the pinned input of the rewrite (a new ajv shape fails here)', async () => {
    expect(await compileHere(schema, compileOptions())).toBe(ajvOutput);
  });

  it('rewrites exactly the head, three requires and one "__proto__" key, into the pinned body', () => {
    const r = rewriteStandalone(ajvOutput);
    expect(r.counts).toEqual({ head: 1, requires: 3, protoKeys: 1 });
    expect(r.validateName).toBe('validate0');
    expect(r.imports).toEqual(['equal', 'isUrl', 'ucs2length']);
    expect(`${r.body}\n`).toBe(read('rewritten.txt'));
    for (const gone of ['require(', '"use strict"', 'export ', '{"__proto__":', ',"__proto__":'])
      expect(r.body).not.toContain(gone);
  });

  it('refuses an output whose head is not the expected one', () => {
    expect(() => rewriteStandalone(ajvOutput.replace('"use strict";\n', ''))).toThrow(/no validate function/);
    expect(() => rewriteStandalone(ajvOutput.replace('export default validate0;', 'export default other;'))).toThrow(
      /no validate function/,
    );
  });

  it('refuses a require it has no helper for, naming the module', () => {
    const other = ajvOutput.replace('require("ajv/dist/runtime/equal")', 'require("ajv/dist/runtime/uri")');
    expect(() => rewriteStandalone(other)).toThrow(/needs ajv\/dist\/runtime\/uri: not supported/);
  });
});
