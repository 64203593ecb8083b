/**
 * Schema drift, output: a report as plain text for a terminal (`renderText`) and as Markdown for a
 * pull request (`renderMarkdown`). Server-provided text (ids, parameter names, values) is escaped
 * so that it can neither drive a terminal nor break the Markdown.
 */
import type { DriftReport } from './types.ts';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line summarising the report (counts of changes and of models). */
export function summaryLine(report: DriftReport): string {
  const total = report.added.length + report.removed.length + report.changed.length + report.unchanged;
  if (report.changes.length === 0) return `No schema drift: ${plural(total, 'model')} compared, nothing changed.`;
  return (
    `Schema drift: ${report.breaking} breaking, ${report.compatible} compatible ${report.changes.length === 1 ? 'change' : 'changes'} ` +
    `(${plural(report.models.length, 'model')} affected: ${report.added.length} added, ${report.removed.length} removed, ${report.changed.length} changed; ${report.unchanged} unchanged)`
  );
}

/** Make server-controlled text safe for a terminal: control characters are escaped, never emitted. */
function safe(s: string): string {
  return s.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what is escaped here
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Render a report for a terminal: the summary line, then per model its changes, one per line
 * (`BREAKING`/`compatible`, parameter, message). Deterministic; no colours; ends with a newline.
 */
export function renderText(report: DriftReport): string {
  const lines = [summaryLine(report)];
  if (report.changes.length > 0) lines.push(`  old: ${safe(report.old)}`, `  new: ${safe(report.new)}`);
  for (const m of report.models) {
    lines.push('', `${safe(m.id)} (${m.status}: ${m.breaking} breaking, ${m.compatible} compatible)`);
    const width = Math.min(40, Math.max(0, ...m.changes.map((c) => (c.param ?? '').length)));
    for (const c of m.changes) {
      const sev = c.severity === 'breaking' ? 'BREAKING  ' : 'compatible';
      const param = c.param === undefined ? '(model)' : c.param;
      lines.push(`  ${sev}  ${safe(param).padEnd(Math.max(width, 7))}  ${safe(c.message)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Text for one Markdown table cell: one line, pipes escaped, HTML neutralised, length bounded. */
function cell(s: string | undefined, code = false): string {
  if (s === undefined || s === '') return '';
  let t = safe(s.replace(/[\r\n\u2028\u2029]+/g, ' '));
  if (t.length > 120) t = `${t.slice(0, 117)}...`;
  if (code) {
    // A code span cannot contain its fence; use a longer fence than any backtick run inside.
    const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
    const fence = '`'.repeat(longest + 1);
    const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
    return `${fence}${pad}${t.replace(/\|/g, '\\|')}${pad}${fence}`;
  }
  return t
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([*_`[\]])/g, '\\$1');
}

/**
 * Render a report as Markdown for a pull request: a bold summary line with the breaking and
 * compatible counts, then one table per model (severity, parameter, change, before, after).
 * Server-provided text is escaped so that it cannot break the tables or inject HTML.
 */
export function renderMarkdown(report: DriftReport): string {
  const out = [`**${summaryLine(report)}**`, ''];
  if (report.changes.length > 0) {
    out.push(
      `Compared ${cell(report.old, true)} (old) with ${cell(report.new, true)} (new). Breaking: a removed model, parameter or enum value, a newly required parameter, a narrowed type or range, a new enum. Description edits are counted, not shown.`,
      '',
    );
  }
  for (const m of report.models) {
    out.push(`### ${cell(m.id, true)} (${m.status}: ${m.breaking} breaking, ${m.compatible} compatible)`, '');
    out.push('| | Parameter | Change | Before | After |', '|---|---|---|---|---|');
    for (const c of m.changes) {
      const sev = c.severity === 'breaking' ? ':red_circle: breaking' : ':green_circle: compatible';
      out.push(
        `| ${sev} | ${c.param === undefined ? '_(model)_' : cell(c.param, true)} | ${cell(c.message)} | ${cell(c.before, true)} | ${cell(c.after, true)} |`,
      );
    }
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
