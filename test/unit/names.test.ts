/**
 * Model ids to TypeScript identifiers (generator/stages/name.ts): the documented rule on the odd
 * ids of the snapshot, a valid and distinct identifier for every id of the documented character
 * set, and the collisions that are refused; file names that Windows does not reserve, distinct
 * for distinct ids.
 */
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SpecError } from '../../generator/errors.ts';
import { fileStem, modelNames, nameModels, specFile } from '../../generator/stages/name.ts';
import { MODEL_ID, modelIdProblem } from '../../generator/stages/schema-check.ts';

/** The characters a model id may hold (the generator refuses others before naming). */
const idChar = fc.constantFrom(...'abcXYZ019.-_'.split(''));
const modelId = fc.string({ unit: idChar, minLength: 1, maxLength: 24 }).filter((s) => /[A-Za-z0-9]/.test(s));
/** Valid ids of the documented set (`MODEL_ID`), `:` included (`oxen:acme-ft_123`). */
const validId = fc
  .array(fc.string({ unit: fc.constantFrom(...'abcXYZ019.-_:'.split('')), minLength: 1, maxLength: 24 }), {
    minLength: 1,
    maxLength: 3,
  })
  .map((parts) => parts.join(':'))
  .filter((s) => modelIdProblem(s) === undefined);

/** True when `name` is one identifier token that is not a reserved word. */
function isIdentifier(name: string): boolean {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, name);
  return (
    scanner.scan() === ts.SyntaxKind.Identifier &&
    scanner.getTokenText() === name &&
    scanner.scan() === ts.SyntaxKind.EndOfFileToken
  );
}

describe('modelNames', () => {
  it.each([
    ['flux-2-pro', 'Flux2Pro', 'flux2Pro'],
    ['ltx-2-3-pro-22b-IC-LoRA-Union-Control', 'Ltx23Pro22bICLoRAUnionControl', 'ltx23Pro22bICLoRAUnionControl'],
    ['happyhorse-1.0-video-edit', 'Happyhorse1_0VideoEdit', 'happyhorse1_0VideoEdit'],
    ['happyhorse-1-0-video-edit', 'Happyhorse10VideoEdit', 'happyhorse10VideoEdit'],
    ['3d-gen', 'Model3dGen', 'model3dGen'],
    ['flux-2-klein-4b', 'Flux2Klein4b', 'flux2Klein4b'],
    ['oxen:acme-ft_123', 'OxenAcmeFt123', 'oxenAcmeFt123'],
    ['oxen:my-fine-tuned-image-edit-model', 'OxenMyFineTunedImageEditModel', 'oxenMyFineTunedImageEditModel'],
  ])('%s -> %s / %s', (id, pascal, camel) => {
    expect(modelNames(id)).toEqual({ pascal, camel, params: `${pascal}Params`, schema: `${camel}Schema` });
  });

  it('refuses an id with no letter or digit', () => {
    expect(() => modelNames('-._')).toThrow(/no letter or digit/);
  });

  it('makes identifiers for every id of the documented character set', () => {
    fc.assert(
      fc.property(fc.oneof(modelId, validId), (id) => {
        const n = modelNames(id);
        for (const name of [n.pascal, n.camel, n.params, n.schema, `${n.camel}GenerateImage`])
          expect(isIdentifier(name), `${id} -> ${name}`).toBe(true);
        if (/^[a-z]/i.test(id)) expect(n.pascal.charAt(0)).toBe(id.charAt(0).toUpperCase());
        expect(n.camel.slice(1)).toBe(n.pascal.slice(1));
      }),
    );
  });
});

