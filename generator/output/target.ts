/**
 * The two targets of the one generator pipeline (`generate()` in `generator/index.ts`):
 *
 * - `packageTarget`: this repository's `generated/` (`npm run generate`): relative imports of
 *   `runtime/` with `.ts` specifiers, plus `generated/openapi.ts` and `generated/MODELS.md`;
 * - `userTarget(...)`: a user's own directory (`oxen-inference-codegen add|generate`, default
 *   `oxen-models/`): `index.ts` (which declares the parameter types itself), `validator-table.ts`,
 *   `models/<id>.ts`, `validators/<id>.ts` and `manifest.json` at its top, the runtime imported
 *   from the installed SDK by package name, `.js` relative specifiers.
 *
 * A target says only where files go, how they import the runtime, how their header names the
 * command and how they are formatted; every stage is the same for both.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isManifest } from './manifest.ts';

/** The SDK package's name, as user-target files import it. */
export const SDK_PACKAGE = 'oxen-inference-sdk';
/** The generator package's name (and its one bin). */
export const CODEGEN_PACKAGE = 'oxen-inference-codegen';

/** Module specifiers of the runtime as seen from `models/<id>.ts` and `validators/<id>.ts`. */
export interface RuntimeSpecifiers {
  /** The runtime's types (`Transport`, `MediaParams`, ...). */
  types: string;
  /** The light endpoint functions (`generateImages`, `enqueueGenerations`, ...). */
  endpoints: string;
  /** `runGenerations` (the `<model>Run` functions). */
  queueRun: string;
  /** `CompiledValidator` (validator files). */
  validation: string;
  /** `ucs2length`, `equal` (validator files). */
  validatorSupport: string;
  /** `standardSchemaFor` (a model's `<camel>QueueSchema`). */
  standardSchema: string;
}

/** Where and how one run writes. */
export interface Target {
  kind: 'package' | 'user';
  /** Prefix of every output path relative to the output root: `generated/` or `''`. */
  prefix: string;
  /**
   * Directories (relative to the output root) whose files the run does not produce are stale and
   * removed; one the run produces no file in is removed whole (`stages/write.ts`' `swapsOf`).
   */
  managed: string[];
  /** Extension of relative import specifiers: `.ts` (this repository: `allowImportingTsExtensions`) or `.js` (a user's project). */
  ext: '.ts' | '.js';
  runtime: RuntimeSpecifiers;
  /** Whether `openapi.ts` and `MODELS.md` are produced (the package's own entry points). */
  packageFiles: boolean;
  /** What the generated-file header names: the command, the tool, and how to change the file. */
  header: { command: string; tool: string; change: string };
  /**
   * How output files are formatted: `'repository'`, with prettier and this repository's
   * `.prettierrc.json`; `{ prettier }`, with prettier and these options (a user's project's own
   * configuration); `null`, not at all: files are as the TypeScript printer and the templates give
   * them. Validators are never formatted (ajv's machine code).
   */
  format: 'repository' | { prettier: Record<string, unknown> } | null;
}

/**
 * The one output file of the package target outside `generated/`, produced with
 * `GenerateOptions.runtime` (`npm run generate` in this repository): the runtime's operations table
 * (`stages/operations-module.ts`), relative to the repository.
 */
export const RUNTIME_OPERATIONS_FILE = 'runtime/operations.ts';

/**
 * Whether a run of `target` into `outRoot` produces `RUNTIME_OPERATIONS_FILE` by default: the
 * package target written into the repository whose runtime it is (`repoRoot`), not into another
 * output root (a test's, a benchmark's), whose `runtime/` is not the generator's.
 */
export function writesRuntime(target: Target, outRoot: string, repoRoot: string): boolean {
  return target.kind === 'package' && path.resolve(outRoot) === path.resolve(repoRoot);
}

/** This repository's `generated/`. */
export const packageTarget: Target = {
  kind: 'package',
  prefix: 'generated/',
  managed: ['generated'],
  ext: '.ts',
  runtime: {
    types: '../../runtime/index.ts',
    endpoints: '../../runtime/endpoints.ts',
    queueRun: '../../runtime/queue/run.ts',
    validation: '../../runtime/validation.ts',
    validatorSupport: '../../runtime/validator-support.ts',
    standardSchema: '../../runtime/standard-schema.ts',
  },
  packageFiles: true,
  header: {
    command: 'npm run generate',
    tool: 'generator/, templates/',
    change: 'change the specs, the generator or the templates and run `npm run generate` again.',
  },
  format: 'repository',
};

/**
 * A user's directory: files at its top, the runtime from the installed `oxen-inference-sdk`.
 * @param version the generator package's version, named in every header.
 * @param format the options of prettier to format the files with (the user's project's own
 * configuration), or null (the default) to leave them as printed.
 */
export function userTarget(version: string, format: { prettier: Record<string, unknown> } | null = null): Target {
  return {
    kind: 'user',
    prefix: '',
    // `params/`: no longer produced (the index declares the parameter types), owned so that a
    // project generated before loses its old files
    managed: ['models', 'params', 'validators'],
    ext: '.js',
    runtime: {
      types: `${SDK_PACKAGE}/runtime`,
      endpoints: `${SDK_PACKAGE}/runtime`,
      // the root entry: `oxen-inference-sdk/runtime` carries no queue-run code (see runtime/index.ts)
      queueRun: SDK_PACKAGE,
      validation: `${SDK_PACKAGE}/runtime`,
      validatorSupport: `${SDK_PACKAGE}/validator-support`,
      standardSchema: `${SDK_PACKAGE}/runtime`,
    },
    packageFiles: false,
    header: {
      command: `${CODEGEN_PACKAGE} generate`,
      tool: `${CODEGEN_PACKAGE} ${version}`,
      change: `change the snapshot with \`${CODEGEN_PACKAGE} add\`, \`remove\` or \`refresh\`, or run \`${CODEGEN_PACKAGE} generate\` again.`,
    },
    format,
  };
}

/**
 * Refuse to write into a folder this generator did not make: the folder the target's output owns
 * (a user's `<out>`, or `<root>/generated`) when it holds anything but hidden files and the
 * snapshot folder `specs/`, and no manifest of this generator (`manifest.json` with its own line,
 * even one a merge conflict left unparsable). A run there would replace what is in it (a user's
 * `models/`, `validators/`, `index.ts`). A missing or empty folder is fine: the run makes it.
 * @throws Error naming the folder and `--force`, unless `force`.
 */
export async function checkOwnedOutput(outRoot: string, target: Target, options: { force: boolean }): Promise<void> {
  if (options.force) return;
  const dir = path.join(outRoot, target.prefix);
  const names = await readdir(dir).catch(() => [] as string[]);
  const others = names.filter((n) => !n.startsWith('.') && n !== 'specs').sort();
  if (others.length === 0 || isManifest(await readFile(path.join(dir, 'manifest.json'), 'utf8').catch(() => '')))
    return;
  const shown = others.slice(0, 5).join(', ') + (others.length > 5 ? ', ...' : '');
  throw new Error(
    `${dir} is not empty (${shown}) and holds no manifest.json of this generator: it would replace files it did not make. Choose a new or empty folder, or pass --force to replace them.`,
  );
}
