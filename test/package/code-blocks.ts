/**
 * The TypeScript code blocks of the documentation as modules a consumer project compiles: every
 * ```ts / ```typescript block of README.md, docs/*.md, generator/README.md and the shipped
 * generated/MODELS.md becomes one file, exactly as written (no prelude: a block declares what it
 * uses, its `client` included). A block that holds `// @ts-expect-error` lines also yields a
 * variant without them, whose errors are the ones the documentation shows in the ```text block that
 * follows it (test/package/code-blocks.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One ```ts block of a Markdown file. */
export interface CodeBlock {
  /** The Markdown file, relative to the repository root (`README.md`, `docs/quick-start.md`). */
  doc: string;
  /** 1-based line of the block's first code line in `doc`. */
  line: number;
  /** The code as written. */
  code: string;
  /** The module's file name in the consumer project, e.g. `README.md-03.ts`. */
  file: string;
  /** The fenced block right after this one when its info string is `text` (a compiler's output shown). */
  shownOutput?: { line: number; text: string };
}

const FENCE = /^(\s*)```(\S*)/;
const EXPECT_ERROR = /^\s*\/\/ @ts-expect-error\b.*$/;

/** The Markdown files whose blocks are compiled, relative to `root`. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs, 'generator/README.md', 'generated/MODELS.md'];
}

/** Every ```ts / ```typescript block of a Markdown text, in order (`doc` names it in errors and file names). */
export function codeBlocks(doc: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const fences: Array<{ lang: string; start: number; body: string[] }> = [];
  let open: { indent: string; lang: string; start: number; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const fence = FENCE.exec(text);
    if (open) {
      if (fence && fence[2] === '' && text.trim() === '```') {
        fences.push(open);
        open = undefined;
      } else open.body.push(text.startsWith(open.indent) ? text.slice(open.indent.length) : text);
    } else if (fence) open = { indent: fence[1]!, lang: fence[2]!, start: index + 2, body: [] };
  });
  if (open) throw new Error(`${doc}: the code block opened at line ${open.start - 1} is never closed`);
  const blocks: CodeBlock[] = [];
  fences.forEach((f, i) => {
    if (f.lang !== 'ts' && f.lang !== 'typescript') return;
    const next = fences[i + 1];
    blocks.push({
      doc,
      line: f.start,
      code: f.body.join('\n'),
      file: `${doc.replace(/[/\\]/g, '_')}-${String(blocks.length + 1).padStart(2, '0')}.ts`,
      ...(next?.lang === 'text' && follows(f.start - 1 + f.body.length, next.start - 2)
        ? { shownOutput: { line: next.start, text: next.body.join('\n') } }
        : {}),
    });
  });
  return blocks;
}

/** Whether at most `gap` lines separate the block that ends at `closeIndex` from the fence that opens at `openIndex` (0-based). */
function follows(closeIndex: number, openIndex: number, gap = 2): boolean {
  return openIndex - closeIndex - 1 <= gap;
}

/** The block without its `// @ts-expect-error` lines (same line count: they become blank), or undefined when it has none. */
export function withoutExpectError(code: string): string | undefined {
  const lines = code.split('\n');
  if (!lines.some((l) => EXPECT_ERROR.test(l))) return undefined;
  return lines.map((l) => (EXPECT_ERROR.test(l) ? '' : l)).join('\n');
}

/**
 * The casts of a block: `x as T` (but `as const`), `<T>x` and `x!`. Examples show code a user can copy
 * into a strict project; a cast there hides the type error it would have.
 * @returns one line per cast: its 1-based line in the block and its text.
 */
export function casts(code: string): string[] {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const isCast =
      (ts.isAsExpression(node) && !(ts.isTypeReferenceNode(node.type) && node.type.getText(source) === 'const')) ||
      ts.isTypeAssertionExpression(node) ||
      ts.isNonNullExpression(node);
    if (isCast) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${line + 1}: ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The model ids of the documentation's `oxen-inference-codegen add <id>... --out src/oxen-models` commands
 * (placeholders such as `<id>` left out): the models its blocks import from `./oxen-models/index.js`.
 */
export function addedModelIds(root: string): string[] {
  const ids = new Set<string>();
  for (const doc of documentationFiles(root)) {
    const text = readFileSync(path.join(root, doc), 'utf8');
    for (const m of text.matchAll(/oxen-inference-codegen add ((?:[^\s`#<>-][^\s`#<>]* )+)--out src\/oxen-models/g))
      for (const id of m[1]!.trim().split(/\s+/)) ids.add(id);
  }
  return [...ids].sort();
}

/** Every block of the documentation files under `root`. */
export function documentationBlocks(root: string): CodeBlock[] {
  return documentationFiles(root).flatMap((doc) => codeBlocks(doc, readFileSync(path.join(root, doc), 'utf8')));
}
