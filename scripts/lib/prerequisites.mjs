/**
 * What the test suite needs from the machine beyond `npm ci`, checked (and installed) by `npm test`
 * (`scripts/test.mjs`) before vitest starts: Debian's `chromium` at /usr/bin/chromium, which the browser
 * tests (test/browser/) drive with playwright-core (never a downloaded browser build). It is installed with
 * apt-get, through sudo when not root, as the CI does; when that is impossible (no apt-get, not root and
 * no sudo, apt-get failing) the run stops at once with one line saying what to install.
 *
 * The runtimes that single tests run (Deno, Bun, workerd) are not here: those tests install pinned
 * versions on demand into `.tmp/runtimes/` (test/support/tools.ts), so that `npm ci` stays light.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Where Debian's `chromium` package installs the browser (the browser tests launch it from here). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The test files that need Chromium: those under this folder (repository-relative, `/`-separated). */
export const CHROMIUM_TESTS_DIR = 'test/browser/';

/** A prerequisite that is missing and cannot be installed here; `message` is one line saying what to install. */
export class PrerequisiteError extends Error {
  name = 'PrerequisiteError';
}

/** True when `file` exists and is executable. */
export function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on `env.PATH`, or undefined. */
export function findOnPath(name, env = process.env) {
  for (const dir of (env['PATH'] ?? '').split(path.delimiter))
    if (dir !== '' && isExecutable(path.join(dir, name))) return path.join(dir, name);
  return undefined;
}

/** Whether a run of these test files (repository-relative, `/`-separated) needs Chromium. */
export function needsChromium(files) {
  return files.some((file) => file.startsWith(CHROMIUM_TESTS_DIR));
}

/** Runs `command` with `args`, its stderr shown (apt-get's errors), its stdout dropped; resolves to its exit code. */
function runQuietly(command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['inherit', 'ignore', 'inherit'] });
    child.on('error', () => resolve(127));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/**
 * Makes sure Chromium is at `chromiumPath`: does nothing when it is there; else prints one line (through
 * `log`) saying what it installs and why, and installs Debian's `chromium` with `apt-get update` and
 * `apt-get install -y --no-install-recommends chromium` (prefixed by `sudo` unless `root`).
 * @param options.chromiumPath default `CHROMIUM_PATH`.
 * @param options.env the environment of apt-get and sudo, whose `PATH` finds them (default this process's).
 * @param options.root whether this process is root (default: its uid is 0).
 * @param options.log where the line goes (default stderr).
 * @returns whether it installed Chromium.
 * @throws PrerequisiteError (one line: what to install) when there is no apt-get, no root and no sudo, or
 * apt-get fails or leaves no executable at `chromiumPath`.
 */
export async function ensureChromium(options = {}) {
  const chromiumPath = options.chromiumPath ?? CHROMIUM_PATH;
  const env = options.env ?? process.env;
  const root = options.root ?? process.getuid?.() === 0;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  if (isExecutable(chromiumPath)) return false;
  const what = `${chromiumPath} is missing (the browser tests in ${CHROMIUM_TESTS_DIR} drive Debian's chromium)`;
  const byHand = 'run `apt-get install -y chromium` as root, then npm test again';
  const aptGet = findOnPath('apt-get', env);
  if (!aptGet)
    throw new PrerequisiteError(
      `${what}, and this machine has no apt-get: install Chromium at ${chromiumPath}, then run npm test again`,
    );
  const sudo = root ? undefined : findOnPath('sudo', env);
  if (!root && !sudo) throw new PrerequisiteError(`${what}, and this user is not root and has no sudo: ${byHand}`);
  const as = (args) => (sudo ? [sudo, [aptGet, ...args]] : [aptGet, args]);
  log(`npm test: ${what}: installing it with ${sudo ? 'sudo ' : ''}apt-get install chromium`);
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', 'chromium'],
  ]) {
    const code = await runQuietly(...as(args), aptEnv);
    if (code !== 0)
      throw new PrerequisiteError(`apt-get ${args[0]} failed (exit ${code}) while installing chromium: ${byHand}`);
  }
  if (!isExecutable(chromiumPath))
    throw new PrerequisiteError(`apt-get installed chromium, but ${chromiumPath} is still missing: ${byHand}`);
  return true;
}
