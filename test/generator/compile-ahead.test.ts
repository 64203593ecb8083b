/**
 * The generator's modules compiled ahead (scripts/compile-ahead.ts): each committed file is what the
 * script makes with the installed ajv and handlebars; the load stage's checks
 * (generator/stages/check-validators.mjs) give what ajv compiling the same schemas at run time gives
 * (verdict and errors), and the precompiled header (generator/stages/header-template.mjs) renders what
 * handlebars compiling templates/header.hbs renders.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import Handlebars from 'handlebars';
import { describe, expect, test } from 'vitest';
import * as checks from '../../generator/stages/check-validators.mjs';
import { CHECK_AJV_OPTIONS, checkSchemas } from '../../generator/stages/check-schemas.ts';
import { header, loadTemplates } from '../../generator/stages/templates.ts';
import { packageTarget } from '../../generator/output/target.ts';
import { AHEAD } from '../../scripts/compile-ahead.ts';
import { REPO_ROOT } from '../support/index.ts';

describe('the modules compiled ahead', () => {
  test.each(Object.entries(AHEAD))(
    '%s is what scripts/compile-ahead.ts makes (run it after changing its sources, ajv or handlebars)',
    (file, make) => {
      expect(readFileSync(path.join(REPO_ROOT, file), 'utf8')).toBe(make());
    },
  );

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
    'check %s: the same verdict and errors as ajv compiling it now',
    (name, schema) => {
      const compiled = new Ajv({ ...CHECK_AJV_OPTIONS, code: { optimize: false } }).compile(schema);
      const ahead = checks[name as keyof typeof checks];
      let failures = 0;
      for (const data of samples) {
        expect(ahead(data), JSON.stringify(data)).toBe(compiled(data));
        expect(ahead.errors ?? null).toEqual(compiled.errors ?? null);
        if (!compiled(data)) failures++;
      }
      expect(failures).toBeGreaterThan(2); // the samples reach the errors
    },
  );

  test('the header renders as templates/header.hbs compiled now: TypeScript and Markdown, sources with separators', async () => {
    const t = await loadTemplates(path.join(REPO_ROOT, 'templates'));
    const compiled = Handlebars.create().compile(
      readFileSync(path.join(REPO_ROOT, 'templates', 'header.hbs'), 'utf8'),
      {
        noEscape: true,
        strict: false,
      },
    );
    for (const [sources, markdown] of [
      [['specs/models/a.json'], false],
      [['specs/openapi.yaml', 'specs/models.json', 'a <b> & "c"'], false],
      [['x', 'y'], true],
    ] as const) {
      const context = { sources: [...sources], markdown, prefix: markdown ? '' : ' * ', ...packageTarget.header };
      expect(t.header(context)).toBe(compiled(context));
    }
    expect(header(t, ['a <b>'])).toContain('`a <b>`'); // not HTML-escaped
  });
});
