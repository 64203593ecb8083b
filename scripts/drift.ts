/**
 * `npm run drift`: the schema drift report (see docs/drift.md) of this repository's snapshot. Writes
 * nothing. The command is `runDrift` of `generator/cli/commands.ts`; this file reads its arguments.
 *
 *   npm run drift                              committed snapshot (specs/) vs a fresh fetch of the same ids (needs OXEN_API_KEY)
 *   npm run drift -- OLD_SPECS NEW_SPECS       two snapshot directories (each holding models.json and models/)
 *
 *   --format text|markdown|json   output on stdout (default text)
 *   --specs DIR                   the committed snapshot of the fetch mode (default specs/)
 *   --base-url URL                fetch mode: default env OXEN_BASE_URL, then https://hub.oxen.ai
 *   --concurrency N, --timeout-ms N, --retries N   fetch mode, as `npm run generate -- --refresh`
 *
 * Exit codes: 0 done, nothing changed; 1 compatible changes only (`generate --check`: files differ); 2
 * something breaks (a model the service no longer serves included); 3 failed, nothing written (a usage
 * error included).
 * Control characters from the service or a model are never printed raw: `<U+XXXX>` in text and
 * Markdown, `\uXXXX` escapes in JSON.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runDrift } from '../generator/cli/commands.ts';
import { EXIT } from '../generator/cli/exit-codes.ts';
import { showControls } from '../generator/escape.ts';
import { FETCH_FLAGS, fetchFlagValues, redactor } from '../generator/refresh/checks.ts';
import { REPO_ROOT, specsLabel } from '../generator/paths.ts';

const USAGE =
  'usage: npm run drift -- [OLD_SPECS NEW_SPECS] [--format text|markdown|json] [--specs DIR] [--base-url URL]';
const key = process.env['OXEN_API_KEY'] ?? '';
const redact = redactor(key);
const err = (line: string) => void process.stderr.write(`${showControls(redact.text(line))}\n`);

process.exitCode = await (async () => {
  const usage = (problem: string) => {
    err(`drift: ${problem}\n${USAGE}`);
    return EXIT.failed;
  };
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { format: { type: 'string', default: 'text' }, specs: { type: 'string' }, ...FETCH_FLAGS },
      strict: true,
    });
  } catch (e) {
    return usage((e as Error).message);
  }
  const { values, positionals } = parsed;
  const format = values.format;
  if (format !== 'text' && format !== 'markdown' && format !== 'json')
    return usage(`--format must be text, markdown or json, got ${JSON.stringify(format)}`);
  if (positionals.length !== 0 && positionals.length !== 2)
    return usage('give two snapshot directories (OLD_SPECS NEW_SPECS), or none to compare specs/ with a fresh fetch');
  const fetch = fetchFlagValues(values);
  if (typeof fetch === 'string') return usage(fetch);
  if (positionals.length === 2 && (values['base-url'] || values.specs))
    return usage('--specs and --base-url apply only without directory arguments (fetch mode)');
  const specsDir = path.resolve(values.specs ?? path.join(REPO_ROOT, 'specs'));
  return runDrift(
    {
      name: 'drift',
      dirs: positionals.length === 2 ? [positionals[0]!, positionals[1]!] : undefined,
      specsDir,
      specsLabel: specsLabel(specsDir),
      format,
      fetch,
      apiKey: key,
    },
    {
      out: (line) => void process.stdout.write(`${line}\n`),
      err,
      write: (text) => void process.stdout.write(redact.text(text)),
    },
  );
})();
