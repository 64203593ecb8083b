/**
 * The README's test command on a fresh machine: `npm test` is `scripts/test.mjs`, which installs Debian's
 * chromium (the browser tests' prerequisite, `scripts/lib/prerequisites.mjs`) when it is missing, saying so
 * first in one line, or stops at once with one line saying what to install; then it runs vitest with the
 * same arguments. `.ci/run` calls exactly `npm test` and installs nothing itself; `npm ci` installs no
 * test-only runtime (the tests that run one install it). The installs run here
 * against stand-ins for apt-get and sudo on a PATH of their own, which record their calls.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM_PATH,
  CHROMIUM_TESTS_DIR,
  ensureChromium,
  needsChromium,
  PrerequisiteError,
} from '../../scripts/lib/prerequisites.mjs';
import { REPO_ROOT, run, tempDir } from '../support/index.ts';
import { PINNED_RUNTIMES } from '../support/tools.ts';

const tmp = tempDir('inference-sdk-test-command-');
afterAll(() => tmp.remove());

let n = 0;
/**
 * A scratch machine: `bin/` holds the stand-ins asked for (`apt-get` installs by creating `chromium`
 * unless told to fail; `sudo` runs its arguments), each appending its command line to `calls.log`, where
 * the lines `ensureChromium` prints go too, so that their order shows.
 */
function machine(tools: { aptGet?: 'installs' | 'fails' | 'installs nothing'; sudo?: boolean }) {
  const dir = path.join(tmp.dir, `machine-${++n}`);
  const bin = path.join(dir, 'bin');
  const calls = path.join(dir, 'calls.log');
  const chromium = path.join(dir, 'chromium');
  const script = (name: string, body: string) => {
    writeFileSync(path.join(bin, name), `#!/bin/sh\nPATH=/usr/bin:/bin\n${body}\n`);
    chmodSync(path.join(bin, name), 0o755);
  };
  mkdirSync(bin, { recursive: true });
  writeFileSync(calls, '');
  if (tools.aptGet) {
    const install =
      tools.aptGet === 'installs'
        ? `if [ "$1" = install ]; then printf '#!/bin/sh\\n' > '${chromium}'; chmod +x '${chromium}'; fi`
        : '';
    script(
      'apt-get',
      `echo "apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >> '${calls}'\n${install}\n${tools.aptGet === 'fails' ? 'exit 100' : 'exit 0'}`,
    );
  }
  if (tools.sudo) script('sudo', `echo "sudo $(basename "$1")" >> '${calls}'\nexec "$@"`);
  return {
    chromium,
    env: { PATH: bin },
    log: (line: string) => writeFileSync(calls, `LOG ${line}\n`, { flag: 'a' }),
    calls: () => readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean),
  };
}

async function refusal(promise: Promise<unknown>): Promise<PrerequisiteError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PrerequisiteError) return error;
    throw error;
  }
  throw new Error('expected a PrerequisiteError');
}

