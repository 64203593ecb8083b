/** Re-indenting JSON text without re-serialising it (the snapshot keeps what the server sent). */

/**
 * Pretty-print JSON text with 2-space indentation (the layout of `JSON.stringify(v, null, 2)`)
 * without re-serialising its values: keys stay in the order sent, and number and string literals
 * stay byte for byte as sent (`2.0` stays `2.0`, escapes stay escapes, big integers keep their digits).
 * @param text valid JSON (check with `JSON.parse` first; the output of invalid input is unspecified).
 * @returns the indented text, without a trailing newline.
 */
export function reindentJson(text: string): string {
  let out = '';
  let depth = 0;
  const nl = () => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '{' || c === '[') {
      // An empty container stays on one line.
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] === (c === '{' ? '}' : ']')) {
        out += c === '{' ? '{}' : '[]';
        i = j;
      } else {
        depth++;
        out += c + nl();
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out += nl() + c;
    } else if (c === ',') out += `,${nl()}`;
    else if (c === ':') out += ': ';
    else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') out += c;
  }
  return out;
}
