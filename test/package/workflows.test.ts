// The CI and release workflows: valid YAML with the triggers, matrix, permissions and steps the README
// describes (the schema-drift workflow has its own test in test/drift/workflow.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../support/index.ts';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, { strategy?: { matrix?: Record<string, unknown> }; steps: Step[] }>;
}

function workflow(name: string): Workflow {
  return load(readFileSync(path.join(REPO_ROOT, '.github', 'workflows', name), 'utf8')) as Workflow;
}

function onlyJob(wf: Workflow): Workflow['jobs'][string] {
  const jobs = Object.values(wf.jobs);
  expect(jobs).toHaveLength(1);
  return jobs[0]!;
}

test('ci.yml runs bash .ci/run on every push and pull request, on Node 20 and 22', () => {
  const wf = workflow('ci.yml');
  expect(Object.keys(wf.on).sort()).toEqual(['pull_request', 'push']);
  expect(wf.on['push']).toBeNull(); // every branch and tag
  const job = onlyJob(wf);
  expect(job.strategy?.matrix?.['node']).toEqual([20, 22]);
  const steps = job.steps;
  expect(steps[0]!.uses).toMatch(/^actions\/checkout@/);
  const node = steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
  expect(node?.with?.['node-version']).toBe('${{ matrix.node }}');
  expect(steps.at(-1)!.run?.trim()).toBe('bash .ci/run');
});

test('release.yml publishes with provenance on a version tag, after the build and the CI run', () => {
  const wf = workflow('release.yml');
  expect(wf.on).toEqual({ push: { tags: ['v*'] } });
  expect(wf.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
  const steps = onlyJob(wf).steps;
  const at = (pred: (s: Step) => boolean, what: string): number => {
    const i = steps.findIndex(pred);
    expect(i, what).toBeGreaterThanOrEqual(0);
    return i;
  };
  const checkout = at((s) => s.uses?.startsWith('actions/checkout@') ?? false, 'checkout');
  const node = at((s) => s.uses?.startsWith('actions/setup-node@') ?? false, 'setup-node');
  expect(steps[node]!.with?.['registry-url']).toBe('https://registry.npmjs.org');
  const ci = at((s) => s.run?.trim() === 'npm ci', 'npm ci');
  const build = at((s) => s.run?.trim() === 'npm run build', 'build');
  const tests = at((s) => s.run?.trim() === 'bash .ci/run', 'tests');
  // both packages: the SDK (the root) and the generator (the generator/ workspace)
  const publish = at(
    (s) => s.run?.trim() === 'npm publish --workspaces --include-workspace-root --provenance --access public',
    'publish',
  );
  expect(steps[publish]!.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
  expect(checkout < node && node < ci && ci < build && build < tests && tests < publish).toBe(true);
  // the token reaches only the publishing step
  expect(steps.filter((s) => JSON.stringify(s).includes('NPM_TOKEN'))).toHaveLength(1);
});

test('schema-drift.yml opens its pull request with a token that triggers CI, falling back to GITHUB_TOKEN', () => {
  const steps = onlyJob(workflow('schema-drift.yml')).steps;
  const pr = steps.find((s) => s.uses?.startsWith('peter-evans/create-pull-request@'));
  expect(pr?.with?.['token']).toBe('${{ secrets.DRIFT_PR_TOKEN || secrets.GITHUB_TOKEN }}');
});

// test-command.test.ts checks what npm test does and that .ci/run installs nothing else
test("the README's Development section gives the two set-up commands, and .ci/run runs its test command", () => {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Development\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const commands = block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
  expect(commands).toEqual(['npm ci && npm run generate', 'npm test']);
  const ciRun = readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  expect(ciRun).toContain(commands[1]);
});
