/**
 * Helpers of the generator tests: temporary specs directories, model fixtures, and what the oddity
 * cases (oddities.test.ts) need to read, compile and import a run's output. What every area uses
 * (the repository root, child processes, file-tree hashes) is in test/support/.
 */
import { realpathSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { load as parseYaml } from 'js-yaml';
import ts from 'typescript';
import { compilerOptions } from '../../fuzz/compile.ts';
import type { OpenApiDoc } from '../../generator/stages/load.ts';
import { operationsOf, type OperationsTable } from '../../generator/stages/operations.ts';
import { specFile } from '../../generator/stages/name.ts';
import { REPO_ROOT, start, tempDir, tsxArgs, type Running } from '../support/index.ts';

/** The operations table of the repository's `specs/openapi.yaml` (`generator/stages/operations.ts`). */
export async function repositoryOperations(): Promise<OperationsTable> {
  const text = await readFile(path.join(REPO_ROOT, 'specs', 'openapi.yaml'), 'utf8');
  return operationsOf(parseYaml(text) as OpenApiDoc, 'specs/openapi.yaml');
}

/** A temporary directory holding `specs/` (openapi.yaml and the chosen models) and an output root. */
export interface TempSpecs {
  root: string;
  specsDir: string;
  cleanup(): Promise<void>;
}

/**
 * Copy the repository's openapi.yaml and the given snapshot models (all when `ids` is undefined)
 * into a new temporary `specs/`; `extra` adds or replaces model files by id (raw text or an object).
 */
export async function tempSpecs(ids?: string[], extra: Record<string, unknown> = {}): Promise<TempSpecs> {
  const { dir: root, remove } = tempDir('inference-sdk-test-');
  const specsDir = path.join(root, 'specs');
  await cp(path.join(REPO_ROOT, 'specs', 'openapi.yaml'), path.join(specsDir, 'openapi.yaml'));
  const all = JSON.parse(await readFile(path.join(REPO_ROOT, 'specs', 'models.json'), 'utf8')) as string[];
  const chosen = ids ?? all;
  for (const id of chosen) await cp(path.join(REPO_ROOT, 'specs', specFile(id)), path.join(specsDir, specFile(id)));
  await mkdir(path.join(specsDir, 'models'), { recursive: true });
  for (const [id, value] of Object.entries(extra)) {
    await writeFile(
      path.join(specsDir, specFile(id)),
      typeof value === 'string' ? value : JSON.stringify(value, null, 2),
    );
  }
  const list = [...new Set([...chosen, ...Object.keys(extra)])];
  await writeFile(path.join(specsDir, 'models.json'), JSON.stringify(list, null, 2) + '\n');
  return { root, specsDir, cleanup: async () => remove() };
}

/** A model-details object for fixtures. */
export function fixtureModel(
  id: string,
  schema: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    object: 'model',
    display_name: id,
    description: 'fixture',
    endpoint: '/images/generate',
    capabilities: { input: ['text'], output: ['image'] },
    request_schema: schema,
    ...extra,
  };
}

/** The expected type of one property of a parameter interface. */
export interface ExpectedParam {
  required: boolean;
  /** A union of literals (in schema order), or the type's text with whitespace collapsed and single quotes. */
  type: string | ReadonlyArray<string | number>;
}

/**
 * One oddity of real model objects, as a small synthetic model with its expectations
 * (test/generator/fixtures/oddities/, one file each; run by oddities.test.ts).
 */
export interface Oddity {
  /** What is odd, in one line. */
  about: string;
  /** The model object as the models API serves it. */
  model: Record<string, unknown> & { id: string };
  /** Every property of the parameter interface, exactly. */
  params: Record<string, ExpectedParam>;
  /** Every exported function of the model module, exactly. */
  functions: string[];
  /** Queue request bodies (without `model`) that the generated validator accepts, and some it refuses. */
  accepts?: Record<string, unknown>[];
  refuses?: Record<string, unknown>[];
  /**
   * TypeScript that uses the module (`generated/models/<id>.ts` and `runtime/index.ts` by relative paths) and must
   * compile, `@ts-expect-error` cases included.
   */
  usage?: string;
  /** Further assertions on the output. */
  check?: (out: OddityOutput) => void | Promise<void>;
}

