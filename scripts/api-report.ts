/**
 * The package's public API, one report per entry point in `api-report/` (API Extractor's `.api.md`: every
 * exported name with its signature), so that a change of the surface is a reviewed diff.
 *
 * - `npm run api:report`: builds `dist/` when it is not current, then rewrites the reports.
 * - `npm run api:check`: the same, but fails (exit 1) when a report differs from the committed one, and
 *   prints the difference; `npm run api:report` accepts the change.
 *
 * The reports are made from the built declarations (`dist/*.d.ts`, the files users get), not from the
 * sources, so the layout of runtime/ and generated/ does not matter here. The 111 model entries share one
 * shape: `./models/flux-2-pro` stands for them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../generator/root.mjs';
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';
import { createTwoFilesPatch } from 'diff';

const ROOT = REPO_ROOT;
/** Where the committed reports live. */
export const REPORT_DIR = 'api-report';
/** `{ report name: entry's declaration file }` (see `exports` in package.json). */
export const REPORTED_ENTRIES: Record<string, string> = {
  index: 'dist/index.d.ts',
  runtime: 'dist/runtime/index.d.ts',
  node: 'dist/node/index.d.ts',
  chat: 'dist/chat/index.d.ts',
  'validator-support': 'dist/validator-support.d.ts',
  openapi: 'dist/openapi.d.ts',
  'models-flux-2-pro': 'dist/models/flux-2-pro.d.ts',
};

const args = new Set(process.argv.slice(2));
for (const a of args) {
  if (!['--check'].includes(a)) {
    console.error(`unknown option ${a} (known: --check)`);
    process.exit(2);
  }
}
const check = args.has('--check');

// the declarations the reports read: built (or found current) by the package build
execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build', 'package.mjs'), '--quiet'], {
  cwd: ROOT,
  stdio: 'inherit',
});

const tempDir = path.join(ROOT, '.tmp', 'api-report');
rmSync(tempDir, { recursive: true, force: true });
mkdirSync(tempDir, { recursive: true });
mkdirSync(path.join(ROOT, REPORT_DIR), { recursive: true });

const changed: string[] = [];
const problems: string[] = [];
for (const [name, entry] of Object.entries(REPORTED_ENTRIES)) {
  const config = ExtractorConfig.prepare({
    configObjectFullPath: undefined, // the configuration is this object, not a file
    packageJsonFullPath: path.join(ROOT, 'package.json'),
    configObject: {
      projectFolder: ROOT,
      mainEntryPointFilePath: path.join(ROOT, entry),
      compiler: {
        // how a consumer with `moduleResolution: nodenext` reads the package's ES module declarations
        overrideTsconfig: {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            lib: ['ES2022', 'DOM', 'DOM.Iterable'],
            strict: true,
            skipLibCheck: true,
          },
          files: [path.join(ROOT, entry)],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: name,
        reportFolder: path.join(ROOT, REPORT_DIR),
        reportTempFolder: tempDir,
        // the reports list the names exported by the entry point; a type they use but do not export
        // is marked in the report (ae-forgotten-export) rather than expanded
        includeForgottenExports: false,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
        extractorMessageReporting: {
          default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
          // release tags (@public, @beta) are not used: every export is public
          'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
          // the report marks such members "(undocumented)" in place; a list with line numbers of dist/ files
          // would change with every edit of a doc comment
          'ae-undocumented': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
        },
        // the doc comments' syntax is not API: typedoc and the lint look at it
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None, addToApiReportFile: false } },
      },
    },
  });
  const result = Extractor.invoke(config, {
    // a local build writes the reports to api-report/; a check only writes them to .tmp/api-report/
    localBuild: !check,
    showVerboseMessages: false,
    messageCallback: (message: ExtractorMessage) => {
      if (message.logLevel === ExtractorLogLevel.Warning || message.logLevel === ExtractorLogLevel.Error) {
        const where = message.sourceFilePath
          ? `${path.relative(ROOT, message.sourceFilePath)}:${message.sourceFileLine ?? 0}: `
          : '';
        problems.push(`${name}: ${where}${message.text}`);
      }
      message.handled = true; // printed below, once per entry
    },
  });
  if (result.errorCount > 0) {
    console.error(problems.join('\n'));
    console.error(`api: API Extractor failed on ${entry}`);
    process.exit(1);
  }
  const committed = path.join(ROOT, REPORT_DIR, `${name}.api.md`);
  const fresh = path.join(tempDir, `${name}.api.md`);
  const before = existsSync(committed) ? readFileSync(committed, 'utf8') : '';
  const after = readFileSync(check ? fresh : committed, 'utf8');
  if (check && before !== after) {
    changed.push(name);
    process.stdout.write(
      createTwoFilesPatch(`${REPORT_DIR}/${name}.api.md`, `${REPORT_DIR}/${name}.api.md (from dist/)`, before, after),
    );
  }
}
// API Extractor's own warnings are part of the reports too (as `// Warning:` lines)
if (problems.length) console.log(`api: ${problems.length} API Extractor warnings (also noted in the reports)`);

if (check && changed.length) {
  console.error(
    `\napi:check: the public API differs from ${REPORT_DIR}/ for ${changed.join(', ')} (diff above).\n` +
      'If the change is meant, run `npm run api:report` and commit the updated reports.',
  );
  process.exit(1);
}
console.log(
  check
    ? `api:check: the public API matches ${REPORT_DIR}/ (${Object.keys(REPORTED_ENTRIES).length} entry points)`
    : `api:report: wrote ${REPORT_DIR}/ (${Object.keys(REPORTED_ENTRIES).join(', ')})`,
);
