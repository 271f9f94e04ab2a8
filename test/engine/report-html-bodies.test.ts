import { describe, expect, it } from 'vitest';
import { nestingDepth } from '../../lib/evidence/json-text.js';
import { renderHtml } from '../../lib/reports/html/render.js';
import type { RuleResult } from '../../lib/reports/report-model.js';
import { sampleReport } from './support/sample-report.js';

/** A failed rule whose one exchange answered `body`. */
function reportAnswering(body: string) {
  const report = sampleReport();
  const first = report.results[0] as RuleResult;
  const exchange = first.evidence?.[0];
  if (!exchange?.response)
    throw new Error('the sample report changed: its first result has no answer');
  exchange.response.body = body;
  return report;
}

describe('report.html: bodies', () => {
  it('pretty-prints a JSON body and escapes what starts markup in it', () => {
    const html = renderHtml(reportAnswering('{"code":"<b>x</b> &amp; \'y\'","n":1}'));
    // Element content: a quote is an ordinary character there, `&`, `<` and `>` are escaped.
    expect(html).toContain('{\n  "code": "&lt;b&gt;x&lt;/b&gt; &amp;amp; \'y\'",\n  "n": 1\n}');
  });

  it('escapes quotes where a value stands in an attribute', () => {
    const report = reportAnswering('{}');
    const first = report.results[0] as RuleResult;
    first.rule_id = 'X-1"><script>';
    const html = renderHtml(report);
    expect(html).not.toContain('X-1"><script>');
    expect(html).toContain('id="rule-X-1&quot;&gt;&lt;script&gt;"');
  });

  it('shows a deeply nested body as it came, not indented to megabytes', () => {
    // The checks send such bodies; indenting 2,000 levels is ~4 MB of spaces for 4,000 characters.
    const deep = `${'['.repeat(2000)}${']'.repeat(2000)}`;
    const html = renderHtml(reportAnswering(deep));
    expect(html).toContain(deep);
    expect(html.length).toBeLessThan(renderHtml(reportAnswering('{}')).length + 3 * deep.length);
  });

  it('measures nesting outside JSON strings only', () => {
    expect(nestingDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(nestingDepth('{"a":"[[[[\\"[[["}')).toBe(1);
    expect(nestingDepth('plain text')).toBe(0);
  });
});