/** What a run made for one oddity. */
export interface OddityOutput {
  /** The model module's text. */
  module: string;
  /** The parsed model module. */
  source: ts.SourceFile;
  /** The parameter interface. */
  params: ts.InterfaceDeclaration;
  /** The module, imported. */
  exports: Record<string, unknown>;
  /** MODELS.md of the run. */
  reference: string;
}

/** The properties of an interface: name -> required and type (see `ExpectedParam`). */
export function membersOf(decl: ts.InterfaceDeclaration, sf: ts.SourceFile): Record<string, ExpectedParam> {
  const out: Record<string, ExpectedParam> = {};
  for (const m of decl.members) {
    if (!ts.isPropertySignature(m) || !m.type) continue;
    const name = ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : m.name.getText(sf);
    out[name] = { required: !m.questionToken, type: typeShape(m.type, sf) };
  }
  return out;
}

function typeShape(type: ts.TypeNode, sf: ts.SourceFile): ExpectedParam['type'] {
  const literal = (t: ts.TypeNode): string | number | undefined => {
    if (!ts.isLiteralTypeNode(t)) return undefined;
    if (ts.isStringLiteral(t.literal)) return t.literal.text;
    if (ts.isNumericLiteral(t.literal)) return Number(t.literal.text);
    return undefined;
  };
  const members = ts.isUnionTypeNode(type) ? [...type.types] : [type];
  const literals = members.map(literal);
  if (literals.every((l) => l !== undefined)) return literals;
  return ts
    .createPrinter({ removeComments: true })
    .printNode(ts.EmitHint.Unspecified, type, sf)
    .replace(/\s+/g, ' ')
    .replace(/\[ | \]/g, (m) => m.trim())
    .replace(/"([^"']*)"/g, "'$1'");
}

/** The JSDoc tag names on a node (`see`, `default`, ...). */
export function jsDocTags(node: ts.Node): string[] {
  return ts.getJSDocTags(node).map((t) => t.tagName.text);
}

/** Every `.ts` file under `dir` (absolute paths, sorted). */
export async function tsFilesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/**
 * Type-check `files` (and what they import) with the repository's compiler options.
 * @returns the diagnostics of files under `root`, as `file:line TScode: message`.
 */
export function compileErrors(root: string, files: string[]): string[] {
  const program = ts.createProgram(files, compilerOptions());
  const real = realpathSync(root);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !d.file || d.file.fileName.startsWith(real) || d.file.fileName.startsWith(root))
    .map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
      if (!d.file || d.start === undefined) return `TS${d.code}: ${text}`;
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      return `${path.relative(real, d.file.fileName)}:${line + 1} TS${d.code}: ${text}`;
    });
}

/**
 * Make `root` (a run's output root) compile and import like the repository: `runtime/` and
 * `node_modules/` linked, ES modules.
 */
export async function linkRuntime(root: string): Promise<void> {
  await symlink(path.join(REPO_ROOT, 'runtime'), path.join(root, 'runtime'), 'dir');
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  await writeFile(path.join(root, 'package.json'), '{ "type": "module", "private": true }\n');
}

/**
 * A child running `test/generator/fixtures/write-child.ts` with `args` (`<root> <variant> [runtime]`: it
 * writes that variant's files into `<root>`) and `env` added to this process's; with
 * `OXEN_GENERATE_TEST_PAUSE=<point>` it stops there and prints `generate: paused at <point>`.
 */
export function writeChild(args: readonly string[], env: Record<string, string> = {}): Running {
  return start(process.execPath, tsxArgs('test/generator/fixtures/write-child.ts', args), {
    env: { ...process.env, ...env },
  });
}
