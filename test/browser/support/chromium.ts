/**
 * Headless Chromium for the browser tests: Debian's `chromium` package at /usr/bin/chromium,
 * driven by playwright-core. No browser build is ever downloaded.
 */
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's `chromium` package installs the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

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
 * `.ci/run` installs it with `apt-get install chromium`).
 */
export async function launchChromium(executablePath: string = CHROMIUM_PATH): Promise<Browser> {
  try {
    accessSync(executablePath, constants.X_OK);
  } catch {
    throw new Error(
      `${executablePath} is missing: the browser tests run Debian's chromium package (never a downloaded build). ` +
        'Install it with `apt-get install -y chromium` (.ci/run does this when it is missing).',
    );
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 60_000 });
}
