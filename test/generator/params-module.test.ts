/**
 * The parameter modules (`generated/params/<id>.ts`): the index names each model's parameter type
 * from them, so that a consumer's compile parses the declarations alone; each holds the model
 * module's declaration, the same but for its comments. (A user's index declares them itself:
 * test/generator/user-index.test.ts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/index.ts';
import { paramsModule, type ParamsModel } from '../../generator/stages/params-module.ts';
import { packageTarget } from '../../generator/output/target.ts';
import { exported, printModule, typeNode, withDoc } from '../../generator/stages/printer.ts';
import { loadTsMorph } from '../../generator/libraries.ts';

const GENERATED = path.join(REPO_ROOT, 'generated');
const parse = (file: string) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
const bare = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed, removeComments: true });

/** The declaration named `name` (an interface or type alias) in `sf`, printed without comments. */
function declarationText(sf: ts.SourceFile, name: string): string | undefined {
  const d = sf.statements.find(
    (s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name,
  );
  return d && bare.printNode(ts.EmitHint.Unspecified, d, sf);
}

/** The specifiers of `sf`'s import declarations. */
const specifiers = (sf: ts.SourceFile) =>
  sf.statements.filter(ts.isImportDeclaration).map((s) => (s.moduleSpecifier as ts.StringLiteral).text);

describe('generated/params/', () => {
  const stems = readdirSync(path.join(GENERATED, 'params')).filter((f) => f.endsWith('.ts'));

  it('holds, for every model, the declaration of its model module with no comment but one line of doc', () => {
    expect(stems.sort()).toEqual(
      readdirSync(path.join(GENERATED, 'models'))
        .filter((f) => f.endsWith('.ts'))
        .sort(),
    );
    for (const file of stems) {
      const params = parse(path.join(GENERATED, 'params', file));
      const model = parse(path.join(GENERATED, 'models', file));
      const declared = params.statements.filter((s) => !ts.isImportDeclaration(s));
      expect(declared, file).toHaveLength(1);
      const name = (declared[0] as ts.InterfaceDeclaration | ts.TypeAliasDeclaration).name.text;
      expect(declarationText(params, name), file).toBe(declarationText(model, name));
      // the header and the one-line doc: no doc comment inside the declaration
      const inner = params.text.slice(declared[0]!.getStart(params));
      expect(inner.includes('/*'), file).toBe(false);
      const doc = ts.getJSDocCommentsAndTags(declared[0]!);
      expect(doc, file).toHaveLength(1);
      expect(doc[0]!.getText(params).split('\n'), file).toHaveLength(1);
      expect(
        specifiers(params).every((s) => s === '../../runtime/index.ts'),
        file,
      ).toBe(true);
    }
  });

  it('is what the index imports the parameter types from: it names no model module', () => {
    const index = parse(path.join(GENERATED, 'index.ts'));
    const relative = specifiers(index).filter((s) => s.startsWith('./'));
    expect(relative.filter((s) => s.startsWith('./params/'))).toHaveLength(stems.length);
    expect(relative.filter((s) => !s.startsWith('./params/'))).toEqual([]);
  });
});

describe('paramsModule', () => {
  // the parameter type as types.ts builds it: a syntax node with doc comments on it and on a member
  const { ts: mts } = loadTsMorph();
  const f = mts.factory;
  const declaration = withDoc(
    mts,
    f.createInterfaceDeclaration(exported(mts), 'AcmeParams', undefined, undefined, [
      withDoc(mts, f.createPropertySignature(undefined, 'prompt', undefined, typeNode(mts, 'string')), 'the prompt'),
      f.createPropertySignature(
        undefined,
        'messages',
        f.createToken(mts.SyntaxKind.QuestionToken),
        typeNode(mts, { array: 'ChatMessage' }),
      ),
    ]),
    'Acme',
    false,
  );
  const model: ParamsModel = {
    id: 'acme-*/-model',
    file: 'specs/models/acme-*~-model.json',
    names: { params: 'AcmeParams' } as ParamsModel['names'],
    type: { declaration, runtimeImports: ['ChatMessage'], required: ['prompt'], optional: ['messages'] },
  };

  it('leaves the shared declaration as the model module prints it (with its comments)', async () => {
    await paramsModule(model, packageTarget);
    const printed = printModule(mts, [declaration]);
    expect(printed).toContain('the prompt');
    expect(printed).toContain('Acme');
  });

  it("drops the declaration's comments, keeps its types, and escapes the doc line", async () => {
    const text = await paramsModule(model, packageTarget);
    expect(text).toContain('import type { ChatMessage } from "../../runtime/index.ts";');
    expect(text).toContain('export interface AcmeParams {\n    prompt: string;\n    messages?: ChatMessage[];\n}');
    expect(text).not.toContain('the prompt');
    // the id's `*/` does not end the comment: the module parses to one import and one interface
    const sf = ts.createSourceFile('p.ts', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    expect(sf.statements.map((s) => ts.SyntaxKind[s.kind])).toEqual(['ImportDeclaration', 'InterfaceDeclaration']);
  });
});
