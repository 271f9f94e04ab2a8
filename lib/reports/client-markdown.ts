import { CLIENT_OUTCOMES } from '../verdict/client.js';
import { clientOutcomeTitle, exercisedFigure, wordOf } from './client-outcome.js';
import type { ClientRun, Report, RuleResult } from './report-model.js';
import { sourceMarkdown } from './source-lines.js';

/**
 * summary.md of a client report, for CI job pages: the outcome, the broken
 * rules with their sentence of the API document and their exchanges, what
 * was not exercised and why, the situations played.
 */
export function renderClientMarkdown(report: Report): string {
  const client = report.client as ClientRun;
  const out: string[] = [];
  const count = (word: string) => report.results.filter((r) => wordOf(r) === word).length;
  out.push(
    `# Client grading: ${clientOutcomeTitle(report.summary.outcome)} (${exercisedFigure(report.results)})`,
    '',
  );
  const played = client.situations.filter((s) => s.state === 'played').length;
  out.push(
    `Command \`${cell(client.command.join(' '))}\`: ${ending(client)}. Sandbox \`${report.target}\`${report.target_info.embedded_reference ? ' (bundled reference server)' : ''}, situations \`${client.situations_chosen}\` (${played} of ${client.situations.length} played), ${client.exchanges.length + (client.exchanges_omitted ?? 0)} requests, ${(report.duration_ms / 1000).toFixed(1)} s.`,
    '',
    `Exit code ${report.exit_code}: ${cell(report.exit_reason)}.`,
    '',
    `| ${CLIENT_OUTCOMES.join(' | ')} |`,
    `|${CLIENT_OUTCOMES.map(() => '---:').join('|')}|`,
    `| ${CLIENT_OUTCOMES.map((o) => count(o)).join(' | ')} |`,
    '',
  );
  section(
    out,
    'Broken',
    report.results.filter((r) => wordOf(r) === 'broken'),
    brokenLine,
  );
  section(
    out,
    'Not judged (the grading failed, not the client)',
    report.results.filter((r) => wordOf(r) === 'error'),
    line,
  );
  section(
    out,
    'Not exercised',
    report.results.filter((r) => wordOf(r) === 'not_exercised'),
    line,
  );
  if (client.situations.length > 0) {
    out.push('## Situations', '', '| situation | played | note |', '|---|---|---|');
    for (const s of client.situations) {
      const at = s.exchange === undefined ? '' : ` at #${s.exchange}`;
      out.push(
        `| \`${s.name}\`${s.reworded ? ' reworded' : ''} | ${s.state}${at} | ${cell(s.note ?? '')} |`,
      );
    }
    out.push('');
  }
  out.push('Reports: `report.html`, `report.json`, `junit.xml`, `exchanges.har`.', '');
  return out.join('\n');
}

function ending(client: ClientRun): string {
  if (client.interrupted) return 'interrupted (Ctrl-C)';
  if (client.signal) return `ended on ${client.signal}`;
  return client.exit_code === null ? 'did not end' : `exited ${client.exit_code}`;
}

function section(
  out: string[],
  title: string,
  results: RuleResult[],
  render: (r: RuleResult) => string,
) {
  if (results.length === 0) return;
  out.push(`## ${title} (${results.length})`, '');
  for (const result of results) out.push(render(result));
  out.push('');
}

function line(result: RuleResult): string {
  return `- **${result.rule_id}** ${cell(result.title)}: ${cell(result.reason ?? '')}`;
}

function brokenLine(result: RuleResult): string {
  const lines = [line(result)];
  const source = sourceMarkdown(result);
  if (source) lines.push(source);
  for (const ex of result.evidence ?? []) {
    const status = ex.response
      ? String(ex.response.status)
      : `no response (${ex.error?.code ?? 'error'})`;
    lines.push(`  - #${ex.id} ${cell(`${ex.request.method} ${ex.request.url}`)} → ${status}`);
  }
  return lines.join('\n');
}

/** Keeps a value on one Markdown line and out of its syntax. */
function cell(value: string): string {
  return value.replace(/\s+/g, ' ').replace(/([\\`*_[\]<|])/g, '\\$1');
}
