/**
 * `npm test`: checks what the tests need from the machine (`lib/prerequisites.mjs`: Debian's chromium for
 * the browser tests), installs what is missing after saying so in one line, then runs `vitest run` with the
 * same arguments and exits with its status. When a prerequisite cannot be installed it stops at once with
 * one line saying what to install. Chromium is needed when the run includes a browser test: every run
 * without file filters, or one whose filters match a file of test/browser/ (`vitest list --filesOnly`).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH, ensureChromium, isExecutable, needsChromium, PrerequisiteError } from './lib/prerequisites.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// vitest's bin, found as npm finds it (its exports map has no entry for the file itself)
const vitestDir = path.dirname(createRequire(import.meta.url).resolve('vitest/package.json'));
const vitest = path.join(vitestDir, 'vitest.mjs');
const args = process.argv.slice(2);

/** Runs vitest with `vitestArgs` in the repository; resolves to its exit code and stdout (when `capture`). */
function runVitest(vitestArgs, capture = false) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, ...vitestArgs], {
      cwd: root,
      stdio: capture ? ['ignore', 'pipe', 'ignore'] : 'inherit',
    });
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d) => (out += d));
    // Ctrl-C reaches vitest itself (one process group): wait for it to end; a SIGTERM is passed on
    const ignore = () => {};
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', ignore).on('SIGTERM', forward);
    child.on('close', (code) => {
      process.off('SIGINT', ignore).off('SIGTERM', forward);
      resolve({ code: code ?? 1, out });
    });
  });
}

/** The test files this run includes, repository-relative; all of them when vitest cannot list them. */
async function filesOfRun() {
  // (`--json` last: it takes an optional file name)
  const listed = await runVitest(['list', ...args, '--filesOnly', '--json'], true);
  try {
    return JSON.parse(listed.out).map((f) => path.relative(root, f.file).split(path.sep).join('/'));
  } catch {
    return ['test/browser/'];
  }
}

// Only a missing Chromium needs the list of files (a file filter may leave the browser tests out).
const positional = args.some((a) => !a.startsWith('-'));
if (!isExecutable(CHROMIUM_PATH) && (!positional || needsChromium(await filesOfRun()))) {
  try {
    await ensureChromium();
  } catch (error) {
    if (!(error instanceof PrerequisiteError)) throw error;
    process.stderr.write(`npm test: ${error.message}\n`);
    process.exit(1);
  }
}
process.exitCode = (await runVitest(['run', ...args])).code;
