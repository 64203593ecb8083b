/**
 * The endpoint-doc regions of the hand-written runtime files are found by a regular expression
 * (`REGION`, generator/output/runtime-docs.ts: a text search, so that `npm run generate` and its
 * `--check` need not load TypeScript). These tests pin what it rewrites against TypeScript's own
 * reading of each file: the markers it finds are exactly the `/* endpoint-doc: <key> *\/` comments
 * TypeScript's parser sees (none in a string, none missed), each is followed by the doc comment it
 * replaces and then the declaration that doc comment belongs to, and rendering changes nothing but
 * those doc comments.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../generator/index.ts';
import { RUNTIME_DOC_FILES, renderRegions } from '../../generator/output/runtime-docs.ts';
import { repositoryOperations } from './helpers.ts';

const MARKER = /^\/\* endpoint-doc: ([A-Za-z.]+) \*\/$/;

/** Every comment of `text` as TypeScript's scanner reads it (none inside a string or template). */
function comments(text: string): Array<{ pos: number; end: number; text: string }> {
  const out: Array<{ pos: number; end: number; text: string }> = [];
  const sf = ts.createSourceFile('f.ts', text, ts.ScriptTarget.ES2022, true);
  // the comments before each node as the parser reads the file (a comment in a string is not one)
  const visit = (n: ts.Node): void => {
    for (const r of ts.getLeadingCommentRanges(text, n.getFullStart()) ?? [])
      if (!out.some((c) => c.pos === r.pos)) out.push({ pos: r.pos, end: r.end, text: text.slice(r.pos, r.end) });
    n.forEachChild(visit);
  };
  visit(sf);
  return out.sort((a, b) => a.pos - b.pos);
}

/** The declarations whose leading comments are a marker then a doc comment, by marker key, in order. */
function markedDeclarations(text: string): Array<{ key: string; declaration: string }> {
  const sf = ts.createSourceFile('f.ts', text, ts.ScriptTarget.ES2022, true);
  const found: Array<{ key: string; declaration: string }> = [];
  const seen = new Set<number>();
  const visit = (n: ts.Node): void => {
    // the outermost node at a position owns its comments (a declaration, not its first modifier)
    const ranges = seen.has(n.getFullStart()) ? [] : (ts.getLeadingCommentRanges(text, n.getFullStart()) ?? []);
    seen.add(n.getFullStart());
    for (const [i, r] of ranges.entries()) {
      const key = MARKER.exec(text.slice(r.pos, r.end))?.[1];
      if (key === undefined) continue;
      const doc = ranges[i + 1];
      expect(doc && text.startsWith('/**', doc.pos), `the marker ${key} is followed by a doc comment`).toBe(true);
      expect(i + 2, `the doc comment after ${key} is the last comment before its declaration`).toBe(ranges.length);
      const name = (n as { name?: ts.Node }).name;
      found.push({ key, declaration: name ? name.getText(sf) : ts.SyntaxKind[n.kind] });
    }
    n.forEachChild(visit);
  };
  visit(sf);
  return found;
}

describe('the endpoint-doc regions, against TypeScript reading the runtime files', () => {
  it.each(RUNTIME_DOC_FILES.map((f) => [f.file, f.variant] as const))(
    '%s: the regular expression rewrites exactly the doc comment of each marked declaration',
    async (file, variant) => {
      const text = await readFile(path.join(REPO_ROOT, file), 'utf8');
      const table = await repositoryOperations();
      const markers = comments(text).filter((c) => MARKER.test(c.text));
      const declared = markedDeclarations(text);
      expect(declared.length).toBeGreaterThan(0);
      // the same markers: the parser's, and the regular expression's, in order
      expect(markers.map((c) => MARKER.exec(c.text)![1])).toEqual(declared.map((d) => d.key));
      const r = renderRegions(text, variant, table);
      expect(r.keys).toEqual(declared.map((d) => d.key));
      // with every marked doc comment blanked, the file before and after rendering is the same code
      const blank = (t: string) => {
        const marked = comments(t).filter((c) => MARKER.test(c.text));
        const all = comments(t);
        let out = t;
        for (const m of [...marked].reverse()) {
          const doc = all.find((c) => c.pos > m.pos && c.text.startsWith('/**'))!;
          out = out.slice(0, doc.pos) + out.slice(doc.end);
        }
        return out;
      };
      const stale = renderRegions(text.replaceAll(' * ', ' *  '), variant, table).text;
      expect(blank(stale)).toBe(blank(text.replaceAll(' * ', ' *  ')));
      expect(blank(r.text)).toBe(blank(text));
      expect(markedDeclarations(r.text)).toEqual(declared);
    },
  );
});
