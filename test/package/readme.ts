/**
 * The README's TypeScript code blocks as modules a consumer project can compile: each ```ts block becomes
 * one file, with a declared `client` when the block uses one without creating it (the README creates it
 * once, in its first usage block). Everything else a block uses, it declares itself.
 */
export interface Snippet {
  /** File name in the consumer project, `readme-<NN>.ts`. */
  file: string;
  /** 1-based README line of the block's first code line. */
  line: number;
  /** The module text: the prelude, then the block. */
  text: string;
  /** Lines added before the block, to map a diagnostic back to the README. */
  preludeLines: number;
}

const FENCE = /^```(\S*)\s*$/;

/** Every ```ts / ```typescript block of a Markdown text, in order. */
export function readmeSnippets(markdown: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  let open: { lang: string; start: number; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const fence = FENCE.exec(text);
    if (open) {
      if (fence && fence[1] === '') {
        if (open.lang === 'ts' || open.lang === 'typescript')
          snippets.push(wrap(open.body.join('\n'), open.start, snippets.length));
        open = undefined;
      } else open.body.push(text);
    } else if (fence) open = { lang: fence[1]!, start: index + 2, body: [] };
  });
  if (open) throw new Error(`README.md: the code block opened at line ${open.start - 1} is never closed`);
  return snippets;
}

function wrap(code: string, line: number, index: number): Snippet {
  const createsClient = /\b(const|let)\s+client\b/.test(code);
  const prelude = [`// README.md line ${line}`, 'export {};'];
  if (!createsClient && /\bclient\b/.test(code)) {
    prelude.push(
      "import type { Client as ReadmeClient } from 'oxen-inference-sdk';",
      'declare const client: ReadmeClient;',
    );
  }
  return {
    file: `readme-${String(index + 1).padStart(2, '0')}.ts`,
    line,
    text: `${prelude.join('\n')}\n${code}\n`,
    preludeLines: prelude.length,
  };
}
