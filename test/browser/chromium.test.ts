/** The browser tests fail, with the way to fix it, when Debian's chromium is missing (they never skip, nor download a browser). */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, launchChromium } from './support/chromium.ts';

describe('launchChromium', () => {
  it('uses Debian chromium at /usr/bin/chromium', () => {
    expect(CHROMIUM_PATH).toBe('/usr/bin/chromium');
  });

  it('fails with how to install chromium when the executable is missing', async () => {
    await expect(launchChromium('/nonexistent/chromium')).rejects.toThrow(
      /\/nonexistent\/chromium is missing.*apt-get install -y chromium.*npm test/,
    );
  });
});
