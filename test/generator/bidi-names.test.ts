/**
 * Model text cannot reorder how generated code reads ("Trojan Source"): bidirectional controls are
 * escaped in every output (comments, string literals, unions, keys, validators, MODELS.md), and
 * property names that are equal after Unicode normalization or look alike are refused with a
 * SpecError naming both.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SpecError } from '../../generator/errors.ts';
import {
  commentText,
  escapeBidiInCode,
  markdownCell,
  markdownCode,
  markdownText,
  stringLiteral,
} from '../../generator/escape.ts';
import { generate } from '../../generator/index.ts';
import { checkModel } from '../../generator/stages/load.ts';
import { fixtureModel, tempSpecs, type TempSpecs } from './helpers.ts';

let temps: TempSpecs[] = [];
afterEach(async () => {
  await Promise.all(temps.map((t) => t.cleanup()));
  temps = [];
});

const CONTROLS = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
];
const RAW = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

describe('escape.ts: no raw bidirectional control in any form', () => {
  it.each(CONTROLS.map((c) => [c.codePointAt(0)!.toString(16)]))('U+%s', (hex) => {
    const c = String.fromCodePoint(parseInt(hex, 16));
    const text = `a${c}b`;
    for (const out of [
      stringLiteral(text),
      commentText(text),
      markdownText(text),
      markdownCell(text),
      markdownCode(text),
      escapeBidiInCode(`"${text}"`),
    ])
      expect(out).not.toMatch(RAW);
    expect(JSON.parse(stringLiteral(text))).toBe(text); // still the same string
    expect(commentText(text)).toBe(`a<U+${hex.toUpperCase().padStart(4, '0')}>b`);
  });
});

describe('a model whose text carries bidi controls', () => {
  it(
    'generates files without a raw control: description, display name, enum values, property names, defaults, patterns',
    { timeout: 120_000 },
    async () => {
      const evil = 'ok\u202E }; alert(1); //\u2066\u2069';
      const model = fixtureModel(
        'bidi-model',
        {
          type: 'object',
          properties: {
            prompt: { type: 'string', description: `prompt ${evil}`, default: `d ${evil}`, pattern: '^[^\u202E]*$' },
            [`name${'\u2067'}x`]: { type: 'string', enum: [`v ${evil}`, 'plain'] },
          },
          required: ['prompt'],
        },
        { display_name: `Bidi ${evil}`, description: `A model ${evil}`, endpoint: '/images/generate' },
      );
      const t = await tempSpecs([], { 'bidi-model': model });
      temps.push(t);
      const r = await generate({ specsDir: t.specsDir, outRoot: t.root });
      expect(r.files.size).toBeGreaterThan(3);
      expect(r.files.has('generated/validators/bidi-model.ts')).toBe(true);
      for (const [file, text] of r.files) expect(RAW.test(text), file).toBe(false);
      // and on disk
      const dir = path.join(t.root, 'generated');
      for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
        if (e.isFile()) expect(RAW.test(readFileSync(path.join(e.parentPath, e.name), 'utf8')), e.name).toBe(false);
      const module = r.files.get('generated/models/bidi-model.ts')!;
      expect(module).toContain('\\u202e'); // the union member keeps its value, escaped
      expect(module).toContain('<U+202E>'); // the doc comment shows it
    },
  );
});

describe('property names equal after normalization or look-alike are refused, naming both', () => {
  const refused = (names: string[]) => {
    let err: unknown;
    try {
      checkModel(
        fixtureModel('m', {
          type: 'object',
          properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
        }),
        'm',
        'specs/models/m.json',
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SpecError);
    return err as SpecError;
  };
  it('NFC and NFD spellings of one name', () => {
    const e = refused(['caf\u00e9', 'cafe\u0301']);
    expect(e.pointer).toBe('/request_schema/properties/cafe\u0301');
    expect(e.problem).toBe(
      'property names "caf\u00e9" and "cafe\u0301" equal after Unicode normalization (NFKC): they would read as the same member',
    );
  });
  it('a compatibility form (fullwidth letters, NFKC)', () => {
    expect(refused(['seed', '\uFF53eed']).problem).toMatch(/equal after Unicode normalization \(NFKC\)/);
  });
  it('a Cyrillic look-alike letter, and a name that differs by an invisible control', () => {
    const e = refused(['prompt', 'pr\u043Empt']);
    expect(e.problem).toBe(
      'property names "prompt" and "pr\u043Empt" look alike (Unicode confusables): they would read as the same member',
    );
    expect(refused(['width', 'wid\u202Eth']).problem).toContain('"wid\\u202eth"'); // named escaped, never raw
  });
  it('distinct names pass (the real snapshot passes too: npm run generate -- --check)', () => {
    expect(() =>
      checkModel(
        fixtureModel('m', {
          type: 'object',
          properties: { seed: { type: 'integer' }, steps: { type: 'integer' }, width: {}, height: {} },
        }),
        'm',
        'x',
      ),
    ).not.toThrow();
  });
});
