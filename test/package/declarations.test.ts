/**
 * The passes over the package's emitted declarations (scripts/build/declaration-passes.mjs), on small
 * synthetic texts: the parameter modules written into the generated index, and what no entry reaches left
 * out, with the imports and files only it needed, while every exported declaration, what it names, and the
 * doc comments stay.
 */
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import {
  inlineDeclarations,
  pruneDeclarations,
  type DeclarationTexts,
} from '../../scripts/build/declaration-passes.mjs';
import { tempDir } from '../support/index.ts';

/** The same texts as `.d.ts` and as `.d.cts` (relative specifiers `.js` -> `.cjs`). */
function texts(files: Record<string, string>): DeclarationTexts {
  const cjs = (text: string) => text.replace(/(from "\.[^"]*)\.js"/g, '$1.cjs"');
  return {
    '.d.ts': new Map(Object.entries(files)),
    '.d.cts': new Map(Object.entries(files).map(([name, text]) => [name, cjs(text)])),
  };
}

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  types: [],
  lib: ['lib.es2022.d.ts'],
};

describe('pruneDeclarations', () => {
  test('keeps what the entries export and what that names, and leaves out the rest and the files only it reached', () => {
    const dir = tempDir('inference-sdk-prune-');
    try {
      const t = texts({
        index: 'export { A, type Shape } from "./a.js";\nexport * from "./errors.js";\n',
        a: [
          'import type { Helper } from "./helper.js";',
          'import type { Named } from "./named.js";',
          '/** An A: its doc stays. */',
          'export interface A { b: B; named: Named }',
          'interface B { n: number }',
          'export type Shape = "round";',
          '/** A helper for other modules: no entry exports it. */',
          'export declare function helper(h: Helper): void;',
          'export {};',
          '',
        ].join('\n'),
        named: 'export interface Named { x: string }\nexport declare const unused: number;\n',
        helper: 'export interface Helper { y: string }\n',
        errors: 'export declare class E1 extends Error {}\n',
      });
      const reached = pruneDeclarations({ texts: t, entries: ['index'], outDir: dir.dir, options });
      expect([...reached].sort()).toEqual(['a', 'errors', 'index', 'named']);
      for (const byName of Object.values(t)) {
        const a = byName.get('a')!;
        expect(a).toContain('/** An A: its doc stays. */\nexport interface A');
        expect(a).toContain('interface B { n: number }');
        expect(a).toContain('export type Shape');
        expect(a).toContain('export {};');
        expect(a).not.toContain('helper');
        expect(a).not.toContain('Helper');
        expect(byName.get('named')).not.toContain('unused');
        expect(byName.get('errors')).toContain('E1');
      }
      expect(t['.d.cts'].get('a')).toContain('from "./named.cjs"');
    } finally {
      dir.remove();
    }
  });
});

describe('inlineDeclarations', () => {
  test('writes each parameter module into the index that imports it, docs kept, its imports joined', () => {
    const t = texts({
      'generated/index': [
        'import type { Base } from "../runtime/index.js";',
        'import type { FooParams } from "./params/foo.js";',
        'import type { ChatParams } from "./params/chat.js";',
        'export type { FooParams, ChatParams };',
        'export interface Registry { foo: FooParams; chat: ChatParams; base: Base }',
        '',
      ].join('\n'),
      'generated/params/foo':
        '/**\n * GENERATED FILE: header.\n */\n/** Parameters of model `foo`. */\nexport interface FooParams {\n    prompt: string;\n}\n',
      'generated/params/chat':
        '/**\n * GENERATED FILE: header.\n */\nimport type { Base, ChatBase } from "../../runtime/index.js";\n/** Parameters of model `chat`. */\nexport type ChatParams = ChatBase & Base;\n',
      'runtime/index': 'export interface Base { a?: string }\nexport interface ChatBase { m: string }\n',
    });
    const deps = new Map([
      ['generated/index', new Set(['runtime/index', 'generated/params/foo', 'generated/params/chat'])],
      ['generated/params/chat', new Set(['runtime/index'])],
    ]);
    const reached = new Set(['generated/index', 'generated/params/foo', 'generated/params/chat', 'runtime/index']);
    const inlined = inlineDeclarations(t, deps, reached);
    expect([...inlined].sort()).toEqual(['generated/params/chat', 'generated/params/foo']);
    for (const [ext, byName] of Object.entries(t)) {
      const index = byName.get('generated/index')!;
      const spec = ext === '.d.ts' ? '.js' : '.cjs';
      expect(index).not.toContain('./params/');
      expect(index).not.toContain('GENERATED FILE');
      expect(index).toContain('/** Parameters of model `foo`. */\ninterface FooParams {\n    prompt: string;\n}');
      expect(index).toContain('/** Parameters of model `chat`. */\ntype ChatParams = ChatBase & Base;');
      expect(index).toContain(`import type { ChatBase } from "../runtime/index${spec}";`);
      // the result is a well-formed module
      const diagnostics = ts.transpileDeclaration(index, { compilerOptions: options }).diagnostics ?? [];
      expect(diagnostics).toEqual([]);
    }
    expect(deps.get('generated/index')).toContain('runtime/index');
  });

  test('refuses a parameter module imported by two declarations', () => {
    const t = texts({
      a: 'import type { P } from "./generated/params/p.js";\nexport type A = P;\n',
      b: 'import type { P } from "./generated/params/p.js";\nexport type B = P;\n',
      'generated/params/p': 'export interface P { x: string }\n',
    });
    const deps = new Map([
      ['a', new Set(['generated/params/p'])],
      ['b', new Set(['generated/params/p'])],
    ]);
    expect(() => inlineDeclarations(t, deps, new Set(['a', 'b', 'generated/params/p']))).toThrow(/imported by a and b/);
  });
});