describe('Chromium for the browser tests', () => {
  it('is the /usr/bin/chromium the browser tests launch, needed by the runs that include test/browser/', () => {
    expect(CHROMIUM_PATH).toBe('/usr/bin/chromium');
    expect(CHROMIUM_TESTS_DIR).toBe('test/browser/');
    expect(needsChromium(['test/runtime/options.test.ts', 'test/browser/scenarios.test.ts'])).toBe(true);
    expect(needsChromium(['test/runtime/options.test.ts'])).toBe(false);
  });

  it('present: nothing is printed or run', async () => {
    const m = machine({ aptGet: 'installs' });
    writeFileSync(m.chromium, '');
    chmodSync(m.chromium, 0o755);
    expect(await ensureChromium({ chromiumPath: m.chromium, env: m.env, root: true, log: m.log })).toBe(false);
    expect(m.calls()).toEqual([]);
  });

  it('missing, as root: one line says what it installs and why, then apt-get update and install run', async () => {
    const m = machine({ aptGet: 'installs' });
    expect(await ensureChromium({ chromiumPath: m.chromium, env: m.env, root: true, log: m.log })).toBe(true);
    expect(m.calls()).toEqual([
      `LOG npm test: ${m.chromium} is missing (the browser tests in test/browser/ drive Debian's chromium): installing it with apt-get install chromium`,
      'apt-get update -qq DEBIAN_FRONTEND=noninteractive',
      'apt-get install -y -qq --no-install-recommends chromium DEBIAN_FRONTEND=noninteractive',
    ]);
    expect(existsSync(m.chromium)).toBe(true);
  });

  it('missing, not root: apt-get runs through sudo', async () => {
    const m = machine({ aptGet: 'installs', sudo: true });
    expect(await ensureChromium({ chromiumPath: m.chromium, env: m.env, root: false, log: m.log })).toBe(true);
    expect(m.calls()).toEqual([
      expect.stringMatching(/^LOG npm test: .* installing it with sudo apt-get install chromium$/),
      'sudo apt-get',
      'apt-get update -qq DEBIAN_FRONTEND=noninteractive',
      'sudo apt-get',
      'apt-get install -y -qq --no-install-recommends chromium DEBIAN_FRONTEND=noninteractive',
    ]);
  });

  it('cannot be installed: one line saying what to install, at once, with nothing run', async () => {
    const cases = [
      [
        machine({}),
        true,
        /^\S+ is missing \(.*\), and this machine has no apt-get: install Chromium at \S+, then run npm test again$/,
      ],
      [
        machine({ aptGet: 'installs' }),
        false,
        /, and this user is not root and has no sudo: run `apt-get install -y chromium` as root, then npm test again$/,
      ],
      [
        machine({ aptGet: 'fails' }),
        true,
        /^apt-get update failed \(exit 100\) while installing chromium: run `apt-get install -y chromium` as root/,
      ],
      [machine({ aptGet: 'installs nothing' }), true, /^apt-get installed chromium, but \S+ is still missing: /],
    ] as const;
    for (const [m, root, message] of cases) {
      const started = performance.now();
      const error = await refusal(ensureChromium({ chromiumPath: m.chromium, env: m.env, root, log: m.log }));
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain('\n');
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });
});

describe('npm test', () => {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
    devDependencies: Record<string, string>;
  };

  it('is scripts/test.mjs; .ci/run calls exactly npm test and installs no browser itself', () => {
    expect(pkg.scripts['test']).toBe('node scripts/test.mjs');
    const ci = readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8');
    const commands = ci.split('\n').filter((line) => !line.trimStart().startsWith('#'));
    expect(commands.filter((line) => /^npm test\b/.test(line.trim()))).toEqual(['npm test']);
    expect(commands.join('\n')).not.toMatch(/apt-get|chromium/);
  });

  it('npm ci installs no test-only runtime: the tests that run Deno, Bun and workerd install them (test/support/tools.ts)', () => {
    const all = { ...pkg.devDependencies, ...(pkg as { dependencies?: Record<string, string> }).dependencies };
    for (const name of [...Object.keys(PINNED_RUNTIMES), 'miniflare', 'wrangler']) expect(all).not.toHaveProperty(name);
  });

  it('passes its arguments to vitest run and exits with its status', { timeout: 120_000 }, async () => {
    // the environment of a shell, not of this test's vitest worker
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
    const script = path.join(REPO_ROOT, 'scripts', 'test.mjs');
    const ok = await run(process.execPath, [script, 'test/browser/chromium.test.ts', '--reporter=dot'], {
      env: { ...env, NO_COLOR: '1' },
      timeoutMs: 110_000,
    });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/Tests\s+2 passed \(2\)/);
    const none = await run(process.execPath, [script, 'test/no-such-test-file', '--reporter=dot'], {
      env: { ...env, NO_COLOR: '1' },
      timeoutMs: 110_000,
    });
    expect(none.code).toBe(1);
    expect(none.stdout + none.stderr).toMatch(/No test files found/);
  });
});
