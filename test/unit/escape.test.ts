/**
 * The generator's escaping (generator/escape.ts): every string of a model object reaches generated
 * code through these functions, so each must keep the text as data whatever it holds.
 */
import vm from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commentText,
  docText,
  isPlainKey,
  markdownCell,
  markdownCode,
  markdownText,
  propertyKey,
  stringLiteral,
} from '../../generator/escape.ts';

/** Strings with the characters that matter here: comment ends, quotes, line breaks, bidi controls, lone surrogates. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '*',
      '/',
      '\\',
      '"',
      "'",
      '`',
      '@',
      '<',
      '|',
      '\n',
      '\r',
      '\u2028',
      '\u2029',
      '\u202E',
      '\ud800',
      '{',
    ),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
  maxLength: 40,
});

/** Evaluates a TypeScript expression that is also JavaScript (in this realm, so prototypes compare). */
const evaluate = (expr: string): unknown => new vm.Script(`(${expr})`).runInThisContext() as unknown;

describe('stringLiteral', () => {
  it('is a literal holding exactly the text, on one line, without raw U+2028/U+2029, bidi controls or `</`', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const lit = stringLiteral(s);
        expect(evaluate(lit)).toBe(s);
        expect(lit).not.toMatch(/[\n\r\u2028\u2029\u202E]|<\//);
      }),
    );
  });
});

describe('propertyKey', () => {
  it('is plain for identifiers, quoted otherwise, and `__proto__` is always quoted', () => {
    expect(propertyKey('aspect_ratio')).toBe('aspect_ratio');
    expect(propertyKey('[k: string]')).toBe('"[k: string]"');
    expect(propertyKey('x-order')).toBe('"x-order"');
    expect(propertyKey('__proto__')).toBe('"__proto__"');
    expect(isPlainKey('héllo')).toBe(false);
  });

  it('names the same property as the text', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const o = evaluate(`{ ${propertyKey(s)}: 1 }`) as Record<string, number>;
        if (s !== '__proto__') expect(Object.keys(o)).toEqual([s]);
      }),
    );
  });
});

describe('commentText', () => {
  it('can never close or open a block comment, and has only line feeds as line breaks', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const c = commentText(s);
        expect(c).not.toContain('*/');
        expect(c).not.toContain('/*');
        expect(c).not.toMatch(/[\r\u2028\u2029\u202E]/);
        expect(evaluate(`/** ${c.split('\n').join('\n * ')} */ 1`)).toBe(1);
      }),
    );
  });

  it('shows bidi controls as visible text', () => {
    expect(commentText('a\u202Eb')).toBe('a<U+202E>b');
  });
});

describe('docText', () => {
  it('puts an `@` that starts a word or an inline tag in a code span, and leaves others', () => {
    expect(docText('Use @Image1 and @Image2')).toBe('Use `@Image1` and `@Image2`');
    expect(docText("'@Image1'")).toBe("'`@Image1`'");
    expect(docText('{@link x}')).toBe('{`@link` x}');
    expect(docText('@default')).toBe('`@default`');
    expect(docText('mail a@b.c')).toBe('mail a@b.c');
  });

  it('falls back to `\\@` when the text has backticks of its own (added ones could pair with them)', () => {
    expect(docText('a `code` and @x')).toBe('a `code` and \\@x');
  });
});

describe('markdown', () => {
  it('markdownCell is one line, with no raw `<` or unescaped `|`', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const cell = markdownCell(s);
        expect(cell).not.toMatch(/[\n\r\u2028\u2029<]/);
        expect(cell.replace(/\\\|/g, '')).not.toContain('|');
      }),
    );
  });

  it('markdownText escapes what Markdown would read (emphasis, links, HTML, headings, lists, autolinks), keeping plain prose as it is', () => {
    // plain prose, `[word]`, intraword `_`, code spans: as written
    expect(markdownText('A 2.5x model (see [dev]) for snake_case `a*b` @Image1, ~3 s.')).toBe(
      'A 2.5x model (see [dev]) for snake_case `a*b` @Image1, ~3 s.',
    );
    expect(markdownText('you *do not* want')).toBe(String.raw`you \*do not\* want`);
    expect(markdownText("'adhere_*' and _x_")).toBe(String.raw`'adhere\_\*' and \_x\_`);
    expect(markdownText('[a](http://b) ![i](j) [r]: x')).toBe(String.raw`\[a\](http\://b) \!\[i\](j) \[r\]: x`);
    expect(markdownText('<img src=x> & &amp; a\\b | ~~s~~ $x$')).toBe(
      String.raw`&lt;img src=x\> \& \&amp; a\\b \| \~\~s\~\~ \$x\$`,
    );
    expect(markdownText('see www.example.com or a@b.c')).toBe(String.raw`see www\.example.com or a\@b.c`);
    // a start that would open a block where the text starts a line
    expect(['# h', '- a', '+ a', '1. a', '2) a', '---', '> q', '```js', '    code'].map(markdownText)).toEqual([
      String.raw`\# h`,
      String.raw`\- a`,
      String.raw`\+ a`,
      String.raw`1\. a`,
      String.raw`2\) a`,
      String.raw`\---`,
      String.raw`\> q`,
      String.raw`\`\`\`js`,
      'code',
    ]);
    // one line, single spaces
    expect(markdownText(' a \n\n b\t c ')).toBe('a b c');
  });

  it('markdownCode fences with more backticks than any run inside', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const code = markdownCode(s);
        const fence = /^`+/.exec(code)![0];
        expect(code.endsWith(fence)).toBe(true);
        const inner = code.slice(fence.length, code.length - fence.length);
        for (const run of inner.match(/`+/g) ?? []) expect(run.length).toBeLessThan(fence.length);
        expect(code).not.toMatch(/[\n\r]/);
      }),
    );
  });
});
