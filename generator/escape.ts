/**
 * The one escaping path of the generator. Every string that comes from a model object (a property
 * name, a description, an enum value, a default, a display name, the model id itself) reaches
 * generated code only through a function of this file:
 * - `stringLiteral`: a TypeScript string literal (JSON's escaping, plus U+2028/U+2029 and `</`);
 * - `propertyKey`: an object or interface key: a plain identifier when it is one (and not
 *   `__proto__`), else a quoted string literal;
 * - `commentText`: text inside a `/** ... *\/` comment: it can never close the comment (`*\/`
 *   broken up), and CR, LS and PS become line feeds;
 * - `docText`, `docCode`: model text in a doc comment, with no `@` that could start a tag.
 * A JSON value becomes a syntax node through these (`stages/printer.ts` `jsonExpression`, which
 * writes `"__proto__"` as a computed key, so it is an own property, not the prototype).
 * Identifiers never come from model data: only from `generator/stages/name.ts`.
 *
 * Control characters (`CONTROLS`: C0 but tab and line feed, DEL, C1, and the bidirectional-text
 * controls of `BIDI_CONTROLS`) never reach any output raw: a NUL makes git treat a file as binary,
 * ESC and the C1 controls drive a terminal that shows the file (title, screen, clipboard), and
 * bidirectional controls make code display in another order than it runs ("Trojan Source"). String
 * literals, keys and validator code carry them as `\uXXXX` escapes, comments and Markdown as the
 * visible text `<U+XXXX>`, as does what the generator's commands print (`showControls`).
 */

