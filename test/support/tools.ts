/**
 * Runtimes that single tests run, installed by those tests on first use rather than by `npm ci`: Deno and
 * Bun (test/package/runtimes.test.ts) and workerd, Cloudflare's Workers runtime (test/package/workers.test.ts).
 * Their npm packages carry the binaries (about 90, 100 and 160 MB, with install scripts), which every
 * contributor's `npm ci` would otherwise fetch. Each is installed at its pinned version with npm into
 * `.tmp/runtimes/<name>@<version>/` (ignored by git), saying so first, and reused while that folder is there;
 * a new pin installs anew beside the old one.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { npmEnv } from '../../scripts/lib/pack.ts';
import { REPO_ROOT, run } from './index.ts';

/** The pinned version of each runtime (the npm package of the same name, whose bin is the runtime). */
export const PINNED_RUNTIMES = {
  deno: '2.9.5',
  bun: '1.4.5',
  // the newest that runs here; it declares node >=16 (the binary needs none)
  workerd: '1.20261117.1',
} as const;

export type RuntimeName = keyof typeof PINNED_RUNTIMES;

/** Where the runtimes are installed: `.tmp/runtimes/` of the repository. */
export const RUNTIMES_DIR = path.join(REPO_ROOT, '.tmp', 'runtimes');

/**
 * The path of `name`'s executable at its pinned version, installed first when it is not there yet (one line
 * on stdout says what is installed and why).
 * @param why what needs it, for that line.
 * @throws Error with npm's output when the install fails, or when the executable is still missing after it.
 */
export async function installedRuntime(name: RuntimeName, why: string): Promise<string> {
  const version = PINNED_RUNTIMES[name];
  const dir = path.join(RUNTIMES_DIR, `${name}@${version}`);
  const bin = path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
  if (existsSync(bin)) return bin;
  console.log(
    `${name} ${version} is not in .tmp/runtimes/: installing it with npm for ${why} (once; reused while .tmp/runtimes/${name}@${version} is there)`,
  );
  // Installed beside its final place and renamed into it whole, so that an interrupted install, or another
  // run installing the same at once, never leaves a half-installed folder there.
  const staging = path.join(RUNTIMES_DIR, `.${name}@${version}-${process.pid}-${Date.now()}`);
  mkdirSync(staging, { recursive: true });
  try {
    writeFileSync(path.join(staging, 'package.json'), JSON.stringify({ private: true }, null, 2));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = await run(npm, ['install', '--no-audit', '--no-fund', '--save-exact', `${name}@${version}`], {
      cwd: staging,
      env: npmEnv(),
      timeoutMs: 600_000,
    });
    if (result.code !== 0)
      throw new Error(
        `npm install ${name}@${version} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`,
      );
    try {
      renameSync(staging, dir);
    } catch (error) {
      if (!existsSync(bin)) throw error; // (else another run installed it first)
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (!existsSync(bin)) throw new Error(`npm installed ${name}@${version}, but ${bin} is missing`);
  return bin;
}
