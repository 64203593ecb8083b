/**
 * The repository paths that comments and Markdown name, and the ones that do not exist (read by
 * `test/docs/paths.test.ts`). A name is checked as this repository's when it starts with one of its
 * top-level folders (`runtime/queue/run.ts`: from the root), with `./` or `../` (from the file's folder),
 * or with a folder name that exists below the root (`stages/load.ts`: from the file's folder up, or any
 * folder of that name), or is a bare file name (`coordinator.ts`: some file of that name). Any other
 * (`src/client.ts` of another project), a placeholder (`<id>.ts`) or a glob (`*.ts`) is not checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Folders never scanned nor counted as the repository's (dependencies, build output, caches). */
const SKIPPED = new Set(['node_modules', '.git', 'dist', '.tmp', 'coverage']);
/** Output that a command makes and no commit holds: named in prose, absent from a clean clone. */
const BUILT = ['dist/', 'docs/api/', '.tmp/', 'generator/dist/', 'node_modules/', 'coverage/'];
/** Files whose relative names start from the repository root (they run there). */
const RUN_FROM_ROOT = /^\.github\/|^\.ci\//;
/** Declaration files exist only in `dist/` (`flux-2-pro.d.ts`); `.d.ts` alone names a kind of file. */
const DECLARATION = /\.d\.[mc]?ts$/;
/** File kinds whose names are checked (a bare name of another kind, such as `x.json`, is data, not a file). */
const CHECKED_EXTENSIONS = /\.(?:ts|mts|cts|mjs|cjs|js|md|hbs|json|ya?ml)$/;
const BARE_EXTENSIONS = /\.(?:ts|mts|cts|mjs|cjs|hbs)$/;

/** A name found in a file, with its line (1-based). */
export interface PathMention {
  file: string;
  line: number;
  name: string;
}

/** The repository's files and folders, posix paths relative to `root` (folders end with `/`). */
export function listRepository(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (SKIPPED.has(entry.name) || (rel === 'docs/' && entry.name === 'api')) continue;
      const p = `${rel}${entry.name}`;
      if (entry.isDirectory()) {
        out.push(`${p}/`);
        walk(`${p}/`);
      } else out.push(p);
    }
  };
  walk('');
  return out.sort();
}

/** The text of every comment of a TypeScript or JavaScript file, each with its first line. */
export function commentsOf(text: string, file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, { text: string; line: number }>();
  const add = (ranges: ts.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.set(r.pos, { text: text.slice(r.pos, r.end), line: source.getLineAndCharacterOfPosition(r.pos).line + 1 });
    }
  };
  const visit = (node: ts.Node): void => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  add(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
}

/** A path-like name: optional `./` or `../`, folders, then a file name with an extension or a final `/`. */
const TOKEN = /(?<![\w.@:/~-])(?:\.{1,2}\/)?(?:[\w.-]+\/)*[\w.-]+(?:\.[a-z]{1,5}|\/)(?![\w/-])/g;