/** Bidirectional-text controls (embeddings, overrides, isolates, marks): they reorder how text is shown. */
export const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Every character that must not reach an output or a terminal raw: C0 controls but tab and line
 * feed (CR included: it rewrites a terminal line), DEL, the C1 controls (U+0080-U+009F: U+009B is
 * a terminal's CSI) and `BIDI_CONTROLS`.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** A character as visible text, e.g. `<U+202E>`. */
function visible(c: string): string {
  return `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Text with every control character (`CONTROLS`) shown as `<U+XXXX>`: comments, Markdown, and
 * everything the generator's commands print (messages, errors, reports, progress lines), so that
 * text from the service or a model object (an error body, a property name in a JSON pointer) cannot
 * move the cursor, clear the screen, set the title or write the clipboard (OSC 52) of a terminal.
 * Line feeds and tabs stay.
 */
export function showControls(text: string): string {
  return text.replace(CONTROLS, visible);
}

/** A character as a `\uXXXX` escape (string, template and regular-expression literals). */
function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Code that a library printed from model data (ajv's standalone validators), with every control
 * character (`CONTROLS`) as a `\uXXXX` escape: such a library puts model text only inside string,
 * template and regular-expression literals, where the escape stands for the same character (its
 * own code has line feeds and tabs only).
 */
export function escapeControlsInCode(code: string): string {
  return code.replace(CONTROLS, unicodeEscape);
}

/** A TypeScript identifier that needs no quoting as a property name (ASCII only, on purpose). */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True when `name` can be written unquoted as a property name. */
export function isPlainKey(name: string): boolean {
  return IDENTIFIER.test(name) && name !== '__proto__';
}

/** A TypeScript string literal (double-quoted) holding exactly `text`. */
export function stringLiteral(text: string): string {
  // JSON.stringify escapes quotes, backslashes and C0 controls (CR, LF included); it leaves DEL, C1,
  // U+2028/U+2029 (valid in ES2019 strings, but not in every tool) and `</script` as they are.
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replace(CONTROLS, unicodeEscape)
    .replace(/<\//g, '<\\/');
}

/** A property name: plain when it is an identifier, else a string literal. */
export function propertyKey(name: string): string {
  return isPlainKey(name) ? name : stringLiteral(name);
}

/**
 * Text made safe inside a block comment: `*\/` can never appear (every `*` followed by `/` gets a
 * backslash between), `/*` is broken up too (no nested-comment confusion for readers), CR, CRLF,
 * LS and PS become line feeds (the caller prefixes each line with ` * `), and every other control
 * character is shown as `<U+XXXX>` (`showControls`).
 */
export function commentText(text: string): string {
  return showControls(text.replace(/\r\n?|\u2028|\u2029/g, '\n'))
    .replace(/\*\//g, '*\\/')
    .replace(/\/\*/g, '/\\*');
}

/**
 * An `@` that TypeScript's or TypeDoc's comment parser could take for the start of a tag: one that
 * does not follow a letter, a digit or a backslash, with the word it starts (`@` included, so that
 * no `@` directly follows the span made of it).
 */
const TAG_AT = /(?<![\p{L}\p{N}\\])@[\p{L}\p{N}_$@-]*/gu;

/**
 * Model text (a description, a display name, a default) inside doc comments, with every `@` that
 * could start a tag (`@Image1`, `{@link x}`) made plain text:
 * - text without a backtick: the word is wrapped in a code span, `` `@Image1` ``. TypeScript reads a
 *   tag only at an `@` after white space (or a line start), TypeDoc also at a token start, and
 *   neither inside a code span; every `@` here follows the span's backtick, and a span opened by
 *   this function pairs only with its own closing backtick (the text has no other). Editors'
 *   hovers render the span as the original word, in code font, and copying it gives `@Image1`
 *   exactly: no invisible joiner (which editors flag and which copying would carry into a
 *   prompt) and no look-alike at sign (U+FF20, a different character);
 * - text with a backtick (no description of the snapshot has one with such an `@`): its own
 *   backticks would pair with the added ones in ways the two parsers read differently, so the
 *   `@` gets TSDoc's escape, `\@`, which both parsers read as text (a hover may show the backslash).
 * Used before `commentText`; not for text inside a code span (`docCode`).
 */
export function docText(text: string): string {
  if (text.includes('`')) return text.replace(/(?<![\p{L}\p{N}\\])@/gu, '\\@');
  return text.replace(TAG_AT, (word) => `\`${word}\``);
}

/**
 * Model text as a code span inside a doc comment (a schema path in `@see`): one line (line breaks
 * become spaces), a fence longer than any backtick run of the text, and `\@` for an `@` that could
 * start a tag (TypeScript does not read code spans in a comment's description). Used before
 * `commentText`.
 */
export function docCode(text: string): string {
  const clean = text.replace(/\r\n?|\n|\u2028|\u2029/g, ' ').replace(/(?<![\p{L}\p{N}\\])@/gu, '\\@');
  const runs = clean.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  return clean.includes('`') ? `${fence} ${clean} ${fence}` : `${fence}${clean}${fence}`;
}

/**
 * The pieces of model text that Markdown (and prettier's Markdown printer, which keeps each as written)
 * reads as plain text: a code span of single backticks, with no space at either end and no backtick
 * beside it; a `[word]` that no link target follows (with no definitions in the file, it is text); an
 * `_` between ASCII letters or digits (it can open no emphasis); an `@` after none (no e-mail
 * autolink); a `~` after a space and before a letter or digit (it can close no strikethrough); `<`
 * (written `&lt;`); and any other ASCII punctuation character, kept when it means nothing inline
 * (`, . ; : ( ) ' " / % + = ? -`) and else backslash-escaped (`\*`, `\_`, `\[`, `\#`, `\|`, `\\`, ...).
 */
const MARKDOWN_PIECE =
  /((?<!`)`[^`\s](?:[^`]*[^`\s])?`(?!`)|\[[A-Za-z0-9.-]+(?: [A-Za-z0-9.-]+)*\](?![([:])|(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])|(?<![A-Za-z0-9])@|(?<= )~(?=[A-Za-z0-9]))|(:(?=\/\/)|(?<=mailto):|(?<=(?<![A-Za-z0-9_])www)\.)|[!-/:-@[-`{-~]/gi;

/** ASCII punctuation that means nothing inline in Markdown: written as it is. */
const MARKDOWN_INERT = /^[,.;:()'"/%+=?-]$/;

/**
 * Model text as Markdown prose on one line, in the form prettier's Markdown printer keeps (so that
 * `generated/MODELS.md` needs no Markdown formatting: stages/reference-layout.ts), and with no
 * Markdown of its own: white space runs become one space (none at either end), control
 * characters are shown (`showControls`), `<` is `&lt;` (no HTML), every ASCII punctuation
 * character that could mean something (emphasis, a link, an image, an entity, a strikethrough, a
 * table cell, a heading's `#`) is backslash-escaped but for the plain pieces of `MARKDOWN_PIECE`,
 * and a start that would open a block where the text starts a line (a `-` or `+` list item, an
 * ordered one's `1.`, a `---` rule) is escaped too. Inside its code spans, `<` is `&lt;` and, with
 * `cell` (a table cell), `|` is `\|` (GitHub ends a cell at a raw `|` even there).
 */
function markdownProse(text: string, cell: boolean): string {
  const line = showControls(text.replace(/\s+/gu, ' ').trim());
  const escaped = line.replace(MARKDOWN_PIECE, (piece, plain: string | undefined, link: string | undefined) => {
    if (plain !== undefined) return piece.startsWith('`') ? codeSpanText(piece, cell) : piece;
    if (piece === '<') return '&lt;';
    return MARKDOWN_INERT.test(piece) && link === undefined ? piece : `\\${piece}`;
  });
  return escaped
    .replace(/^[-+](?= |$)|^-(?=[- ]*$)/, (marker) => `\\${marker}`)
    .replace(/^(\d{1,9})([.)])(?= |$)/, '$1\\$2');
}

/** A code span of `markdownProse`: `<` as `&lt;`, and in a table cell `|` as `\|`. */
function codeSpanText(span: string, cell: boolean): string {
  const text = span.replace(/</g, '&lt;');
  return cell ? text.replace(/\|/g, '\\|') : text;
}

/** Model text as Markdown prose on one line (`markdownProse`): MODELS.md's descriptions and ranges. */
export function markdownText(text: string): string {
  return markdownProse(text, false);
}

/** Model text as a Markdown table cell (`markdownProse`, every `|` escaped): MODELS.md's titles. */
export function markdownCell(text: string): string {
  return markdownProse(text, true);
}

/** Markdown inline code holding `text` on one line (backticks in it are handled by a longer fence; not for table cells). */
export function markdownCode(text: string): string {
  const clean = showControls(text.replace(/\r\n?|\n|\u2028|\u2029/g, ' '));
  const runs = clean.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  return clean.includes('`') ? `${fence} ${clean} ${fence}` : `\`${clean}\``;
}
