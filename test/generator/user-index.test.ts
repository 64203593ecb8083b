/**
 * A user's `<out>/index.ts` declares the added models' parameter types itself (one file for a
 * compile to parse, not one module per model), each the model module's declaration without its
 * comments; a project generated before, with `<out>/params/`, loses that folder on the next run.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../support/index.ts';
import { generate, userTarget, type GenerateOptions } from '../../generator/index.ts';

const IDS = ['flux-2-pro', 'gpt-4o-mini'];
const tmp = tempDir('inference-sdk-user-index-');
const out = path.join(tmp.dir, 'oxen-models');
const options = (o: Partial<GenerateOptions> = {}): GenerateOptions => ({
  specsDir: path.join(out, 'specs'),
  outRoot: out,
  label: 'specs',
  target: userTarget('test'),
  openapi: { file: path.join(REPO_ROOT, 'specs', 'openapi.yaml'), label: 'openapi.yaml' },
  ...o,
});
const parse = (file: string) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
const bare = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed, removeComments: true });
/** The statement declaring `name` (an interface or type alias) in `sf`. */
const declarationOf = (sf: ts.SourceFile, name: string) =>
  sf.statements.find(
    (s): s is ts.InterfaceDeclaration | ts.TypeAliasDeclaration =>
      (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name,
  );

beforeAll(async () => {
  mkdirSync(path.join(out, 'specs', 'models'), { recursive: true });
  for (const id of IDS)
    cpSync(path.join(REPO_ROOT, 'specs', 'models', `${id}.json`), path.join(out, 'specs', 'models', `${id}.json`));
  writeFileSync(path.join(out, 'specs', 'models.json'), `${JSON.stringify(IDS, null, 2)}\n`);
  await generate(options());
}, 120_000);
afterAll(() => tmp.remove());

describe("a user's index", () => {
  it("declares each added model's parameter type: the model module's, without comments, under one line of doc", () => {
    const index = parse(path.join(out, 'index.ts'));
    expect(index.text.split('\n').find((l) => l.startsWith('//'))).toMatch(/^\/\/ @ts-nocheck /);
    for (const [id, name] of [
      ['flux-2-pro', 'Flux2ProParams'],
      ['gpt-4o-mini', 'Gpt4oMiniParams'],
    ] as const) {
      const model = parse(path.join(out, 'models', `${id}.ts`));
      const declared = declarationOf(index, name)!;
      expect(declared, name).toBeDefined();
      expect(bare.printNode(ts.EmitHint.Unspecified, declared, index)).toBe(
        bare.printNode(ts.EmitHint.Unspecified, declarationOf(model, name)!, model),
      );
      expect(declared.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)).toBe(true);
      const doc = ts.getJSDocCommentsAndTags(declared);
      expect(doc).toHaveLength(1);
      expect(doc[0]!.getText(index)).toBe(
        `/** Parameters of model \`${id}\` (\`specs/models/${id}.json\`), documented per field in \`models/${id}.ts\`. */`,
      );
      expect(index.text.slice(declared.getStart(index))).not.toMatch(/\/\*\*(?! Parameters of model)/);
    }
    // the runtime's types a declaration names come with the index's own import of the runtime
    const imports = index.statements.filter(ts.isImportDeclaration);
    const runtime = imports.find((s) => (s.moduleSpecifier as ts.StringLiteral).text === 'oxen-inference-sdk/runtime');
    expect(runtime?.getText(index)).toContain('ChatCompletionParamsNonStreaming');
    // no relative import: the compile of a program that uses the index reads no other file of <out> for its types
    expect(imports.map((s) => (s.moduleSpecifier as ts.StringLiteral).text).filter((s) => s.startsWith('.'))).toEqual(
      [],
    );
  });

  it("extends the package's maps and unions without a mapped or conditional type over every package id", () => {
    const index = parse(path.join(out, 'index.ts'));
    // an added entry wins over the package's as an interface's own member (test/cli: a newer flux-2-pro's parameter)
    for (const name of ['ModelParams', 'ModelMediaBodies', 'ModelQueueBodies']) {
      const declared = declarationOf(index, name);
      expect(declared && ts.isInterfaceDeclaration(declared), name).toBe(true);
      const bases = (declared as ts.InterfaceDeclaration).heritageClauses?.flatMap((h) =>
        h.types.map((t) => t.getText(index)),
      );
      expect(bases, name).toEqual([`Package${name}`]);
    }
    const ids = declarationOf(index, 'ModelId') as ts.TypeAliasDeclaration;
    expect(ids.type.getText(index)).toBe('PackageModelId | AddedModelId');
    // a per-endpoint union still leaves out an added id whose model is not on that endpoint
    const chat = declarationOf(index, 'ChatModelId') as ts.TypeAliasDeclaration;
    expect(chat.type.getText(index)).toMatch(/^Exclude<PackageChatModelId, AddedModelId> \| "gpt-4o-mini"$/);
  });

  it('is the only file with the parameter types: no params/ folder', () => {
    expect(existsSync(path.join(out, 'params'))).toBe(false);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as {
      files: Record<string, unknown>;
    };
    expect(Object.keys(manifest.files).filter((f) => f.startsWith('params/'))).toEqual([]);
  });

  it("removes a project's old params/ (files the manifest listed, and the folder) on the next run, and --check then passes", async () => {
    // as an earlier generator left it: one file per model, listed in the manifest
    mkdirSync(path.join(out, 'params'));
    const manifestFile = path.join(out, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      files: Record<string, { inputs: string; content: string }>;
    };
    for (const id of IDS) {
      writeFileSync(path.join(out, 'params', `${id}.ts`), `export interface Old {}\n`);
      manifest.files[`params/${id}.ts`] = { inputs: 'old', content: 'old' };
    }
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
    expect((await generate(options({ check: true }))).removed).toEqual([
      'params/flux-2-pro.ts',
      'params/gpt-4o-mini.ts',
    ]);
    const r = await generate(options());
    expect(r.removed).toEqual(['params/flux-2-pro.ts', 'params/gpt-4o-mini.ts']);
    expect(existsSync(path.join(out, 'params'))).toBe(false);
    // nothing left beside the output (no staged or old tree)
    expect(readdirSync(out).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(readFileSync(manifestFile, 'utf8')).not.toContain('params/');
    const check = await generate(options({ check: true }));
    expect([...check.added, ...check.changed, ...check.removed]).toEqual([]);
  });

  it('refuses a model whose parameter type would take a name the index imports or declares, naming it; nothing written', async () => {
    // `model` is typed `ModelParams`, the name of the index's own map of every model's parameters
    const other = path.join(tmp.dir, 'clash');
    mkdirSync(path.join(other, 'specs', 'models'), { recursive: true });
    const flux = JSON.parse(readFileSync(path.join(REPO_ROOT, 'specs', 'models', 'flux-2-pro.json'), 'utf8')) as object;
    writeFileSync(path.join(other, 'specs', 'models', 'model.json'), JSON.stringify({ ...flux, id: 'model' }));
    writeFileSync(path.join(other, 'specs', 'models.json'), '["model"]\n');
    await expect(generate(options({ specsDir: path.join(other, 'specs'), outRoot: other }))).rejects.toThrow(
      /\(model model\) at \/id: its parameter type ModelParams would be declared in <out>\/index\.ts/,
    );
    expect(readdirSync(other)).toEqual(['specs']);
  });
});
