import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../lib/reports/html/render.js';
import { emptyDir } from '../support/temp-dir.js';
import { launchChromium, NO_BROWSER } from './support/chromium.js';
import { sampleReport } from './support/sample-report.js';

let browser: Browser;
let page: Page;
const requests: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  if (NO_BROWSER) return;
  const file = join(emptyDir(), 'report.html');
  writeFileSync(file, renderHtml(sampleReport()));
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(pathToFileURL(file).href);
});

afterAll(async () => {
  await browser?.close();
});

const visibleRules = () =>
  page.$$eval('tr.rule', (rows) =>
    rows.filter((row) => !(row as unknown as { hidden: boolean }).hidden).map((row) => row.id),
  );

describe.skipIf(NO_BROWSER)('report.html in headless Chromium', () => {
  it('loads offline: nothing but itself is requested, no script error', () => {
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/^file:/);
    expect(problems).toEqual([]);
  });

  it('shows the outcome, the summary and a row for every rule', async () => {
    expect(await page.textContent('#outcome')).toBe('Does not conform');
    expect(await page.textContent('a.card[data-verdict="failed"] b')).toBe('1');
    expect(await page.textContent('a.card[data-verdict="not_verifiable"] b')).toBe('2');
    expect(await visibleRules()).toHaveLength(7);
    expect(await page.textContent('#shown')).toBe('7');
  });

  it('filters by verdict', async () => {
    await page.selectOption('#filter-verdict', 'failed');
    expect(await visibleRules()).toEqual(['rule-IDEM-03']);
    await page.selectOption('#filter-verdict', 'not_verifiable');
    expect(await visibleRules()).toEqual(['rule-PAY-02', 'rule-HOOK-01']);
    expect(await page.textContent('#shown')).toBe('2');
    await page.selectOption('#filter-verdict', '');
  });

  it('filters by area, and by verdict with a click on its summary card', async () => {
    await page.selectOption('#filter-area', 'TOKEN');
    expect(await visibleRules()).toEqual(['rule-TOKEN-12', 'rule-TOKEN-01']);
    await page.selectOption('#filter-area', '');
    await page.click('a.card[data-verdict="error"]');
    expect(await visibleRules()).toEqual(['rule-ERR-01']);
    expect(await page.getAttribute('a.card[data-verdict="error"]', 'aria-pressed')).toBe('true');
    await page.click('a.card[data-verdict="error"]');
    expect(await visibleRules()).toHaveLength(7);
  });

  it('shows a failure with its violation, counterexample, seed and evidence', async () => {
    // Above the table, everything open (failures first).
    const failure = page.locator('#finding-IDEM-03');
    expect(await failure.locator('table.violations').isVisible()).toBe(true);
    const text = (await failure.textContent()) ?? '';
    expect(text).toContain('expected HTTP 200, got 201');
    expect(text).toContain('shrunk after 17 runs. Replay');
    expect(text).toContain(
      'npm run conformance -- --target http://127.0.0.1:4010 --only IDEM-03 --seed 1234',
    );
    expect(await failure.locator('.exchange').count()).toBe(1);
    expect(await failure.locator('.exchange.pinned').count()).toBe(1);
  });

  it("links a violation's exchange number to that rule's exchange", async () => {
    await page.click('#finding-IDEM-03 table.violations a');
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { location: { hash: string } }).location.hash,
      ),
    ).toBe('#ex-IDEM-03-2');
    expect(await page.locator('#ex-IDEM-03-2').count()).toBe(1);
  });

  it("renders a target's hostile body as text, never as markup", async () => {
    await page.click('#finding-IDEM-03 .exchange summary');
    expect(await page.locator('#finding-IDEM-03 .exchange pre').last().textContent()).toContain(
      '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>',
    );
    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('main img, main script, #run-errors b').count()).toBe(0);
    expect(await page.textContent('#run-errors')).toContain('afterAll: <b>cleanup</b> failed');
  });
});
