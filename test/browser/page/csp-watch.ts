/**
 * The first module of the test page (modules run in document order, so it runs before
 * `main.ts`'s bundle and before any SDK code): it records every
 * `securitypolicyviolation` event (an `eval`, an inline script, a script from another origin) on
 * `window.cspViolations`, so that the tests can assert there were none.
 */

/** One Content-Security-Policy violation, as the event reports it. */
export interface CspViolation {
  directive: string;
  blockedURI: string;
  sourceFile: string;
  sample: string;
}

const violations: CspViolation[] = [];
(globalThis as unknown as { cspViolations: CspViolation[] }).cspViolations = violations;
document.addEventListener('securitypolicyviolation', (e) => {
  violations.push({
    directive: e.effectiveDirective || e.violatedDirective,
    blockedURI: e.blockedURI,
    sourceFile: e.sourceFile,
    sample: e.sample,
  });
});
