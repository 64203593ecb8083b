/**
 * Headless Chromium for the browser tests: Debian's `chromium` package at /usr/bin/chromium,
 * driven by playwright-core. No browser build is ever downloaded.
 */
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_PATH } from '../../../scripts/lib/prerequisites.mjs';

/** Where Debian's `chromium` package installs the browser (`npm test` installs it there when it is missing). */
export { CHROMIUM_PATH };

/**
 * The flags: headless, no sandbox (containers), and none of Chromium's own background traffic
 * (component updates, sync, QUIC probes...), whose connections a closed network refuses.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launch headless Chromium (default: Debian's, at /usr/bin/chromium).
 * @throws Error saying how to install it when the executable is missing (the tests do not skip:
 * `npm test` installs it with `apt-get install chromium` first, `scripts/lib/prerequisites.mjs`).
 */
export async function launchChromium(executablePath: string = CHROMIUM_PATH): Promise<Browser> {
  try {
    accessSync(executablePath, constants.X_OK);
  } catch {
    throw new Error(
      `${executablePath} is missing: the browser tests run Debian's chromium package (never a downloaded build). ` +
        'Install it with `apt-get install -y chromium` (npm test does this when it is missing).',
    );
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 60_000 });
}
