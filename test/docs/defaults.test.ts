// Facts once: each documented default of an option agrees with the constant the code uses. The option
// interfaces carry `@default` (checked against the constants), `@unit` on every time and size, and an
// `@example`; the prose (README.md, docs/, ARCHITECTURE.md and the comments of the code) is read for
// `default N` next to an option's name, each quantity converted to the option's unit.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/index.ts';
import { commentsOf, listRepository, withoutCodeBlocks } from './repo-paths.ts';
import { documentedInterface, inconsistentRestatements, quantities, statedDefaults, type Kind } from './defaults.ts';
import {
  DEFAULT_EVENT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TIMEOUTS_MS,
} from '../../runtime/options.ts';
import { INPUT_MAX_BYTES } from '../../runtime/inputs.ts';
import { OUTPUT_DEFAULT_TIMEOUT_MS } from '../../runtime/outputs.ts';
import { PROXY_DEFAULTS } from '../../runtime/proxy/handler.ts';
import {
  QUEUE_LOST_GRACE_DEFAULT_MS,
  QUEUE_RECONCILE_DEFAULT_INTERVAL_MS,
  QUEUE_RUN_DEFAULT_TIMEOUT_MS,
} from '../../runtime/queue/outcomes.ts';
import {
  FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS,
  FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS,
} from '../../runtime/fine-tunes/types.ts';
import { REFRESH_DEFAULTS } from '../../generator/refresh/checks.ts';

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');
const ENDPOINT_TIMEOUTS = Object.values(DEFAULT_TIMEOUTS_MS);

/**
 * The option interfaces and the constant behind each numeric default. `every`: each property carries
 * `@default` (an interface users configure); else only the listed ones are required.
 */
const INTERFACES: { file: string; name: string; every: boolean; defaults: Record<string, number[]> }[] = [
  {
    file: 'runtime/options.ts',
    name: 'ClientOptions',
    every: true,
    defaults: {
      timeoutMs: ENDPOINT_TIMEOUTS,
      maxRetries: [DEFAULT_MAX_RETRIES],
      retryBaseDelayMs: [DEFAULT_RETRY_BASE_DELAY_MS],
      retryMaxDelayMs: [DEFAULT_RETRY_MAX_DELAY_MS],
      eventStreamIdleTimeoutMs: [DEFAULT_EVENT_STREAM_IDLE_TIMEOUT_MS],
      maxResponseBytes: [DEFAULT_MAX_RESPONSE_BYTES],
    },
  },
  { file: 'runtime/scope.ts', name: 'RequestOptions', every: true, defaults: {} },
  {
    file: 'runtime/outputs.ts',
    name: 'OutputOptions',
    every: true,
    defaults: { maxResponseBytes: [DEFAULT_MAX_RESPONSE_BYTES], timeoutMs: [OUTPUT_DEFAULT_TIMEOUT_MS] },
  },
  {
    file: 'runtime/proxy/handler.ts',
    name: 'ProxyOptions',
    every: true,
    defaults: Object.fromEntries(Object.entries(PROXY_DEFAULTS).map(([k, v]) => [k, [v]])),
  },
  {
    file: 'runtime/fine-tunes/wait.ts',
    name: 'FineTuneWaitOptions',
    every: true,
    defaults: {
      intervalMs: [FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS],
      timeoutMs: [FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS],
    },
  },
  {
    file: 'runtime/queue/outcomes.ts',
    name: 'QueueFollowOptions',
    every: false,
    defaults: {
      timeoutMs: [QUEUE_RUN_DEFAULT_TIMEOUT_MS],
      reconcileIntervalMs: [QUEUE_RECONCILE_DEFAULT_INTERVAL_MS],
      lostGraceMs: [QUEUE_LOST_GRACE_DEFAULT_MS],
    },
  },
  { file: 'runtime/queue/outcomes.ts', name: 'QueueRunOptions', every: false, defaults: {} },
  {
    file: 'generator/refresh/fetch.ts',
    name: 'FetchOptions',
    every: false,
    defaults: Object.fromEntries(Object.entries(REFRESH_DEFAULTS).map(([k, v]) => [k, [v]])),
  },
];

