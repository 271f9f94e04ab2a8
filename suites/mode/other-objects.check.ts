import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { ordering } from '../support/ordering.js';
import { expectOwnedHidden, makeOwned } from './hidden-objects.js';

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('MODE-07', async (ctx) => {
  // Section 1: "Objects belong to exactly one mode. Test keys see only test objects and live keys
  // see only live objects" — every kind of object, not orders alone; section 7: the other mode's
  // object is not_found. Orders and test quotes are MODE-01's and MODE-02's.
  const test = await ordering(ctx, { live_access: true });
  const { account } = test;
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const liveKey = await ctx.key({ mode: 'live', account });
  const live = { ...test, key: liveKey };
  // A live order is placed only with the consent to place live orders (`live_orders`).
  const liveOrder = ctx.has('live_orders');
  if (!liveOrder)
    ctx.note('no live order placed (needs live_orders): live shipments and events not tried');
  const [testOwned, liveOwned] = await together(
    makeOwned(ctx, test, { order: true, quote: false }),
    makeOwned(ctx, live, { order: liveOrder, quote: true }),
  );
  await together(
    expectOwnedHidden(ctx, liveKey, testOwned),
    expectOwnedHidden(ctx, test.key, liveOwned),
  );
});

check('MODE-08', async (ctx) => {
  // Section 7: 404 not_found for "No such object in the account": another account's shipments,
  // invoices, events and webhook endpoints are exactly that, by id, in lists and to delete.
  // Orders and quotes are MODE-03's.
  const [owner, stranger] = await together(ordering(ctx), ordering(ctx));
  if (!owner.account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const owned = await makeOwned(ctx, owner, { order: true, quote: false });
  await expectOwnedHidden(ctx, stranger.key, owned);
});
