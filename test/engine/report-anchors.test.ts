import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../lib/reports/html/render.js';
import { renderMarkdown } from '../../lib/reports/markdown.js';
import { attachReproduction } from '../../lib/reports/reproduce.js';
import { sampleReport, sampleResults } from './support/sample-report.js';

/** Two rules whose evidence both has an exchange #2, as every real run does. */
function reportWithTwoEvidences() {
  const results = sampleResults();
  const idem = results.find((r) => r.rule_id === 'IDEM-03');
  const token = results.find((r) => r.rule_id === 'TOKEN-12');
  if (!idem?.evidence || !token) throw new Error('sample changed');
  token.evidence = idem.evidence.map((x) => ({ ...x }));
  return attachReproduction(
    sampleReport({ results }),
    'CONTROL_TOKEN="$CONTROL_TOKEN" node /s/bin/conformance.js --target http://127.0.0.1:4010 --seed=1234 --num-runs 100',
  ).report;
}

describe('report.html anchors', () => {
  const html = renderHtml(reportWithTwoEvidences());

  it('never repeats an id', () => {
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids).size).toBe(ids.length);
    expect(html).not.toContain('id="ex-2"');
  });

  it("links the violations table's exchange numbers to their exchange", () => {
    expect(html).toContain('<a href="#ex-IDEM-03-2">#2</a>');
    expect(html).toContain('id="ex-IDEM-03-2"');
  });
});

describe('reproduce in the reports', () => {
  const report = reportWithTwoEvidences();

  it('is set on failed, warning and error results only', () => {
    const withIt = report.results.filter((r) => r.reproduce).map((r) => r.rule_id);
    expect(withIt.sort()).toEqual(['ERR-01', 'IDEM-03', 'TOKEN-12']);
    expect(report.results.find((r) => r.rule_id === 'IDEM-03')?.reproduce?.command).toMatch(
      / --only IDEM-03$/,
    );
  });

  it('shows the command in report.html and summary.md (a result with no sequence to replay has no curl form)', () => {
    const html = renderHtml(report);
    expect(html).toContain('<h4>Reproduce</h4>');
    expect(html).toContain('--only IDEM-03');
    expect(html).not.toContain('class="curl"');
    const md = renderMarkdown(report);
    expect(md).toContain('  ```sh');
    expect(md).toContain('--seed=1234 --num-runs 100 --only IDEM-03');
  });
});