describe('nameModels', () => {
  const models = (...ids: string[]) => ids.map((id) => ({ id, file: `specs/models/${id}.json` }));

  it('names every model', () => {
    expect(
      nameModels(models('flux-2-pro', 'happyhorse-1.0-video-edit'), 'specs/models.json').map((m) => m.names.params),
    ).toEqual(['Flux2ProParams', 'Happyhorse1_0VideoEditParams']);
  });

  it('refuses two ids that convert to the same identifier, naming both', () => {
    const err = (() => {
      try {
        nameModels(models('a-b', 'a_b'), 'specs/models.json');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SpecError);
    expect((err as Error).message).toMatch(/"a-b" and "a_b" both convert to the identifier AB/);
  });

  it('refuses a slug and an id whose identifiers are the same, naming both', () => {
    expect(() => nameModels(models('oxen:a-b', 'oxen-a-b'), 'specs/models.json')).toThrow(
      /"oxen:a-b" and "oxen-a-b" both convert to the identifier OxenAB/,
    );
  });

  it('refuses two ids equal but for case (their files would collide)', () => {
    expect(() => nameModels(models('x.y', 'X.Y'), 'specs/models.json')).toThrow(/differ only by case/);
  });

  it('accepts any list of ids whose identifiers and lower-case forms are distinct, and is deterministic', () => {
    fc.assert(
      fc.property(fc.uniqueArray(modelId, { maxLength: 8 }), (ids) => {
        const pascals = ids.map((id) => modelNames(id).pascal);
        const lower = ids.map((id) => id.toLowerCase());
        const distinct = new Set(pascals).size === ids.length && new Set(lower).size === ids.length;
        const run = () => nameModels(models(...ids), 'specs/models.json').map((m) => m.names);
        if (distinct) expect(run()).toEqual(run());
        else expect(run).toThrow(SpecError);
      }),
    );
  });
});

/** Characters Windows allows in no file name. */
const WINDOWS_FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f]/;

/** A name Windows reserves: a device name before the first dot, in any case. */
const windowsReserved = (name: string) => /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i.test(name.split('.')[0]!);

describe('fileStem', () => {
  it.each([
    ['flux-2-pro', 'flux-2-pro'],
    ['CON', 'CON~'],
    ['aux', 'aux~'],
    ['AUX.model', 'AUX~.model'],
    ['nul.v1.2', 'nul~.v1.2'],
    ['Com1', 'Com1~'],
    ['lpt9-x', 'lpt9-x'], // not a device name before the first dot
    ['console', 'console'],
    ['x.aux', 'x.aux'],
    ['oxen:acme-ft_123', 'oxen~acme-ft_123'],
    ['a:b:c.d', 'a~b~c.d'],
    ['con:x', 'con~x'], // `con~x` is no device name
    ['aux.v:1', 'aux~.v~1'],
  ])('%s -> %s', (id, stem) => {
    expect(fileStem(id)).toBe(stem);
    expect(windowsReserved(`${fileStem(id)}.ts`)).toBe(false);
    expect(fileStem(id)).not.toMatch(WINDOWS_FORBIDDEN);
  });
  it('names the snapshot file the same way', () => {
    expect(specFile('AUX.model')).toBe('models/AUX~.model.json');
    expect(specFile('oxen:acme-ft_123')).toBe('models/oxen~acme-ft_123.json');
  });
  it('gives every id of the documented character set a stem Windows accepts, distinct from every other id', () => {
    const reservedOrNot = fc.oneof(
      modelId,
      validId,
      fc
        .tuple(fc.constantFrom('con', 'PRN', 'Aux', 'nul', 'COM0', 'lpt7'), fc.constantFrom('', '.model', '.1.2', '-x'))
        .map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(fc.uniqueArray(reservedOrNot, { minLength: 2, maxLength: 12 }), (ids) => {
        const stems = ids.map(fileStem);
        expect(new Set(stems).size).toBe(ids.length);
        for (const s of stems) expect(windowsReserved(s)).toBe(false);
        for (const s of stems) expect(s).not.toMatch(WINDOWS_FORBIDDEN);
      }),
    );
  });
  it('a file stem Windows takes for a file name for every id MODEL_ID accepts', () => {
    fc.assert(
      fc.property(validId, (id) => {
        expect(MODEL_ID.test(id)).toBe(true);
        expect(fileStem(id)).not.toMatch(WINDOWS_FORBIDDEN);
        expect(fileStem(id)).not.toMatch(/[. ]$/); // Windows drops a trailing dot or space
      }),
    );
  });
});

describe('MODEL_ID', () => {
  it.each(['oxen:acme-ft_123', 'oxen:my-fine-tuned-image-edit-model', 'a:b:c', 'flux-2-pro', 'A.b_c-1'])(
    'accepts %s',
    (id) => expect(modelIdProblem(id)).toBeUndefined(),
  );
  it.each([':a', 'a:', 'a::b', 'a:-b', 'a.:b', 'a:.b', 'a_:b', `${'a:'.repeat(64)}a`, 'a..b'])('refuses %s', (id) =>
    expect(modelIdProblem(id)).toBeDefined(),
  );
});
