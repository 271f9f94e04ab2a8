import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { DIALECTS, type DialectRun, runDialectMatrix } from './run-dialects.js';
import { type DraftRun, draftFileIn, runDraftMatrix, todoFields } from './run-drafts.js';

/**
 * `--draft-profile` from a live server (the reference
 * speaking each dialect of the dialect matrix, with its control API), the
 * draft loaded with no hand edit and compared field by field with the
 * dialect's own profile (`npm run drafts:matrix` prints the figures). Every
 * field the draft got wrong is named by a TODO, never a silent guess; the
 * order body and the order answer are inferred wherever an order could be
 * placed; and the money-per-place dialect's draft certifies clean as it is.
 */
let runs: DraftRun[];
let certified: DialectRun | undefined;
let dir: string;

beforeAll(async () => {
  dir = emptyDir('drafts-test-');
  runs = await runDraftMatrix(['reference', ...DIALECTS], dir);
  const matrix = await runDialectMatrix(['hooli'], 2, (name) => draftFileIn(dir, name));
  certified = matrix.find((run) => run.server === 'hooli' && run.withProfile);
}, 0);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const runOf = (name: string) => runs.find((run) => run.dialect === name);

describe('a draft never guesses silently: each wrong field is named by a TODO', () => {
  it.each(['reference', ...DIALECTS])('%s', (name) => {
    const run = runOf(name);
    expect(run?.fields).toBeGreaterThan(100);
    expect(run?.unnamed).toEqual([]);
  });
});

describe('what the draft infers from a live server with the control API', () => {
  it('the reference and the money-per-place dialect: every field right', () => {
    expect(runOf('reference')?.wrong).toEqual([]);
    expect(runOf('hooli')?.wrong).toEqual([]);
  });

  it.each(['globex', 'initech', 'wonka'])(
    '%s: the order body (from 422 pointers), the order answer and the errors[] form',
    (name) => {
      const wrong = (runOf(name)?.wrong ?? []).filter((w) =>
        /^(orderBody|answers\.order|totals\.order|errors|orderCreatedStatus)\b/.test(w),
      );
      expect(wrong).toEqual([]);
    },
  );

  it('initech and wonka: the quote body, the cancel, every state name', () => {
    for (const name of ['initech', 'wonka']) {
      const wrong = (runOf(name)?.wrong ?? []).filter((w) =>
        /^(quoteBody|orderStatuses|operations\.orderCancel|paths\.orderCancel)\b/.test(w),
      );
      expect(wrong, name).toEqual([]);
    }
  });

  it('wonka: the webhook endpoint body and the event kinds of its own order', () => {
    const wrong = (runOf('wonka')?.wrong ?? []).filter((w) =>
      /^(webhookEndpointBody|eventKinds)\b/.test(w),
    );
    expect(wrong).toEqual([]);
  });
});

describe('the draft used with no hand edit', () => {
  it('certifies the money-per-place dialect clean: exit 0, 0 failed, 0 error', () => {
    expect(certified?.run.problem ?? '').toBe('');
    expect({
      exit: certified?.run.exitCode,
      failed: certified?.counts.failed ?? 0,
      error: certified?.counts.error ?? 0,
    }).toEqual({ exit: 0, failed: 0, error: 0 });
  });
});

describe('the fields a TODO names', () => {
  it('its head, bare names under the previous parent, and every dialect.<field> in its text', () => {
    expect(todoFields('dialect.orderStatuses.inProduction, shipped: not seen')).toEqual([
      'orderStatuses.inProduction',
      'orderStatuses.shipped',
      'orderStatuses.inProduction',
    ]);
    expect(todoFields('dialect.list.hasMore / nextCursor: none')).toContain('list.nextCursor');
    expect(todoFields('not inferred: dialect.paths.invoice, dialect.list.maxLimit')).toEqual([
      'paths.invoice',
      'list.maxLimit',
    ]);
  });
});
