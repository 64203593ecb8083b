/**
 * Stage 7a for `generated/MODELS.md` (`reference.ts`, `templates/models.md.hbs`): the reference as
 * prettier formats it, in parts. Prettier's Markdown formatting of the whole file takes about twice
 * as long as formatting its parts apart (the model table, and the prose before and after it), and the
 * table is a GitHub table whose aligned layout is written here directly (prettier's `printTable`:
 * each column as wide as its widest cell, at least 3; the delimiter row dashes; cells padded with
 * spaces) when every cell is plain text, whose printed form is the cell as written. Any other cell
 * (a model title with Markdown syntax or wide characters) and prettier formats the table too.
 *
 * The parts are blocks of their own (a paragraph, the table, an HTML anchor), separated by blank
 * lines, so formatting them apart gives the same text (test/generator/layout.test.ts proves it on
 * the repository's reference and on hostile titles).
 */

/** The table's first two lines as the template writes them. */
const TABLE_HEAD = ['| Model | Name | Served by |', '| --- | --- | --- |'];

/**
 * A cell prettier prints as written: the model's link (`` [`id`](#anchor) ``), its functions in code
 * spans, or a title of ASCII words, digits and plain punctuation (a `[word]` not followed by a link
 * target), single spaces between.
 */
const PLAIN_CELL =
  /^(?:\[`[A-Za-z0-9][A-Za-z0-9._-]*`\]\(#[a-z0-9][a-z0-9._-]*\)|`[\w.]+`(?:, `[\w.]+`)*|(?:[A-Za-z0-9.,:;()/+'-]|\[[A-Za-z0-9.-]+(?: [A-Za-z0-9.-]+)*\](?![([:])| (?! ))+)$/;

/** The table laid out as prettier would, or undefined when a cell is not plain. */
export function layTable(lines: readonly string[]): string | undefined {
  const rows: string[][] = [];
  for (const line of lines) {
    if (!line.startsWith('| ') || !line.endsWith(' |')) return undefined;
    rows.push(line.slice(2, -2).split(' | '));
  }
  const columns = rows[0]!.length;
  const body = [rows[0]!, ...rows.slice(2)];
  if (body.some((r) => r.length !== columns || r.some((c) => c === '' || c.endsWith(' ') || !PLAIN_CELL.test(c))))
    return undefined;
  const widths = Array.from({ length: columns }, (_, i) => Math.max(3, ...body.map((r) => r[i]!.length)));
  const row = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [row(body[0]!), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...body.slice(1).map(row)].join('\n');
}

/**
 * A character of prose that prettier's Markdown printer writes as it is: ASCII letters and digits, a
 * character beyond ASCII that is not white space or a control or format character, a space, plain
 * punctuation; `@` not after a letter or digit (no e-mail autolink); `_` between letters or digits
 * (prettier escapes one at a word's edge); a backslash escape of ASCII punctuation (`\*`, `\_`,
 * `\[`, `\\`: prettier keeps escapes as written). Not a raw `* [ ] < > & # ! \ | ~ $ ^ { } ``,
 * whose meaning or escaping prettier may change, but for the forms the generator's escaping
 * (`markdownText`, generator/escape.ts) writes and prettier keeps (layout.test.ts): `&lt;`; `~`
 * after a space and before a letter or digit (it cannot close a strikethrough); a `[word]` that no
 * link target follows.
 */
const PLAIN = String.raw`(?:[A-Za-z0-9 ,.;:()'"/%+=?-]|[^\p{ASCII}\s\p{C}]|(?<![A-Za-z0-9])@|(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])|\\[!-/:-@[-\x60{-~]|\[[A-Za-z0-9.-]+(?: [A-Za-z0-9.-]+)*\](?![([:])|&lt;|(?<= )~(?=[A-Za-z0-9]))`;
/** A code span prettier writes as it is: one backtick each side, no space at either end. */
const CODE = '(?<![`\\\\])`[^`\\s](?:[^`]*[^`\\s])?`(?!`)';
/** A line of prose: plain characters and code spans, single spaces, none at either end. */
const PROSE = new RegExp(`^(?!.*  )(?! )(?!.* $)(?:${PLAIN}|${CODE})*$`, 'u');

/**
 * How a paragraph may start and stay a paragraph: a letter, a digit (not an ordered list's `1.` or
 * `1)`), a character beyond ASCII, punctuation that means nothing there, a code span, an escape, or a
 * `-` or `+` that starts no list item or rule (`-5`).
 */
const PARAGRAPH_START =
  /^(?!\d{1,9}[.)](?: |$))[A-Za-z0-9,.;:()'"/%=?@[`\\]|^&lt;|^[^\p{ASCII}\s\p{C}]|^[-+](?! |$)(?![- ]*$)/u;

/**
 * Whether prettier prints a line of a reference's prose blocks as written: blank, a section's
 * anchor, or one of the templates' shapes (a `# ` or `## ` heading, a `- ` list item starting with a
 * letter or a code span, `Parameters:`, a paragraph starting as `PARAGRAPH_START` allows: never a
 * list or heading marker) whose text is `PROSE`.
 */
function plainLine(line: string): boolean {
  if (line === '' || line === 'Parameters:' || /^<a id="[a-z0-9._-]+"><\/a>$/.test(line)) return true;
  const heading = /^#{1,2} /.exec(line)?.[0];
  const text = heading !== undefined ? line.slice(heading.length) : line.startsWith('- ') ? line.slice(2) : line;
  const first = heading !== undefined ? /^[^#]/ : line.startsWith('- ') ? /^[A-Za-z`]/ : PARAGRAPH_START;
  return first.test(text) && PROSE.test(text);
}

/** Whether prettier leaves a model's section (from its `<a id>` to the next) as it is: every line is `plainLine`. */
export function plainSection(section: string): boolean {
  return section.split('\n').every(plainLine);
}

/** A line inside the generated-file header (`templates/header.hbs`): printable, no space at either end. */
const HEADER_LINE = /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u;

/**
 * Whether prettier leaves the reference's introduction (the text before the model table, ending in
 * one newline) as it is: the generated-file header, an HTML comment of whole lines (`<!--`,
 * lines with no `-->`, `-->`), which prettier prints as written; then blocks of `plainLine`s, one
 * blank line between them, and no blank line to start or after the last (prettier drops or
 * collapses those).
 */
export function plainIntroduction(text: string): boolean {
  const lines = text.split('\n');
  let start = 0;
  if (lines[0] === '<!--') {
    const end = lines.findIndex((l) => l.includes('-->'));
    if (end < 0 || lines[end] !== '-->') return false;
    if (!lines.slice(1, end).every((l) => HEADER_LINE.test(l))) return false;
    start = end + 1;
    if (lines[start] !== '') return false;
    start++;
  }
  const rest = lines.slice(start);
  // the text ends in one newline (the table's blank line is the join's): the last line is empty, none before
  if (rest.length < 2 || rest[0] === '' || rest.at(-1) !== '' || rest.at(-2) === '') return false;
  const blocks = rest.slice(0, -1);
  return blocks.every((l, i) => plainLine(l) && (l !== '' || blocks[i - 1] !== ''));
}

/**
 * `text` (the reference, unformatted) formatted as prettier formats it, with `format` (prettier's
 * Markdown formatting with the repository's options) run on the parts around the model table, and
 * the table laid out here when `layTable` can, the introduction kept as written when it is a
 * `plainIntroduction`; of the models' sections after the table, prettier formats only the runs that
 * are not `plainSection`s (each section is blocks of its own). When every part is plain, `format`
 * is not called (prettier's Markdown plugin is not loaded).
 */
export async function formatReference(text: string, format: (part: string) => Promise<string>): Promise<string> {
  const lines = text.split('\n');
  const start = lines.findIndex((l, i) => l === TABLE_HEAD[0] && lines[i + 1] === TABLE_HEAD[1]);
  if (start < 1 || lines[start - 1] !== '') return format(text);
  let end = start + 2;
  while (end < lines.length && lines[end]!.startsWith('|')) end++;
  if (end >= lines.length - 1 || lines[end] !== '') return format(text);
  const table = lines.slice(start, end);
  const laid = layTable(table) ?? (await format(`${table.join('\n')}\n`)).trimEnd();
  const intro = lines.slice(0, start).join('\n');
  const before = plainIntroduction(intro) ? intro : await format(intro);
  const sections = lines
    .slice(end + 1)
    .join('\n')
    .split(/\n(?=<a id=")/);
  const after: string[] = [];
  let run: string[] = [];
  const flush = async () => {
    if (run.length > 0) after.push((await format(`${run.join('\n')}`)).replace(/\n$/, ''));
    run = [];
  };
  for (const section of sections) {
    if (plainSection(section)) {
      await flush();
      after.push(section.replace(/\n$/, ''));
    } else run.push(section);
  }
  await flush();
  return `${before}\n${laid}\n\n${after.join('\n\n')}\n`;
}
