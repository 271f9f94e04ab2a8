import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, NO_BROWSER } from '../engine/support/chromium.js';
import { brokenRules, type Graded, gradeClient } from '../support/grade-client.js';

/**
 * The clients partners write: each of clients/*.mjs was written from
 * docs/partners.md alone, as a partner would, each with one bug the API
 * document warns of. Each is graded with the situations its bug meets, and
 * must be broken on the rule that bug breaks. A client that waits too little
 * is graded with --retry-after 5, so that "at once" is told from "after
 * Retry-After" however busy the machine is.
 */
const CLIENTS: { file: string; args: string[]; broken: string[]; why: string }[] = [
  {
    file: 'ignores-retry-after.mjs',
    args: ['--situations', '429-token,429-read,429-write', '--retry-after', '5'],
    broken: ['CLIENT-18'],
    why: 'waits 100 ms, not Retry-After',
  },
  {
    file: 'new-key-on-500.mjs',
    args: ['--situations', '500-after,500-before'],
    broken: ['CLIENT-15'],
    why: 'sends an order that got a 500 again with a new Idempotency-Key',
  },
  {
    file: 'token-per-call.mjs',
    args: ['--situations', 'none'],
    broken: ['CLIENT-08'],
    why: 'asks for a token before every call',
  },
  {
    file: 'secret-in-body.mjs',
    args: ['--situations', 'none'],
    // No Basic header either: its credentials are in the form body.
    broken: ['CLIENT-01', 'CLIENT-05'],
    why: 'sends its Secret Key in the token request’s body',
  },
  {
    file: 'reads-detail.mjs',
    args: ['--situations', 'token-expired,429-read,reworded'],
    broken: ['CLIENT-21'],
    why: 'decides by detail, not code',
  },
  {
    file: 'never-refreshes.mjs',
    args: ['--situations', 'token-expired'],
    broken: ['CLIENT-09'],
    why: 'keeps its first token for good',
  },
  {
    file: 'no-idempotency-key.mjs',
    args: ['--situations', 'none'],
    broken: ['CLIENT-12'],
    why: 'places an order without an Idempotency-Key',
  },
];

const runs = new Map<string, Promise<Graded>>();

beforeAll(() => {
  for (const client of CLIENTS) {
    const path = fileURLToPath(new URL(`./clients/${client.file}`, import.meta.url));
    runs.set(client.file, gradeClient(client.args, [process.execPath, path]));
  }
});

describe('clients written from docs/partners.md alone', () => {
  test.each(CLIENTS)('$file ($why) is broken on $broken', async (client) => {
    const graded = await runs.get(client.file);
    expect(graded?.report, graded?.stderr).toBeDefined();
    expect(brokenRules(graded?.report)).toEqual(client.broken);
    expect(graded?.code).toBe(1);
  });
});

describe.skipIf(NO_BROWSER)('the client report in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    const graded = await runs.get('new-key-on-500.mjs');
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(pathToFileURL(join(graded?.dir ?? '', 'report.html')).href);
  });

  afterAll(async () => {
    await browser?.close();
  });

  test('opens offline, with no script error', () => {
    expect(requests).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  test('opens with the broken rules: each with its quote and its exchanges, before anything else', async () => {
    expect(await page.textContent('#outcome')).toBe('Breaks client rules');
    expect(await page.textContent('#broken-ids')).toContain('CLIENT-15');
    const order = await page.$$eval('main > section, main > h2, main > nav', (nodes) =>
      nodes.map((n) => n.id),
    );
    expect(order.slice(0, 2)).toEqual(['summary', 'broken']);
    const finding = page.locator('#finding-CLIENT-15');
    expect(await finding.locator('.verdict').textContent()).toBe('broken');
    expect(await finding.locator('blockquote.quote').textContent()).toContain(
      'After a 500 internal_error, the request is retried with the same key.',
    );
    expect(await finding.locator('.why').textContent()).toMatch(/with a new Idempotency-Key/);
    const exchanges = finding.locator('.exchange');
    expect(await exchanges.count()).toBeGreaterThanOrEqual(2);
    // Open: the request and the answer show without a click.
    expect(await exchanges.first().locator('pre').first().isVisible()).toBe(true);
    expect(await exchanges.first().textContent()).toContain('POST');
  });

  test('filters the rules by outcome, and lists every exchange in order', async () => {
    await page.selectOption('#filter-verdict', 'broken');
    const shown = await page.$$eval('tr.rule', (rows) =>
      rows.filter((row) => !(row as unknown as { hidden: boolean }).hidden).map((row) => row.id),
    );
    expect(shown).toEqual(['rule-CLIENT-15']);
    await page.selectOption('#filter-verdict', '');
    const ids = await page.$$eval('#exchanges ~ .exchange b:first-child', (nodes) =>
      nodes.map((n) => n.textContent),
    );
    expect(ids.length).toBeGreaterThan(3);
    expect(ids).toEqual(ids.map((_, i) => `#${i + 1}`));
  });
});
