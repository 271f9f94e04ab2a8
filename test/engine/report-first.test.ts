import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeHistory } from '../../lib/reports/history.js';
import { renderHtml } from '../../lib/reports/html/render.js';
import { renderMarkdown } from '../../lib/reports/markdown.js';
import type { Report, RuleResult } from '../../lib/reports/report-model.js';
import { activeRules } from '../../rules/index.js';
import { emptyDir } from '../support/temp-dir.js';
import { launchChromium, NO_BROWSER } from './support/chromium.js';
import { sampleReport, sampleResults } from './support/sample-report.js';

/**
 * Failures first: a failing run of the whole catalogue, three
 * failures each with a long trail of evidence, the rest passing, in a
 * plain 1280×720 window. The certifier's first screen must name every
 * failed rule, and the page must lead with the failures.
 */
const failing = sampleResults().find((r) => r.verdict === 'failed') as RuleResult;
const FAILED = activeRules.filter((r) => r.level === 'MUST').slice(-3);

function failingRun(): Report {
  const results: RuleResult[] = activeRules.map((rule): RuleResult => {
    const base = {
      rule_id: rule.id,
      title: rule.title,
      section: rule.section,
      level: rule.level,
      area: rule.area,
    };
    if (FAILED.includes(rule)) {
      const evidence = Array.from({ length: 12 }, (_, i) => ({
        ...(failing.evidence?.[0] as NonNullable<RuleResult['evidence']>[number]),
        id: i + 1,
      }));
      return {
        ...base,
        verdict: 'failed',
        reason: 'expected HTTP 200, got 201',
        evidence,
        violations: failing.violations ?? [],
      };
    }
    if (rule.level !== 'MUST' && rule.id.endsWith('1'))
      return { ...base, verdict: 'warning', reason: 'header missing' };
    if (rule.needs.includes('payments'))
      return {
        ...base,
        verdict: 'not_verifiable',
        reason: 'needs payments',
        missing: ['payments'],
      };
    return { ...base, verdict: 'passed' };
  });
  const report = sampleReport({ results, run_errors: [] });
  const earlier = (at: string, verdict: 'passed' | 'failed' | 'warning') => ({
    ...report,
    started_at: at,
    results: results.map((r) => ({ ...r, verdict })),
  });
  return {
    ...report,
    started_at: '2025-01-05T00:00:00.000Z',
    history: computeHistory(
      { ...report, started_at: '2025-01-05T00:00:00.000Z' },
      [
        earlier('2025-01-03T00:00:00.000Z', 'warning'),
        earlier('2025-01-04T00:00:00.000Z', 'passed'),
      ],
      '/h',
    ),
  };
}

let browser: Browser;
let page: Page;
const report = failingRun();

beforeAll(async () => {
  if (NO_BROWSER) return;
  const file = join(emptyDir(), 'report.html');
  writeFileSync(file, renderHtml(report));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(pathToFileURL(file).href);
});

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(NO_BROWSER)('report.html of a failing run, in headless Chromium', () => {
  it('shows every failed rule id on the first screen', async () => {
    for (const rule of FAILED) {
      const link = page.locator('#failed-ids a', { hasText: rule.id });
      const box = await link.boundingBox();
      expect(box, rule.id).not.toBeNull();
      expect((box?.y ?? 720) + (box?.height ?? 0), rule.id).toBeLessThanOrEqual(720);
    }
  });

  it('leads with the failures (violations, quote, reproduction, exchanges), then warnings, then what was not verified, then the table', async () => {
    const order = await page.$$eval('main > section, main > h2#rules', (nodes) =>
      nodes.map((n) => n.id),
    );
    expect(order).toEqual(['failures', 'warnings', 'not-verifiable', 'rules']);
    const first = page.locator(`#finding-${FAILED[0]?.id}`);
    expect(await first.locator('table.violations').isVisible()).toBe(true);
    expect(await first.locator('blockquote.quote').isVisible()).toBe(true);
    expect(await first.locator('.exchange').count()).toBe(12);
    expect(await page.locator('#not-verifiable').textContent()).toContain('--control-url');
  });

  it('count tiles are links to their sections', async () => {
    expect(await page.getAttribute('a.card[data-verdict="failed"]', 'href')).toBe('#failures');
    await page.click('a.card[data-verdict="warning"]');
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { location: { hash: string } }).location.hash,
      ),
    ).toBe('#warnings');
    await page.click('a.card[data-verdict="warning"]');
  });

  it('draws history dots in their verdict colours', async () => {
    const rule = FAILED[0]?.id ?? '';
    const colours = await page.$$eval(`.trend[data-rule="${rule}"] .dot`, (dots) =>
      dots.map(
        (dot) =>
          (
            globalThis as unknown as {
              getComputedStyle(e: unknown): { backgroundColor: string };
            }
          ).getComputedStyle(dot).backgroundColor,
      ),
    );
    // warning, passed, failed: --warn, --pass, --fail of style.ts.
    expect(colours).toEqual(['rgb(154, 103, 0)', 'rgb(26, 127, 55)', 'rgb(207, 34, 46)']);
  });
});

describe('summary.md of the same run', () => {
  it('follows the same order: failures, warnings, not verified', () => {
    const md = renderMarkdown(report);
    const at = (heading: string) => md.indexOf(heading);
    expect(at('## MUST failures')).toBeGreaterThan(0);
    expect(at('## MUST failures')).toBeLessThan(at('## Warnings'));
    expect(at('## Warnings')).toBeLessThan(at('## Not verifiable'));
    expect(md).toContain('--control-url');
  });
});
