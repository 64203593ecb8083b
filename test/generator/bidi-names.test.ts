/**
 * Model text cannot reorder how generated code reads ("Trojan Source") nor reach a file or a
 * terminal as a control character: bidirectional controls, ESC, NUL, the C1 controls and DEL are
 * escaped in every output (comments, string literals, unions, keys, validators, MODELS.md; a NUL
 * would make git treat a file as binary, an OSC sequence would drive the terminal showing it), and
 * property names that are equal after Unicode normalization or look alike are refused with a
 * SpecError naming both.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SpecError } from '../../generator/errors.ts';
import {
  commentText,
  escapeControlsInCode,
  markdownCell,
  showControls,
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
      escapeControlsInCode(`"${text}"`),
    ])
      expect(out).not.toMatch(RAW);
    expect(JSON.parse(stringLiteral(text))).toBe(text); // still the same string
    expect(commentText(text)).toBe(`a<U+${hex.toUpperCase().padStart(4, '0')}>b`);
  });
});

/** What no output may hold raw: C0 but tab and line feed, DEL, C1 and the bidirectional controls. */
const ANY_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

describe('escape.ts: no raw control character in any form', () => {
  it.each([
    ['NUL', '\u0000'],
    ['ESC (a CSI sequence)', '\u001b[2J'],
    ['an OSC 52 clipboard write', '\u001b]52;c;ZWNobyBoaQ==\u0007'],
    ['C1 CSI', '\u009b31m'],
    ['DEL', '\u007f'],
    ['CR', 'over\rwrite'],
  ])('%s', (_what, c) => {
    const text = `a${c}b`;
    for (const out of [
      stringLiteral(text),
      commentText(text),
      markdownText(text),
      markdownCell(text),
      markdownCode(text),
      escapeControlsInCode(`"${JSON.stringify(text).slice(1, -1)}"`),
      showControls(text),
    ])
      expect(out).not.toMatch(ANY_CONTROL);
    expect(JSON.parse(stringLiteral(text))).toBe(text);
  });
  it('keeps line feeds and tabs, shows the rest as <U+XXXX>', () => {
    expect(showControls('a\tb\nc\u001b]0;title\u0007\u009b\u202e')).toBe(
      'a\tb\nc<U+001B>]0;title<U+0007><U+009B><U+202E>',
    );
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

describe('a model whose text carries ESC, NUL, OSC and C1 controls', () => {
  it('generates files without a raw control character, and without a NUL byte', { timeout: 120_000 }, async () => {
    const evil = 'x\u001b]52;c;ZWNobyBoaQ==\u0007 \u001b[2J\u0000\u009b31m\u007f y';
    const model = fixtureModel(
      'control-model',
      {
        type: 'object',
        properties: {
          prompt: { type: 'string', description: `prompt ${evil}`, default: `d ${evil}`, pattern: '^[^\u001b]*$' },
          [`name\u001bx`]: { type: 'string', enum: [`v ${evil}`, 'plain'], title: evil },
        },
        required: ['prompt'],
      },
      { display_name: `Control ${evil}`, description: `A model ${evil}`, endpoint: '/images/generate' },
    );
    const t = await tempSpecs([], { 'control-model': model });
    temps.push(t);
    const r = await generate({ specsDir: t.specsDir, outRoot: t.root });
    expect(r.files.has('generated/validators/control-model.ts')).toBe(true);
    for (const [file, text] of r.files) expect(ANY_CONTROL.exec(text)?.[0], file).toBeUndefined();
    const dir = path.join(t.root, 'generated');
    for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
      if (e.isFile()) expect(readFileSync(path.join(e.parentPath, e.name)).includes(0), e.name).toBe(false);
    const module = r.files.get('generated/models/control-model.ts')!;
    expect(module).toContain('<U+001B>]52;c;'); // the doc comment shows it
    expect(module).toContain('\\u001b]52;c;'); // the union member keeps its value, escaped
  });
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
