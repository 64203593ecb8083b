/**
 * The generator's own prettier layout (`generator/stages/layout/`): the model and parameter modules
 * it lays out are not formatted by prettier, so the proof that they are what prettier would write
 * is here: prettier leaves every such file of the first cases of seed 1 of the fuzzer (three rounds
 * of its families, fuzz/cases.ts) unchanged. For the snapshot's own models the proof is
 * `prettier --check generated/` (startup.test.ts) on what check.test.ts proves the generator's output,
 * and determinism.test.ts checks that a full generate lays out every model and parameter module. The layout is used only with the options and the prettier
 * version it reproduces; anything else (a user's other options, a syntax it does not cover) is
 * formatted by prettier.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { Project, ts } from 'ts-morph';
import { generate, packageTarget, userTarget } from '../../generator/index.ts';
import { SpecError } from '../../generator/errors.ts';
import {
  fillHoles,
  LAYOUT_OPTIONS,
  LAYOUT_PRETTIER,
  laysOutAs,
  printModuleAs,
} from '../../generator/stages/layout/index.ts';
import { exportTypes, idInterface, typeAlias } from '../../generator/stages/index-module.ts';
import { literalUnion, printModule, typeNode } from '../../generator/stages/printer.ts';
import { JobQueue } from '../../generator/stages/job-queue.ts';
import { formatReference, layTable, plainIntroduction, plainSection } from '../../generator/stages/reference-layout.ts';
import { header, loadTemplates } from '../../generator/stages/templates.ts';
import { markdownCell, markdownText } from '../../generator/escape.ts';
import { buildCase, ORDER } from '../../fuzz/cases.ts';
import { writeCase } from '../../fuzz/case.ts';
import { REPO_ROOT, seededRandom, tempDir } from '../support/index.ts';

const require = createRequire(import.meta.url);
const CASES = 3 * ORDER.length;

/** A node of remark's Markdown tree (prettier's `__debug.parse`). */
interface MarkdownNode {
  type: string;
  children?: MarkdownNode[];
}
const repositoryOptions = JSON.parse(readFileSync(path.join(REPO_ROOT, '.prettierrc.json'), 'utf8')) as Record<
  string,
  unknown
>;

/** The laid-out files of `files` that prettier (the repository's options) would change. */
async function changedByPrettier(files: Map<string, string>, laidOut: string[]): Promise<string[]> {
  const changed: string[] = [];
  for (const file of laidOut) {
    const text = files.get(file)!;
    if ((await prettier.format(text, { ...repositoryOptions, parser: 'babel-ts' })) !== text) changed.push(file);
  }
  return changed;
}

