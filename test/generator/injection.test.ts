/**
 * A schema `description` (or property name, enum value, default) containing `*\/`, a backtick or
 * `${` can neither break the generated code nor inject any; nor can a `tsType` keyword.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.ts';
import { fixtureModel, tempSpecs } from './helpers.ts';

const EVIL = 'Closes */ INJECTED_A(); /* then `INJECTED_B()` and ${INJECTED_C()} and \\u0060 \n@type {INJECTED_D}';

describe('hostile schema text', () => {
  it('stays inside comments and string literals', { timeout: 60_000 }, async () => {
    const schema = {
      type: 'object',
      description: EVIL,
      required: ['prompt'],
      properties: {
        prompt: { type: 'string', description: EVIL, default: EVIL },
        mode: { type: 'string', enum: ['a*/b', '`x`', '${y}', "it's"], description: '*/' },
        sneaky: { type: 'string', tsType: 'string; INJECTED_E(): void', description: 'tsType must be ignored' },
        'odd key */': { type: 'integer', description: 'odd' },
        mixed: { type: ['integer', 'string'], description: 'a type array, as some real schemas have', default: 'auto' },
      },
    };
    const t = await tempSpecs([], {
      'evil-model': fixtureModel('evil-model', schema, { description: EVIL, display_name: 'Evil */ model' }),
    });
    try {
      const r = await generate({ specsDir: t.specsDir, outRoot: t.root });
      expect(r.models).toBe(1);
      const file = path.join(t.root, 'generated/models/evil-model.ts');
      const text = await readFile(file, 'utf8');
      const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
      // no syntax error
      const diagnostics = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
      expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
      // no identifier named INJECTED_* anywhere in the code (comments and string contents are not identifiers)
      const identifiers: string[] = [];
      const visit = (n: ts.Node): void => {
        if (ts.isIdentifier(n)) identifiers.push(n.text);
        n.forEachChild(visit);
      };
      visit(sf);
      expect(identifiers.filter((i) => i.startsWith('INJECTED'))).toEqual([]);
      // the interface has exactly the schema's members, with the hostile enum values as string literal types
      const iface = sf.statements.find(ts.isInterfaceDeclaration)!;
      expect(iface.name.text).toBe('EvilModelParams');
      expect(iface.members.map((m) => (m.name as ts.Identifier | ts.StringLiteral).text)).toEqual([
        'prompt',
        'mode',
        'sneaky',
        'odd key */',
        'mixed',
      ]);
      expect(text).toMatch(/mixed\?: number \| string;/);
      expect(text).toMatch(/mode\?: 'a\*\/b' \| '`x`' \| '\$\{y\}' \| "it's";/);
      expect(text).toMatch(/sneaky\?: string;/);
      // the schema const holds the description unchanged
      const mod = text.slice(text.indexOf('export const evilModelSchema'));
      expect(mod).toContain(JSON.stringify(EVIL).slice(1, 20));
    } finally {
      await t.cleanup();
    }
  });
});
