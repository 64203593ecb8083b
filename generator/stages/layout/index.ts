/**
 * Part of stage 6 (emit): a module's syntax nodes laid out as prettier lays out their printed text
 * (prettier 3's TypeScript printer, with this repository's `.prettierrc.json`), so that prettier need
 * not parse and print it again (stage 7a skips such a file). The nodes are the ones `printer.ts`
 * prints; this builds prettier's own layout document (`prettier/doc`'s builders) from them by
 * prettier's rules for the syntax the model and parameter modules hold (imports, interfaces, type
 * aliases, constants of JSON data, the endpoint functions), and prints it with prettier's document
 * printer.
 *
 * Anything else (a node kind, a comment or a key these rules do not cover, a layout they leave
 * unsure) throws `NotLaidOut`, and the caller formats the printed text with prettier instead. The
 * proof is test/generator/layout.test.ts: prettier leaves every file laid out here unchanged.
 */
import { createRequire } from 'node:module';
import type { ts as TS } from 'ts-morph';
import type { builders as Builders, printer as DocPrinter, utils as DocUtils } from 'prettier/doc';
import { printModule, type Layout, type Ts } from '../printer.ts';
import { NotLaidOut } from './not-laid-out.ts';
import { Docs } from './statements.ts';
import type { Doc } from './text.ts';

export { NotLaidOut };

const require = createRequire(import.meta.url);

/** The options the layout targets: this repository's `.prettierrc.json` (the rest prettier's defaults). */
export const LAYOUT_OPTIONS: Readonly<Record<string, unknown>> = {
  printWidth: 120,
  singleQuote: true,
  trailingComma: 'all',
  proseWrap: 'preserve',
};

/** Prettier's defaults of the options that change how TypeScript is printed (prettier 3). */
const DEFAULTS: Readonly<Record<string, unknown>> = {
  tabWidth: 2,
  useTabs: false,
  semi: true,
  bracketSpacing: true,
  bracketSameLine: false,
  quoteProps: 'as-needed',
  jsxSingleQuote: false,
  arrowParens: 'always',
  endOfLine: 'lf',
  objectWrap: 'preserve',
  experimentalTernaries: false,
  experimentalOperatorPosition: 'end',
  singleAttributePerLine: false,
  embeddedLanguageFormatting: 'auto',
};

/** The prettier versions whose layout this reproduces (test/generator/layout.test.ts checks the installed one). */
export const LAYOUT_PRETTIER = /^3\.10\./;

/**
 * Whether prettier's options `config` (a resolved configuration, without `parser`/`filepath`) lay a
 * file out exactly as `LAYOUT_OPTIONS`: the same values, every other key absent or at its default;
 * no plugins, no overrides.
 */
export function laysOutAs(config: Readonly<Record<string, unknown>>): boolean {
  const keys = new Set([...Object.keys(config), ...Object.keys(LAYOUT_OPTIONS)]);
  for (const k of keys) {
    const want = k in LAYOUT_OPTIONS ? LAYOUT_OPTIONS[k] : DEFAULTS[k];
    if (want === undefined || config[k] !== want) {
      if (!(k in LAYOUT_OPTIONS) && config[k] === undefined) continue;
      return false;
    }
  }
  return true;
}

type DocModule = { builders: typeof Builders; printer: typeof DocPrinter; utils: typeof DocUtils };
let docModule: DocModule | undefined;

/** `printModule`'s text of `layout`, laid out as prettier would (ending with a line break); the header is the caller's. @throws NotLaidOut */
export function layoutModule(ts: Ts, layout: Layout): string {
  const { laidOut, holes } = layoutParts(ts, layout, false);
  if (holes.length > 0) throw new NotLaidOut('statement');
  return laidOut;
}

/**
 * `layoutModule`, but with `holes` a top-level statement the rules do not cover is left to prettier:
 * its printed text goes to `holes` and a line `hole(i)` takes its place. Prettier prints a top-level
 * statement (with its leading comments) the same alone as among others, and the blank lines between
 * statements are the layout's, so formatting each hole apart and putting it in its place gives the
 * text prettier gives the whole module (`fillHoles`).
 * @throws NotLaidOut for a layout it leaves unsure, or a line of text it does not keep.
 */