describe('when the generator lays a module out itself', () => {
  it('only with the installed prettier version and the options the layout reproduces', () => {
    const version = (JSON.parse(readFileSync(require.resolve('prettier/package.json'), 'utf8')) as { version: string })
      .version;
    // a new prettier may lay code out otherwise: prove the layout again (this file), then widen LAYOUT_PRETTIER
    expect(version).toMatch(LAYOUT_PRETTIER);
    expect(laysOutAs(repositoryOptions)).toBe(true);
    expect(new JobQueue(REPO_ROOT).laysOut()).toBe(true);
    expect(LAYOUT_OPTIONS).toEqual(repositoryOptions);
    // prettier's defaults spelled out are the same options
    expect(laysOutAs({ ...repositoryOptions, tabWidth: 2, semi: true, quoteProps: 'as-needed' })).toBe(true);
    // any other value, a plugin or an override: prettier formats
    expect(laysOutAs({ ...repositoryOptions, printWidth: 100 })).toBe(false);
    expect(laysOutAs({ ...repositoryOptions, semi: false })).toBe(false);
    expect(laysOutAs({ ...repositoryOptions, plugins: ['prettier-plugin-organize-imports'] })).toBe(false);
    expect(laysOutAs({ ...repositoryOptions, overrides: [] })).toBe(false);
    expect(laysOutAs({ printWidth: 120 })).toBe(false);
    expect(laysOutAs({})).toBe(false);
  });

  it('leaves a syntax it does not cover to prettier', () => {
    const f = ts.factory;
    const statement = f.createClassDeclaration(undefined, 'A', undefined, undefined, []);
    expect(printModuleAs(ts, [statement], true)).toBe('class A {\n}\n');
    new Project(); // ts-morph's TypeScript is the printer's
  });

  it('lays out the index statements at the line width, leaving the rest (a class) to prettier', async () => {
    const typescript = (text: string) => prettier.format(text, { ...repositoryOptions, parser: 'babel-ts' });
    const f = ts.factory;
    // ids whose one-member, two-member and longer unions and export lists end just before, at and after 120 columns
    const cases: string[][] = [];
    for (let n = 80; n <= 130; n++) {
      const id = `m${'x'.repeat(n)}`.slice(0, n);
      cases.push([id], [id.slice(0, n / 2), id.slice(n / 2)], [id.slice(0, 30), id.slice(30, 60), id.slice(60)]);
    }
    for (const ids of cases) {
      const names = ids.map((id) => `${id[0]!.toUpperCase()}${id.slice(1).replace(/[^A-Za-z0-9]/g, '')}Params`);
      const statements = [
        exportTypes(ts, names),
        typeAlias(ts, 'ModelId', literalUnion(ts, ids), 'Every model id.'),
        typeAlias(ts, `M${ids[0]!.slice(0, 60)}`, literalUnion(ts, ids), 'A long name.'),
        idInterface(
          ts,
          'ModelRegistry',
          'Registry.',
          ids.map((id, i) => [id, typeNode(ts, names[i]!)]),
          [names.join('')],
        ),
        f.createClassDeclaration(undefined, 'A', undefined, undefined, []),
      ];
      const laid = printModuleAs(ts, [statements], true, true);
      if (typeof laid === 'string') throw new Error('not laid out');
      // the class; a single literal under a type alias is left to prettier too
      expect(laid.holes).toHaveLength(ids.length > 1 ? 1 : 3);
      const text = await fillHoles(laid, typescript);
      expect(text, ids.join(' ')).toBe(await typescript(printModule(ts, [statements])));
    }
  });

  it(
    "writes the package's index, validator table and runtime/operations.ts as prettier would",
    { timeout: 120_000 },
    async () => {
      const { dir, remove } = tempDir('inference-sdk-layout-package-');
      try {
        const r = await generate({ outRoot: dir, target: packageTarget, check: true, runtime: true });
        const files = ['generated/index.ts', 'generated/validator-table.ts', 'runtime/operations.ts'];
        expect(r.laidOut).toEqual(expect.arrayContaining(files));
        expect(await changedByPrettier(r.files, files)).toEqual([]);
      } finally {
        remove();
      }
    },
  );

  it('formats the model reference in parts as prettier formats it whole, laying out a table of plain cells', async () => {
    const markdown = (text: string) => prettier.format(text, { ...repositoryOptions, parser: 'markdown' });
    const reference = (titles: string[]) =>
      [
        '<!-- header -->',
        '',
        '# Model reference',
        '',
        'The models.',
        '',
        '| Model | Name | Served by |',
        '| --- | --- | --- |',
        ...titles.map((t, i) => `| [\`m-${i}\`](#m-${i}) | ${t} | ${i % 2 ? '`chat.completions.create`' : 'none'} |`),
        ...titles.flatMap((t, i) => [
          '',
          `<a id="m-${i}"></a>`,
          '',
          `## \`m-${i}\`: ${t}`,
          '',
          `${t} description.`,
          '',
          `- Import: \`x\``,
          '',
          'Parameters:',
          '',
          `- \`p\` (required): \`"a" | "b_c"\`; default \`"a"\`; 0 to 1. ${t}, 2.5 ≥ 1 (see @Image1).`,
        ]),
        '',
      ].join('\n');
    const plain = ['FLUX.1 [dev]', 'GPT 4o mini', 'Seedance 2.0 - Image to Video', 'A (b): c/d, e+f'];
    const lines = reference(plain).split('\n');
    const table = lines.slice(6, 8 + plain.length);
    expect(layTable(table)).toBe((await markdown(`${table.join('\n')}\n`)).trimEnd());
    // a model id with capitals (`ltx-2-3-pro-22b-IC-LoRA-Union-Control`) is a plain cell
    const capitals = [...table.slice(0, 2), '| [`a-IC-LoRA`](#a-ic-lora) | A | none |'];
    expect(layTable(capitals)).toBe((await markdown(`${capitals.join('\n')}\n`)).trimEnd());
    for (const titles of [
      plain,
      // Markdown syntax, wide characters, escapes, links, double spaces: prettier formats the table
      ['a_b *x*', '宽字符 model', 'pipe \\| here', '[x](y)', 'two  spaces', '<b>', '&amp;'],
    ]) {
      const text = reference(titles);
      expect(await formatReference(text, markdown)).toBe(await markdown(text));
    }
    expect(layTable(reference(['a_b *x*']).split('\n').slice(6, 9))).toBeUndefined();
  });

  it('leaves prettier a model section only when its prose is plain', async () => {
    const markdown = (text: string) => prettier.format(text, { ...repositoryOptions, parser: 'markdown' });
    const section = (line: string) => `<a id="m"></a>\n\n## \`m\`: M\n\n${line}\n\n- \`p\`: \`x\`. ${line}\n`;
    // prose the section test accepts, built from its alphabet at random (seeded): prettier keeps it
    const alphabet = [...'abcXYZ019éß ,.;:()\'"/%+=?≥≤∞…–—’“”-'].concat([
      '@Image1',
      'snake_case',
      '[dev]',
      '`code *x*`',
      // the forms of the models' descriptions the check accepts, and near ones it refuses
      '&lt;=6',
      ' ~72',
      ' ~b~',
      ' _a_b',
    ]);
    const next = seededRandom(7);
    let plain = 0;
    for (let i = 0; i < 500; i++) {
      const words = Array.from({ length: 1 + Math.floor(next() * 12) }, () =>
        Array.from({ length: 1 + Math.floor(next() * 4) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(
          '',
        ),
      );
      const text = section(`Model ${words.join(' ')}`);
      if (!plainSection(text)) continue;
      plain++;
      expect(await markdown(text)).toBe(text);
    }
    expect(plain).toBeGreaterThan(100);
    // Markdown syntax prettier rewrites or escapes: not plain
    for (const line of [
      'a *b*',
      'a _b_',
      'a *b* c',
      '1. a',
      '+ a',
      'a &lt b',
      'a  b',
      'a ',
      '# a',
      'a \\ b',
      'x@y.z',
      'a [b](c)',
      'a ~b~',
      'a | b',
      "a 'x_*' and 'y_*'",
      'a_ b',
      'a _b_c',
      'a &gt; b',
      "a 'b_'",
      "a 'b__'",
    ])
      expect(plainSection(section(line.startsWith('a') ? `Model ${line}` : line)), line).toBe(false);
  });

  it('writes model prose in the form prettier keeps, with no Markdown of its own, so every section is plain', async () => {
    const markdown = (text: string) => prettier.format(text, { ...repositoryOptions, parser: 'markdown' });
    /** The Markdown nodes of `text` (remark's, as prettier parses it), flattened. */
    const nodes = async (text: string) => {
      // prettier's parser entry (not in its typings): the tree its Markdown printer prints
      const { __debug } = prettier as unknown as {
        __debug: { parse: (text: string, options: object) => Promise<{ ast: MarkdownNode }> };
      };
      const { ast } = await __debug.parse(text, { ...repositoryOptions, parser: 'markdown' });
      const all: MarkdownNode[] = [];
      const walk = (n: MarkdownNode) => (all.push(n), n.children?.forEach(walk));
      walk(ast);
      return all;
    };
    const section = (title: string, prose: string) =>
      [
        '<a id="m"></a>',
        '',
        `## \`m\`: ${markdownCell(title)}`,
        '',
        ...(markdownText(prose) ? [markdownText(prose), ''] : []),
        '- Import: `x`',
        '',
        'Parameters:',
        '',
        `- \`p\`: \`x\`; ${markdownText(prose)}. ${markdownText(prose)}`,
        '',
      ].join('\n');
    // hostile prose (seeded): every ASCII punctuation character, Markdown's inline and block syntax,
    // backslashes, wide and combining characters, white space and controls
    const alphabet = [...'abcXYZ019éß宽🎉 !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'].concat([
      '*do not*',
      "'x_*'",
      '_a_',
      '__b__',
      'snake_case',
      '[dev]',
      '[a](b)',
      '![i](j)',
      '[r]: http://x',
      '<b>',
      '<!--',
      '&amp;',
      '&lt;',
      '`code *x*`',
      '``',
      '\\*',
      '\\\\',
      '\n# h',
      '\n- ',
      '\n1. ',
      '\n---\n',
      '> q',
      '~~s~~',
      ' ~72',
      'a|b',
      'e\u0301',
      '\u00a0',
      '\t',
      '\u202e',
      'x@y.z',
    ]);
    const next = seededRandom(11);
    const pick = (n: number) =>
      Array.from({ length: 1 + Math.floor(next() * n) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let i = 0; i < 400; i++) {
      const prose = Array.from({ length: 1 + Math.floor(next() * 10) }, () => pick(4)).join(next() < 0.2 ? '' : ' ');
      const title = pick(6).trim() || 'M'; // a blank name is the model id (reference.ts)
      const text = section(title, prose);
      expect(plainSection(text), JSON.stringify([title, prose])).toBe(true);
      expect(await markdown(text), JSON.stringify([title, prose])).toBe(text);
      // no Markdown of the model's: one heading (the template's), one list, text and code spans only
      // (after the section's anchor)
      const types = (await nodes(text.slice(text.indexOf('## ')))).map((n) => n.type);
      expect(types.filter((t) => t === 'heading')).toHaveLength(1);
      expect(types.filter((t) => t === 'list')).toHaveLength(2);
      const inline = ['root', 'paragraph', 'heading', 'list', 'listItem', 'text', 'inlineCode'];
      expect(
        types.filter((t) => !inline.includes(t)),
        JSON.stringify([title, prose]),
      ).toEqual([]);
      // in a table, a title is one cell
      const table = `| a | b |\n| --- | --- |\n| ${markdownCell(title)} | c |\n`;
      const rows = (await nodes(table)).filter((n) => n.type === 'tableRow');
      expect(rows.map((r) => r.children!.length)).toEqual([2, 2]);
    }
    // the reference as generated: every part is plain, so a full run loads no Markdown plugin
    // (the committed file, its table back in the template's unaligned form)
    const generated = readFileSync(path.join(REPO_ROOT, 'generated/MODELS.md'), 'utf8');
    const unformatted = generated
      .split('\n')
      .map((l) =>
        /^\| -+ \|/.test(l)
          ? '| --- | --- | --- |'
          : l.startsWith('| ')
            ? `| ${l
                .slice(2, -2)
                .split(' | ')
                .map((c) => c.trim())
                .join(' | ')} |`
            : l,
      )
      .join('\n');
    expect(unformatted).not.toBe(generated);
    const refuse = () => Promise.reject(new Error('prettier called'));
    expect(await formatReference(unformatted, refuse)).toBe(generated);
    // the two descriptions prettier rewrote (emphasis it read in them) are written escaped
    expect(markdownText('what you *do not* want')).toBe(String.raw`what you \*do not\* want`);
    expect(markdownText("'adhere_*' stays, 'flex_*' is")).toBe(String.raw`'adhere\_\*' stays, 'flex\_\*' is`);
  });

  it("keeps the reference's introduction as written when prettier would, without calling prettier", async () => {
    const markdown = (text: string) => prettier.format(text, { ...repositoryOptions, parser: 'markdown' });
    const t = await loadTemplates(path.join(REPO_ROOT, 'templates'));
    // the introduction as the generator writes it (the header, the template's text up to the table's blank line)
    const introduction = (sources: string[], target = packageTarget) => {
      const body = t.modelsMd({ count: 111, models: [] });
      return `${header(t, sources, true, target)}\n${body.slice(0, body.indexOf('\n| Model |'))}`;
    };
    const repository = introduction(['specs/models.json', 'specs/models/*.json']);
    expect(plainIntroduction(repository)).toBe(true);
    expect(await markdown(repository)).toBe(repository);
    // a user's header, and sources with Markdown syntax (a user's paths): the comment is printed as written
    for (const sources of [['a.json'], ['*x*.json', 'a_b_.json', '<b>&amp;', 'a --> b', '#x', '  spaced  ']]) {
      const text = introduction(sources, userTarget('1.2.3'));
      expect(plainIntroduction(text), sources.join(' ')).toBe(true);
      expect(await markdown(text), sources.join(' ')).toBe(text);
    }
    // a control character in the comment (a tab) is left to prettier
    expect(plainIntroduction(introduction(['tab\there']))).toBe(false);
    // a whole reference whose parts are all plain is formatted without prettier
    const table = ['| Model | Name | Served by |', '| --- | --- | --- |', '| [`m`](#m) | M | none |'];
    const reference = (intro: string) =>
      `${intro}\n${table.join('\n')}\n\n<a id="m"></a>\n\n## \`m\`: M\n\n- Import: \`x\`\n`;
    const whole = reference(repository);
    const refuse = () => Promise.reject(new Error('prettier called'));
    expect(await formatReference(whole, refuse)).toBe(await markdown(whole));
    // what prettier would change: not plain
    const plain = '<!--\nGENERATED FILE.\n-->\n\n# Model reference\n\nThe models.\n';
    expect(plainIntroduction(plain)).toBe(true);
    for (const text of [
      plain.replace('The models.', 'The *models*.'),
      plain.replace('The models.', 'The models.\n'),
      plain.replace('The models.', '\nThe models.'),
      plain.replace('\n\n# Model', '\n\n\n# Model'),
      plain.replace('# Model reference', '# Model reference #'),
      plain.replace('# Model reference', '1. Model'),
      plain.replace('GENERATED FILE.', 'GENERATED FILE. -->'),
      plain.replace('GENERATED FILE.', 'GENERATED FILE. '),
      plain.replace('GENERATED FILE.', ''),
      plain.replace('-->\n\n', '-->\n'),
      `${plain}\n`,
      plain.slice(0, -1),
    ]) {
      expect(plainIntroduction(text), text).toBe(false);
      expect(await formatReference(reference(text), markdown)).toBe(await markdown(reference(text)));
    }
  });

  it(
    "writes the modules of the fuzz families' cases as prettier would, in a user's project formatting with the same options",
    { timeout: 300_000 },
    async () => {
      const { dir, remove } = tempDir('inference-sdk-layout-fuzz-');
      const target = userTarget('0.0.0', { prettier: { ...repositoryOptions } });
      let laidOut = 0;
      const changed: string[] = [];
      try {
        // most cases of a hostile family are refused: three rounds of the families reach each one's output
        for (let index = 0; index < CASES; index++) {
          const c = buildCase(1, index);
          const specsDir = path.join(dir, `case-${index}`, 'specs');
          writeCase(c, specsDir);
          let r;
          try {
            r = await generate({ specsDir, outRoot: path.join(dir, `case-${index}`, 'out'), target, check: true });
          } catch (err) {
            if (err instanceof SpecError) continue; // refused: nothing to lay out
            throw err;
          }
          laidOut += r.laidOut.length;
          for (const f of await changedByPrettier(r.files, r.laidOut))
            changed.push(`case ${index} (${c.family}): ${f}`);
        }
      } finally {
        remove();
      }
      expect(changed).toEqual([]);
      expect(laidOut).toBeGreaterThan(20);
    },
  );
});
