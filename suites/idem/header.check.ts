import { randomUUID } from 'node:crypto';
import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type OrderBody,
  orderBody,
  uniqueExternalId,
} from '../../lib/check/index.js';
import {
  IDEMPOTENCY_KEY_LENGTHS,
  IDEMPOTENCY_KEY_MAX,
  idempotencyKey,
  keysOfLengths,
} from '../arbitraries/idempotencyKey.js';
import {
  OVERLONG_IDEMPOTENCY_KEY_LENGTHS,
  overlongIdempotencyKey,
} from '../arbitraries/overlongIdempotencyKey.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { expectSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import { orderingLanes } from '../support/ordering-lanes.js';
import { problemCode } from '../support/problem-text.js';
import { propertyRuns } from '../support/property-runs.js';

/**
 * What the boundary keys are made of: drawn from the check's faker, so that
 * `--seed` replays the same keys (and counterexample) and another seed sends
 * keys a partner sandbox has not seen.
 */
function exampleSalt(ctx: CheckContext): string {
  return `ct-${ctx.faker.string.alphanumeric(24)}`;
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('IDEM-01', async (ctx) => {
  // Section 4, POST /orders: "Header Idempotency-Key is required … If it is missing, 400 idempotency_key_required."
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog);
  const res = await ctx.postOrder(key, body, { idempotencyKey: null });
  ctx.expectProblem(res, { status: 400, code: 'idempotency_key_required' });
  await expectNoOrder(ctx, key, body.external_id, 'a POST /orders without Idempotency-Key');
});

check('IDEM-02', async (ctx) => {
  // Sections 4 and 8: an Idempotency-Key is "up to 255 characters"; every such key is accepted.
  const first = await ordering(ctx);
  const { account, catalog } = first;
  // Shrinking sends a key again: the same key then carries the same body, a replay (section 4 rule 2).
  const sent = new Map<string, OrderBody>();
  await ctx.propertyInLanes(
    idempotencyKey,
    orderingLanes(ctx, first, () => ordering(ctx)),
    async (generated, { key, pacer }) => {
      const earlier = sent.get(generated);
      const body = earlier ?? orderBody(ctx, catalog);
      sent.set(generated, body);
      await pacer.write();
      const res = await ctx.postOrder(key, body, { idempotencyKey: generated });
      if (!account && !earlier && problemCode(res) === 'idempotency_conflict') {
        // A partner sandbox keeps keys from earlier runs: a conflict still shows the key was taken as a key.
        ctx.note(`key of ${generated.length} characters was already used in this sandbox (409)`);
        return;
      }
      expectSuccess(ctx, res, `an Idempotency-Key of ${generated.length} characters`);
    },
    {
      numRuns: propertyRuns(ctx, account !== undefined, 5),
      // The limit and the length below it, on every run besides the generated keys.
      examples: keysOfLengths(IDEMPOTENCY_KEY_LENGTHS, exampleSalt(ctx)),
    },
  );
});

check('IDEM-03', async (ctx) => {
  // Sections 4 and 8: "Idempotency-Key … up to 255 characters": a longer key is not taken
  // (generated: 256 characters, the boundary, and longer, of every visible character).
  const first = await ordering(ctx);
  const { account, catalog } = first;
  await ctx.propertyInLanes(
    overlongIdempotencyKey,
    orderingLanes(ctx, first, () => ordering(ctx)),
    async (tooLong, { key, pacer }) => {
      const body = orderBody(ctx, catalog);
      await pacer.write();
      const res = await ctx.postOrder(key, body, { idempotencyKey: tooLong });
      ctx.expectTrue(res.status >= 400 && res.status < 500, {
        code: 'STATUS',
        pointer: '/status',
        expected: '4xx',
        received: res.status,
        message: `a ${tooLong.length}-character Idempotency-Key was not refused`,
        exchange: res.exchange,
      });
      await expectNoOrder(ctx, key, body.external_id, 'an over-long Idempotency-Key');
    },
    {
      numRuns: propertyRuns(ctx, account !== undefined, 3),
      // One over the limit, on every run besides the generated keys.
      examples: keysOfLengths(OVERLONG_IDEMPOTENCY_KEY_LENGTHS, exampleSalt(ctx)),
    },
  );
});

check('IDEM-04', async (ctx) => {
  // Contract section 2 (reference dialect): over 255 characters → 400 idempotency_key_required, detail names the length.
  const { key, catalog } = await ordering(ctx);
  const tooLong = `ct-${randomUUID()}`.padEnd(IDEMPOTENCY_KEY_MAX + 1, 'k');
  const res = await ctx.postOrder(key, orderBody(ctx, catalog), { idempotencyKey: tooLong });
  if (!ctx.expectProblem(res, { status: 400, code: 'idempotency_key_required' })) return;
  const detail = (res.json as { detail?: unknown }).detail;
  ctx.expectTrue(typeof detail === 'string' && /\b25[56]\b/.test(detail), {
    code: 'VALUE',
    pointer: '/body/detail',
    expected: 'a detail naming the length limit (255)',
    received: detail,
    message: 'the refusal does not say how long a key may be',
    exchange: res.exchange,
  });
});

check('IDEM-05', async (ctx) => {
  // Section 4: the key has 1..255 characters; an empty header carries no key, so it reads as missing.
  const { key, catalog } = await ordering(ctx);
  const body = orderBody(ctx, catalog, { externalId: uniqueExternalId('ct-empty-key') });
  const res = await ctx.postOrder(key, body, { idempotencyKey: '' });
  ctx.expectProblem(res, { status: 400, code: 'idempotency_key_required' });
});