/** The unit a property's name says: `…Ms` milliseconds, `…Bytes` bytes. */
const unitOf = (name: string): string | undefined =>
  /Ms$/.test(name) ? 'milliseconds' : /Bytes$/.test(name) ? 'bytes' : undefined;
const kindOf = (name: string): Kind => (/Ms$|timeout/.test(name) ? 'ms' : /Bytes$/.test(name) ? 'bytes' : 'count');

/**
 * Options as prose names them, and every value a default of that name may have (one name can be several
 * options: `timeoutMs` of the client, an endpoint, the proxy, `fetchOutput`, `queue.run`, `fineTunes.wait`).
 */
const PROSE: Record<string, { kind: Kind; values: number[] }> = {
  '`timeoutMs`': {
    kind: 'ms',
    values: [
      DEFAULT_TIMEOUT_MS,
      ...ENDPOINT_TIMEOUTS,
      PROXY_DEFAULTS.timeoutMs,
      OUTPUT_DEFAULT_TIMEOUT_MS,
      QUEUE_RUN_DEFAULT_TIMEOUT_MS,
      FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS,
      REFRESH_DEFAULTS.timeoutMs,
    ],
  },
  '`DEFAULT_TIMEOUTS_MS`': { kind: 'ms', values: ENDPOINT_TIMEOUTS },
  ...Object.fromEntries(
    Object.entries(DEFAULT_TIMEOUTS_MS).map(([k, v]) => [
      `\`DEFAULT_TIMEOUTS_MS.${k}\``,
      { kind: 'ms' as const, values: [v] },
    ]),
  ),
  ...Object.fromEntries(
    Object.entries(INPUT_MAX_BYTES).map(([k, v]) => [
      `\`INPUT_MAX_BYTES.${k}\``,
      { kind: 'bytes' as const, values: [v] },
    ]),
  ),
  '`maxRetries`': { kind: 'count', values: [DEFAULT_MAX_RETRIES, REFRESH_DEFAULTS.maxRetries] },
  '`retryBaseDelayMs`': { kind: 'ms', values: [DEFAULT_RETRY_BASE_DELAY_MS, REFRESH_DEFAULTS.retryBaseDelayMs] },
  '`retryMaxDelayMs`': { kind: 'ms', values: [DEFAULT_RETRY_MAX_DELAY_MS] },
  '`eventStreamIdleTimeoutMs`': { kind: 'ms', values: [DEFAULT_EVENT_STREAM_IDLE_TIMEOUT_MS] },
  '`maxResponseBytes`': { kind: 'bytes', values: [DEFAULT_MAX_RESPONSE_BYTES] },
  '`maxRequestBytes`': { kind: 'bytes', values: [PROXY_DEFAULTS.maxRequestBytes] },
  '`maxConcurrentBodies`': { kind: 'count', values: [PROXY_DEFAULTS.maxConcurrentBodies] },
  '`bodyTimeoutMs`': { kind: 'ms', values: [PROXY_DEFAULTS.bodyTimeoutMs] },
  '`intervalMs`': { kind: 'ms', values: [FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS] },
  '--concurrency': { kind: 'count', values: [REFRESH_DEFAULTS.concurrency] },
  '--timeout-ms': { kind: 'ms', values: [REFRESH_DEFAULTS.timeoutMs] },
  '--retries': { kind: 'count', values: [REFRESH_DEFAULTS.maxRetries] },
};
const NAMES = Object.keys(PROSE);

/** The prose read: the Markdown for readers, and every comment of the hand-written code. */
function prose(): { file: string; text: string }[] {
  const files = listRepository(REPO_ROOT).filter((f) => !f.endsWith('/'));
  const markdown = ['README.md', 'ARCHITECTURE.md', ...files.filter((f) => /^docs\/[^/]+\.md$/.test(f))];
  const code = files.filter(
    (f) => /^(?:runtime|generator|scripts|fake-service)\/.*\.(?:ts|mjs)$/.test(f) || f === 'index.ts',
  );
  return [
    ...markdown.map((file) => ({ file, text: withoutCodeBlocks(read(file)) })),
    ...code.map((file) => ({
      file,
      text: commentsOf(read(file), file)
        .map((c) => c.text)
        .join('\n\n'),
    })),
  ];
}

