// The scheduled schema-drift workflow: valid YAML with the triggers and steps docs/drift.md describes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { expect, test } from 'vitest';
import { EXIT } from '../../generator/cli/exit-codes.ts';
import { REPO_ROOT } from '../support/index.ts';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  'continue-on-error'?: boolean;
}

test('.github/workflows/schema-drift.yml parses and has the refresh, test and pull-request steps', () => {
  const wf = load(readFileSync(path.join(REPO_ROOT, '.github/workflows/schema-drift.yml'), 'utf8')) as {
    on: { schedule: Array<{ cron: string }>; workflow_dispatch: unknown };
    permissions: Record<string, string>;
    jobs: Record<string, { steps: Step[] }>;
  };
  expect(wf.on.schedule).toHaveLength(1);
  expect(wf.on.schedule[0]!.cron.split(' ')).toHaveLength(5);
  expect(wf.on.schedule[0]!.cron).toMatch(/^\d+ \d+ \* \* \*$/); // daily
  expect('workflow_dispatch' in wf.on).toBe(true);
  expect(wf.permissions).toMatchObject({ contents: 'write', 'pull-requests': 'write' });

  const jobs = Object.values(wf.jobs);
  expect(jobs).toHaveLength(1);
  const steps = jobs[0]!.steps;
  const index = (pred: (s: Step) => boolean, what: string): number => {
    const i = steps.findIndex(pred);
    expect(i, what).toBeGreaterThanOrEqual(0);
    return i;
  };
  const checkout = index((s) => s.uses?.startsWith('actions/checkout@') ?? false, 'checkout');
  const node = index((s) => s.uses?.startsWith('actions/setup-node@') ?? false, 'setup-node');
  expect(String(steps[node]!.with?.['node-version'])).toBe('20');
  const ci = index((s) => s.run?.trim() === 'npm ci', 'npm ci');
  // one step refreshes and writes the refresh's own report (a kept, no longer served model is in it)
  const refresh = index((s) => s.run?.includes('npm run --silent generate -- --refresh') ?? false, 'refresh');
  expect(steps[refresh]!.env?.['OXEN_API_KEY']).toBe('${{ secrets.OXEN_API_KEY }}');
  expect(steps[refresh]!.id).toBe('drift');
  const run = steps[refresh]!.run!;
  expect(run).toMatch(/--report "\$RUNNER_TEMP\/drift\.md"/);
  expect(run).toMatch(/--report "\$RUNNER_TEMP\/drift\.json"/);
  // the refresh's codes 1 (compatible) and 2 (breaking) are results: the step fails only above them
  expect(run).toContain('set +e');
  expect(run).toContain(`if [ "$code" -gt ${EXIT.breaking} ]; then`);
  expect(EXIT.failed).toBeGreaterThan(EXIT.breaking);
  expect(EXIT.changed).toBeLessThan(EXIT.breaking);
  const drift = refresh;
  const tests = index((s) => s.run?.trim() === 'npm test', 'npm test');
  const pr = index((s) => s.uses === 'peter-evans/create-pull-request@v7', 'create-pull-request');
  expect(steps[pr]!.with).toMatchObject({ branch: 'schema-drift' });
  expect(String(steps[pr]!.with?.['title'])).toMatch(
    /steps\.drift\.outputs\.breaking.*steps\.drift\.outputs\.compatible/,
  );
  expect(String(steps[pr]!.with?.['body-path'])).toMatch(/\.md$/);
  expect(checkout < node && node < ci && ci < refresh && drift < tests && tests < pr).toBe(true);
  // the key is passed only to the step that fetches
  expect(steps.filter((s) => JSON.stringify(s).includes('OXEN_API_KEY'))).toHaveLength(1);
});
