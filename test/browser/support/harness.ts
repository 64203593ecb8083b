/**
 * The browser test harness: bundles the test page (`page/main.ts`, `page/csp-watch.ts`) from the
 * repository's source with esbuild, serves it from its own origin under
 * `Content-Security-Policy: script-src 'self'`, launches headless Chromium once, and opens pages
 * that record every CSP violation, console error and uncaught error.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CspViolation } from '../page/csp-watch.ts';
import type { Scenarios } from '../page/main.ts';
import { bundleForBrowser, type BrowserBundle } from '../../../scripts/lib/browser-bundle.ts';
import { REPO_ROOT, tempDir } from '../../support/index.ts';
import { launchChromium } from './chromium.ts';
import { startPageServer, type TestServer } from './servers.ts';

/** The test page: two module scripts from its own origin; no inline script (the CSP would refuse it). */
export const PAGE_HTML = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>oxen-inference-sdk in the browser</title>
<link rel="icon" href="data:,">
<script type="module" src="/csp-watch.js"></script>
<script type="module" src="/main.js"></script>
</head>
<body></body>
</html>
`;

/** A page of the harness, with what it recorded. */
export interface TestPage {
  page: Page;
  /** Console messages of type `error`, in order. */
  consoleErrors: string[];
  /** Uncaught errors and unhandled rejections of the page. */
  pageErrors: string[];
  /** Run a scenario of `window.sdkScenarios` in the page and return its (plain-data) result. */
  run<K extends keyof Scenarios>(
    name: K,
    ...args: Parameters<Scenarios[K]>
  ): Promise<Awaited<ReturnType<Scenarios[K]>>>;
  /** The page's Content-Security-Policy violations so far. */
  violations(): Promise<CspViolation[]>;
}

/** What `startHarness` set up. */
export interface Harness {
  browser: Browser;
  bundle: BrowserBundle;
  pageServer: TestServer;
  /** Every file the page loads (the HTML and each bundle chunk), as text. */
  servedText(): string;
  openPage(): Promise<TestPage>;
  close(): Promise<void>;
}

/** Bundle the page, serve it and launch Chromium. Call `close()` when done (also after a failure). */
export async function startHarness(): Promise<Harness> {
  const work = tempDir('inference-sdk-browser-');
  const workDir = work.dir;
  const closers: Array<() => Promise<unknown> | void> = [() => work.remove()];
  const contexts: BrowserContext[] = [];
  const close = async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
    for (const fn of closers.splice(0).reverse()) await fn();
  };
  try {
    const bundle = await bundleForBrowser({
      entryPoints: {
        main: path.join(REPO_ROOT, 'test/browser/page/main.ts'),
        'csp-watch': path.join(REPO_ROOT, 'test/browser/page/csp-watch.ts'),
      },
      workDir,
    });
    const pageServer = await startPageServer(bundle.outdir, PAGE_HTML);
    closers.push(() => pageServer.close());
    const browser = await launchChromium();
    closers.push(() => browser.close());
    return {
      browser,
      bundle,
      pageServer,
      servedText: () =>
        [PAGE_HTML, ...readdirSync(bundle.outdir).map((f) => readFileSync(path.join(bundle.outdir, f), 'utf8'))].join(
          '\n',
        ),
      async openPage() {
        const context = await browser.newContext();
        contexts.push(context);
        const page = await context.newPage();
        const consoleErrors: string[] = [];
        const pageErrors: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') consoleErrors.push(m.text());
        });
        page.on('pageerror', (e) => pageErrors.push(`${e.name}: ${e.message}`));
        await page.goto(pageServer.url + '/', { waitUntil: 'load' });
        await page.waitForFunction(() => document.documentElement.dataset['ready'] === 'true', undefined, {
          timeout: 30_000,
        });
        return {
          page,
          consoleErrors,
          pageErrors,
          // The scenario starts from a page task (setTimeout), not inside the evaluation: code that
          // runs synchronously inside DevTools' evaluation is exempt from the page's CSP (an `eval`
          // there succeeds), so only this way does the SDK run under the CSP as in a real page.
          run: (name, ...args) =>
            page.evaluate(
              ([n, a]) =>
                new Promise((resolve, reject) => {
                  const scenarios = (
                    globalThis as unknown as { sdkScenarios: Record<string, (...x: unknown[]) => unknown> }
                  ).sdkScenarios;
                  setTimeout(() => {
                    try {
                      Promise.resolve(scenarios[n]!(...a)).then(resolve, reject);
                    } catch (e) {
                      reject(e);
                    }
                  }, 0);
                }),
              [name, args] as [string, unknown[]],
            ) as never,
          violations: () =>
            page.evaluate(() => [...(globalThis as unknown as { cspViolations: CspViolation[] }).cspViolations]),
        };
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