describe('documented defaults agree with their constants', () => {
  for (const spec of INTERFACES) {
    it(`${spec.name} (${spec.file}): @default, @unit and @example`, () => {
      const doc = documentedInterface(read(spec.file), spec.name);
      expect(doc, `${spec.name} in ${spec.file}`).toBeDefined();
      if (spec.every) expect(doc!.tags, `${spec.name} has an @example`).toContain('example');
      for (const option of doc!.options) {
        const where = `${spec.name}.${option.name}`;
        if (spec.every || option.name in spec.defaults) expect(option.default, `${where} @default`).toBeDefined();
        expect(option.unit, `${where} @unit`).toBe(unitOf(option.name));
        const expected = spec.defaults[option.name];
        if (expected) {
          const stated = quantities(option.default!.replace(/\([^)]*\)/g, ''), kindOf(option.name));
          expect(stated.sort(), `${where} @default ${option.default}`).toEqual([...expected].sort());
        }
      }
      for (const name of Object.keys(spec.defaults))
        expect(
          doc!.options.map((o) => o.name),
          `${spec.name} has ${name}`,
        ).toContain(name);
    });
  }

  it('every `default N` of the prose next to an option name is one of its defaults', () => {
    const wrong: string[] = [];
    let found = 0;
    for (const { file, text } of prose()) {
      for (const [name, { kind, values }] of Object.entries(PROSE)) {
        for (const s of statedDefaults(text, name, NAMES, kind)) {
          found++;
          if (!values.includes(s.value)) wrong.push(`${file}: ${name} = ${s.value}: ${s.quote.slice(0, 160)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(found).toBeGreaterThan(20);
  });

  it('every `N (M minutes)` restatement of the prose agrees with itself', () => {
    const wrong = prose().flatMap(({ file, text }) => inconsistentRestatements(text).map((r) => `${file}: ${r}`));
    expect(wrong).toEqual([]);
  });

  it('reads the forms the prose uses, and a wrong one', () => {
    const stated = (text: string, name: string, kind: Kind) =>
      statedDefaults(text, name, NAMES, kind).map((s) => s.value);
    expect(stated('`maxRetries` (default 2, so at most 3 attempts)', '`maxRetries`', 'count')).toEqual([2]);
    expect(stated('`maxRequestBytes` is 10 MiB by default, raise it (4/3)', '`maxRequestBytes`', 'bytes')).toEqual([
      10_485_760,
    ]);
    expect(stated('`timeoutMs` (default one hour)', '`timeoutMs`', 'ms')).toEqual([3_600_000]);
    expect(stated('`timeoutMs` (default two hours)', '`timeoutMs`', 'ms')).toEqual([7_200_000]);
    expect(stated('--timeout-ms N (default 30000), --retries N (default 3)', '--timeout-ms', 'ms')).toEqual([30_000]);
    expect(
      stated(
        '`timeoutMs` (default per endpoint, `DEFAULT_TIMEOUTS_MS`: 1 200 000 = 20 minutes for videos)',
        '`timeoutMs`',
        'ms',
      ),
    ).toEqual([]);
    expect(
      stated('`DEFAULT_TIMEOUTS_MS`: 1 200 000 = 20 minutes; 300 000 = 4 minutes', '`DEFAULT_TIMEOUTS_MS`', 'ms'),
    ).toEqual([1_200_000, 1_200_000, 1_200_000, 300_000, 240_000]);
    expect(stated('`bodyTimeoutMs` (milliseconds, default 60,000; longer: 408)', '`bodyTimeoutMs`', 'ms')).toEqual([
      60_000,
    ]);
    expect(
      stated('its default timeout is 20 minutes (`DEFAULT_TIMEOUTS_MS.videos`)', '`DEFAULT_TIMEOUTS_MS.videos`', 'ms'),
    ).toEqual([1_200_000]);
    expect(
      stated('by default `INPUT_MAX_BYTES.input_image`, 10,000,000 bytes', '`INPUT_MAX_BYTES.input_image`', 'bytes'),
    ).toEqual([10_000_000]);
    expect(inconsistentRestatements('600_000 (10 minutes), 300_000 (4 minutes)')).toEqual(['300_000 (4 minutes']);
  });
});
