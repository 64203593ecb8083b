/**
 * Doc comments: model text with an `@` reads as text (no tag) in TypeScript's JSDoc parser and shows
 * as the original word; the endpoint table renders the runtime's marked regions (kept current, a
 * changed region found, `@returns` holding only what is returned); generated functions take named
 * parameter types and carry an `@example` that uses only comment-safe model values.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { generate, REPO_ROOT } from '../../generator/index.ts';
import { commentText, docCode, docText } from '../../generator/escape.ts';
import { ENDPOINT_DOCS } from '../../generator/stages/endpoint-docs.ts';
import { renderRegions, syncRuntimeDocs } from '../../generator/output/runtime-docs.ts';
import { fixtureModel, repositoryOperations, tempSpecs, type TempSpecs } from './helpers.ts';

/** The JSDoc of `export const a = 1;` under a comment whose lines are `lines`. */
function jsdocOf(lines: string[]): ts.JSDoc {
  const text = `/**\n${lines.map((l) => ` * ${l}`).join('\n')}\n */\nexport const a = 1;\n`;
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const docs = ts.getJSDocCommentsAndTags(sf.statements[0]!) as ts.JSDoc[];
  expect(docs).toHaveLength(1);
  return docs[0]!;
}

const HOSTILE = [
  'Use @Image1, @Image2, etc.',
  "'@Image1'",
  '@type {INJECTED}',
  'see {@link INJECTED} and {@linkcode X}',
  '@a@b then @c',
  'two\n@param lines',
  'a `code @span` here',
  'a ` lone @tick',
  'already \\@escaped',
  '}@after-brace',
  '@ {alone}',
];

describe('model text in doc comments', () => {
  it('wraps an @ word in a code span, so hovers show the original word', () => {
    expect(docText('Use @Image1, @Image2, etc.')).toBe('Use `@Image1`, `@Image2`, etc.');
    expect(docText("'@Element1'")).toBe("'`@Element1`'");
    expect(docText('mail a@b.c stays')).toBe('mail a@b.c stays');
    // text with its own backticks keeps the escape both parsers read as text
    expect(docText('a `code @span`')).toBe('a `code \\@span`');
  });

  it.each(HOSTILE)('TypeScript reads no tag and no link in %j', (text) => {
    const doc = jsdocOf(commentText(docText(text)).split('\n'));
    expect(doc.tags ?? []).toEqual([]);
    expect(typeof doc.comment === 'string' || doc.comment === undefined).toBe(true);
    // in a tag's text too: only the tag the generator wrote
    const tagged = jsdocOf([`@default ${commentText(docText(JSON.stringify(text)))}`]);
    expect((tagged.tags ?? []).map((t) => t.tagName.text)).toEqual(['default']);
    const see = jsdocOf([`@see schema field ${commentText(docCode(`x.properties.${text}`))}`]);
    expect((see.tags ?? []).map((t) => t.tagName.text)).toEqual(['see']);
  });
});

describe('the endpoint table', () => {
  it('renders the marked regions of the runtime (endpoints.ts, resources.ts, models/, fine-tunes/) as committed', async () => {
    expect(await syncRuntimeDocs(REPO_ROOT, true, await repositoryOperations())).toEqual([]);
  });

  it('finds a region that differs from the table, and a marker the table does not have', async () => {
    const text = await readFile(path.join(REPO_ROOT, 'runtime/endpoints.ts'), 'utf8');
    const edited = text.replace('Generate images, blocking', 'Generates images, blocking');
    expect(edited).not.toBe(text);
    const table = await repositoryOperations();
    const r = renderRegions(edited, 'function', table);
    expect(r.text).toBe(text);
    expect(r.keys).toContain('images.generate');
    const unknown = renderRegions('/* endpoint-doc: images.nope */\nexport {};\n', 'function', table);
    expect(unknown.unknown).toEqual(['images.nope']);
  });

  it('keeps every sentence out of @returns: the resource methods say only what they return there', async () => {
    const file = path.join(REPO_ROOT, 'runtime/resources.ts');
    const sf = ts.createSourceFile(file, await readFile(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const returns = new Map<string, string>();
    const visit = (n: ts.Node): void => {
      if (ts.isMethodDeclaration(n) && ts.isClassDeclaration(n.parent) && n.parent.name?.text === 'Images') {
        const tag = ts.getJSDocReturnTag(n);
        if (tag) returns.set((n.name as ts.Identifier).text, ts.getTextOfJSDocComment(tag.comment) ?? '');
      }
      n.forEachChild(visit);
    };
    visit(sf);
    const flat = (s: string) => s.replace(/\s+/g, ' ');
    expect(flat(returns.get('generate')!)).toBe(ENDPOINT_DOCS['images.generate'].returns);
    expect(flat(returns.get('edit')!)).toBe(ENDPOINT_DOCS['images.edit'].returns);
  });
});

let temps: TempSpecs[] = [];
afterEach(async () => {
  await Promise.all(temps.map((t) => t.cleanup()));
  temps = [];
});

describe('generated functions', () => {
  it(
    'take named parameter types and show an @example built from comment-safe schema values',
    { timeout: 60_000 },
    async () => {
      const schema = {
        type: 'object',
        required: ['prompt', 'size', 'style', 'seed', 'note'],
        properties: {
          prompt: { type: 'string', description: 'Use @Image1' },
          size: { type: 'string', enum: ['1:1', '16:9'] },
          style: { type: 'string', default: 'calm */ INJECTED()' },
          seed: { type: 'integer', minimum: 3 },
          note: { type: 'string', examples: ['see @Image1'] },
        },
      };
      const t = await tempSpecs([], { docs: fixtureModel('docs', schema) });
      temps.push(t);
      await generate({ specsDir: t.specsDir, outRoot: t.root });
      const text = await readFile(path.join(t.root, 'generated/models/docs.ts'), 'utf8');
      expect(text).toContain(
        "export type DocsGenerateImageParams<F extends ResponseFormat = 'url'> = MediaParams<DocsParams, F>;",
      );
      expect(text).toMatch(/params: DocsGenerateImageParams<F>,/);
      expect(text).toContain('export type DocsQueueParams = MediaParams<DocsParams, ResponseFormat, QueueFields>;');
      expect(text).toMatch(/export function docsRun\(\s*client: Transport,\s*params: DocsQueueParams,/);
      // the enum's first value; the default with `*/` and the example with `@` replaced by placeholders
      expect(text).toContain(
        ' * const { images } = await docsGenerateImage(client, { prompt: "...", size: "1:1", style: "...", seed: 3, note: "..." });',
      );
      expect(text).toContain('Use `@Image1`');
      expect(text).toContain('@see `generateImages` (`oxen-inference-sdk/runtime`)');
      expect(text).not.toMatch(/\\@/);
    },
  );
});