/** The path-like names in a piece of prose: `a/b.ts`, `a/b/`, a bare file name; no URL, placeholder or glob. */
export function namesIn(text: string): { name: string; index: number }[] {
  const out: { name: string; index: number }[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const name = m[0];
    const before = text.slice(Math.max(0, m.index - 12), m.index);
    if (/[<>*{$]/.test(text[m.index + name.length] ?? '') || /[<*{$]$/.test(before)) continue;
    if (/(?:https?|file):\/\/\S*$/.test(before)) continue;
    if (name.includes('...') || DECLARATION.test(name) || /^\.[a-z.]+$/.test(name)) continue;
    const isFolder = name.endsWith('/');
    if (!isFolder && !CHECKED_EXTENSIONS.test(name)) continue;
    if (!isFolder && !name.includes('/') && !BARE_EXTENSIONS.test(name)) continue;
    if (isFolder && !name.slice(0, -1).includes('/') && !/^[\w-]+\/$/.test(name)) continue;
    out.push({ name, index: m.index });
  }
  return out;
}

/** Resolves a name as this repository's: `'ok'`, `'missing'`, or `'foreign'` (another project's, not checked). */
export function resolveName(
  name: string,
  from: string,
  repo: { entries: Set<string>; topLevel: Set<string>; folders: Set<string>; byBase: Map<string, string[]> },
): 'ok' | 'missing' | 'foreign' {
  if (BUILT.some((b) => name === b || name.startsWith(b))) return 'ok';
  // The built file of a source (`runtime/index.js` of `runtime/index.ts`), as the build docs name them.
  const source = name.replace(/\.c?js$/, '.ts');
  if (source !== name && resolveName(source, from, repo) === 'ok') return 'ok';
  const dir = path.posix.dirname(from);
  if (name.startsWith('./') || name.startsWith('../')) {
    // CI's scripts and workflows run in the repository root; any other file names a path from its own folder.
    const base = RUN_FROM_ROOT.test(from) ? '.' : dir;
    const p = path.posix.normalize(path.posix.join(base, name));
    if (repo.entries.has(p) || repo.entries.has(`${p}/`)) return 'ok';
    // An import specifier quoted from another module (`./exports.js` of `runtime/index.ts`): the name without
    // its leading `./` or `../` must still be this repository's.
    const bare = name.replace(/^(?:\.{1,2}\/)+/, '');
    return bare.includes('/') || BARE_EXTENSIONS.test(bare) || /\.c?js$/.test(bare)
      ? resolveName(bare, from, repo)
      : 'missing';
  }
  const segments = name.split('/').filter(Boolean);
  if (segments.length > 1 || name.endsWith('/')) {
    const first = `${segments[0]}/`;
    if (repo.topLevel.has(first)) return repo.entries.has(name) ? 'ok' : 'missing';
    // Relative to the file's folder, or to a folder of that name anywhere in the repository.
    for (let d = dir; ; d = path.posix.dirname(d)) {
      const p = d === '.' ? name : `${d}/${name}`;
      if (repo.entries.has(p)) return 'ok';
      if (d === '.' || d === '/') break;
    }
    if (!repo.folders.has(first)) return 'foreign';
    for (const e of repo.entries) if (e.endsWith(`/${name}`)) return 'ok';
    return 'missing';
  }
  return repo.byBase.has(name) ? 'ok' : 'missing';
}

/** Markdown with each fenced code block blanked, lines kept: code blocks show a user's project, not this one. */
export function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ''));
}

/** Every name in `files` (relative to `root`) that this repository does not hold. */
export function missingPaths(root: string, files: string[]): PathMention[] {
  const all = listRepository(root);
  const entries = new Set(all);
  const topLevel = new Set(all.filter((e) => /^[^/]+\/$/.test(e)));
  const folders = new Set(all.filter((e) => e.endsWith('/')).map((e) => `${e.slice(0, -1).split('/').pop()}/`));
  const byBase = new Map<string, string[]>();
  for (const e of all)
    if (!e.endsWith('/')) byBase.set(path.posix.basename(e), [...(byBase.get(path.posix.basename(e)) ?? []), e]);
  const repo = { entries, topLevel, folders, byBase };
  const out: PathMention[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const pieces = /\.(?:[jt]s|[mc][jt]s)$/.test(file)
      ? commentsOf(text, file)
      : [{ text: file.endsWith('.md') ? withoutCodeBlocks(text) : text, line: 1 }];
    for (const piece of pieces) {
      for (const { name, index } of namesIn(piece.text)) {
        if (resolveName(name, file, repo) !== 'missing') continue;
        const line = piece.line + (piece.text.slice(0, index).match(/\n/g)?.length ?? 0);
        out.push({ file, line, name });
      }
    }
  }
  return out;
}

/**
 * A path of one machine: under the root folders `work`, `home/<user>` or `Users`, or a named file or folder
 * under `tmp` (the folder alone may be named). Written in pieces so that this file does not match itself.
 */
export const MACHINE_PATH = new RegExp(
  ['(?<![\\w.~-])(?:', '/wo', 'rk/|', '/ho', 'me/[a-z_][\\w.-]*/|', '/Us', 'ers/|', '/t', 'mp/[\\w.-]+)'].join(''),
);

/** Each line of `files` (relative to `root`) that names a path of one machine. */
export function machinePaths(root: string, files: string[]): PathMention[] {
  const out: PathMention[] = [];
  for (const file of files) {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((text, i) => {
      const m = MACHINE_PATH.exec(text);
      if (m) out.push({ file, line: i + 1, name: m[0] });
    });
  }
  return out;
}