export function layoutParts(ts: Ts, layout: Layout, holes = true): { laidOut: string; holes: string[] } {
  docModule ??= require('prettier/doc') as DocModule;
  const docs = new Docs(ts, docModule.builders, docModule.utils.willBreak);
  const print = (doc: Doc) => docModule!.printer.printDocToString(doc, PRINT_OPTIONS).formatted;
  docs.printDoc = print;
  const texts: string[] = [];
  const parts: Doc[] = [];
  const statement = (s: TS.Statement): Doc => {
    if (!holes) return docs.statement(s);
    try {
      return docs.statement(s);
    } catch (err) {
      if (!(err instanceof NotLaidOut)) throw err;
      texts.push(printModule(ts, [s]));
      return hole(texts.length - 1);
    }
  };
  for (const entry of layout) {
    if (typeof entry === 'string') {
      // a line of the generator's own (a `// @ts-nocheck` directive): prettier keeps a line comment as it is
      if (!entry.startsWith('//') || entry.includes('\n') || entry !== entry.trimEnd()) throw new NotLaidOut('text');
      parts.push(entry);
      continue;
    }
    const run = (Array.isArray(entry) ? entry : [entry]) as readonly TS.Statement[];
    if (run.length === 0) continue;
    parts.push(docs.b.join(docs.b.hardline, run.map(statement)));
  }
  const doc = docs.b.join([docs.b.hardline, docs.b.hardline], parts);
  // the JSON data's placeholders filled in (`DataDocs`)
  const formatted = docs.fillData(print(doc));
  if (formatted.includes(UNSURE)) throw new NotLaidOut('unsure layout');
  return { laidOut: `${formatted}\n`, holes: texts };
}

/** The document printer's options: the layout's. */
const PRINT_OPTIONS = {
  printWidth: 120,
  tabWidth: 2,
  useTabs: false,
  endOfLine: 'lf',
} as Parameters<typeof DocPrinter.printDocToString>[1];

/** Put where a layout is not known when a group breaks: its appearance in the output refuses the file. */
const UNSURE = '\u0000unsure\u0000';

/** The line that holds the place of hole `i` (`layoutParts`). */
const hole = (i: number): string => `\u0000hole ${i}\u0000`;

/**
 * A module's text already in prettier's layout (`layoutModule`): the write stage does not format it;
 * with `holes`, but for the statements at the lines `hole(i)`, which prettier formats (`fillHoles`).
 */
export interface LaidOut {
  laidOut: string;
  holes?: readonly string[];
}

/** The line between holes formatted together (`fillHoles`): a line comment, which prettier keeps on a line of its own. */
const HOLE_SEPARATOR = '// layout: hole';

/**
 * The text of `module`: its holes formatted by `format` (prettier's TypeScript formatting with the
 * layout's options), together in one text (a line `HOLE_SEPARATOR` between them; each apart if its
 * result does not split into as many parts), each put in its place.
 * @throws Error when a hole's line is missing.
 */
export async function fillHoles(module: LaidOut, format: (text: string) => Promise<string>): Promise<string> {
  const holes = module.holes ?? [];
  if (holes.length === 0) return module.laidOut;
  const together = await format(holes.join(`\n${HOLE_SEPARATOR}\n\n`));
  let formatted = together.split(`\n${HOLE_SEPARATOR}\n`).map((part) => `${part.replace(/^\n+|\n+$/g, '')}\n`);
  if (formatted.length !== holes.length || holes.some((h) => h.includes(HOLE_SEPARATOR)))
    formatted = await Promise.all(holes.map((text) => format(text)));
  let text = module.laidOut;
  formatted.forEach((f, i) => {
    const at = text.indexOf(`${hole(i)}\n`);
    if (at < 0) throw new Error(`layout: hole ${i} not found`);
    text = text.slice(0, at) + f + text.slice(at + hole(i).length + 1);
  });
  return text;
}

/**
 * `printModule(ts, layout)`, or with `layOut` the module laid out as prettier lays it out
 * (`layoutModule`) when its syntax is covered (else the printed text, which prettier formats); with
 * `holes`, the statements it does not cover are left to prettier (`layoutParts`).
 */
export function printModuleAs(ts: Ts, layout: Layout, layOut: boolean, holes = false): string | LaidOut {
  if (layOut)
    try {
      const parts = layoutParts(ts, layout, holes);
      return parts.holes.length > 0 ? parts : { laidOut: parts.laidOut };
    } catch (err) {
      if (!(err instanceof NotLaidOut)) throw err;
    }
  return printModule(ts, layout);
}
