import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, orderBody, quoteBody } from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { expectSuccess, idOf, requireSuccess } from '../support/expect-success.js';
import { orderIdsWithExternalId } from '../support/order-count.js';
import { ordering } from '../support/ordering.js';
import { requireQuoteBodyTaken } from '../support/quote-refusal.js';
import { expectHiddenAnswer } from './hidden-objects.js';

/** An order and a quote an owner made, for another key to try to see. */
interface Owned {
  owner: Key;
  orderId: string;
  externalId: string;
  quoteId?: string;
}

/**
 * Every way a key could reach the owner's objects: read, read by external id,
 * cancel, quote; with `state`, also the order list and whether the cancel
 * tried left the owner's order alone.
 */
async function expectHidden(
  ctx: CheckContext,
  other: Key,
  owned: Owned,
  state: boolean,
): Promise<void> {
  const client = ctx.api(other);
  const { orderId, externalId, quoteId } = owned;
  // Every way in at once, judged in order.
  const [read, byExternalId, cancel, quote] = await together(
    client.get(ctx.path('order', { id: orderId })),
    client.get(ctx.path('orderByExternalId', { external_id: externalId })),
    client.post(ctx.path('orderCancel', { id: orderId })),
    quoteId ? client.get(ctx.path('quote', { id: quoteId })) : Promise.resolve(undefined),
  );
  expectHiddenAnswer(ctx, read, 'GET /orders/{id}', orderId, 'order');
  expectHiddenAnswer(ctx, byExternalId, 'GET /orders/by-external-id', orderId, 'order');
  expectHiddenAnswer(ctx, cancel, 'POST /orders/{id}/cancel', orderId, 'order');
  if (quote && quoteId) expectHiddenAnswer(ctx, quote, 'GET /quotes/{id}', quoteId, 'quote');
  if (state) {
    // After the other key's cancel: its order list, and the owner's own cancel, at once.
    const pages: HttpResponse[] = [];
    const [listed, ownerCancel] = await together(
      orderIdsWithExternalId(ctx, other, externalId, 20, pages),
      ctx.api(owned.owner).post(ctx.path('orderCancel', { id: orderId })),
    );
    ctx.expectTrue(listed === undefined || listed.length === 0, {
      code: 'LEAK',
      pointer: `/body${ctx.dialect.list.items}`,
      expected: 'no such order in the list',
      received: listed,
      message: "the order is in another key's order list",
      // As data over the pages read: none lists the order.
      exchanges: pages.map((page) => page.exchange),
      must: {
        each: {
          not: {
            at: `/body${ctx.dialect.list.items}`,
            is: { hasItem: { at: ctx.dialect.answers.order.id, is: { equals: orderId } } },
          },
        },
      },
    });
    // The cancel tried above must not have cancelled the owner's order.
    expectSuccess(ctx, ownerCancel, "the owner's cancel after another key's attempt");
  }
}

async function own(
  ctx: CheckContext,
  owner: Key,
  catalog: Parameters<typeof orderBody>[1],
  withQuote: boolean,
): Promise<Owned> {
  // Both bodies drawn in order, then the order and the quote placed at once.
  const body = orderBody(ctx, catalog);
  const quoteSent = withQuote ? quoteBody(ctx, catalog) : undefined;
  const [placed, quote] = await together(
    ctx.postOrder(owner, body),
    quoteSent ? ctx.api(owner).post(ctx.path('quotes'), quoteSent) : Promise.resolve(undefined),
  );
  const orderId = idOf(
    ctx,
    requireSuccess(placed, "placing the owner's order"),
    'placing the order',
  );
  const owned: Owned = { owner, orderId, externalId: body.external_id };
  if (quote) {
    requireQuoteBodyTaken(ctx, quote, "creating the owner's quote");
    owned.quoteId = idOf(
      ctx,
      requireSuccess(quote, "creating the owner's quote"),
      'creating the quote',
      'quote',
    );
  }
  return owned;
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('MODE-01', async (ctx) => {
  // Section 1: "Test keys see only test objects"; section 7: not_found when "it belongs to the other mode".
  const { key: testKey, account, catalog } = await ordering(ctx, { live_access: true });
  const liveKey = await ctx.key({ mode: 'live', ...(account ? { account } : {}) });
  const owned = await own(ctx, liveKey, catalog, false);
  await expectHidden(ctx, testKey, owned, true);
});

check('MODE-02', async (ctx) => {
  // Section 1: "live keys see only live objects"; section 7: not_found for the other mode's objects.
  const { key: testKey, account, catalog } = await ordering(ctx, { live_access: true });
  const [liveKey, owned] = await together(
    ctx.key({ mode: 'live', ...(account ? { account } : {}) }),
    own(ctx, testKey, catalog, true),
  );
  await expectHidden(ctx, liveKey, owned, true);
});

check('MODE-03', async (ctx) => {
  // Section 7: 404 not_found for "No such object in the account": another account's objects are exactly that.
  const [owned, stranger] = await together(
    ordering(ctx).then((owner) => own(ctx, owner.key, owner.catalog, true)),
    ordering(ctx),
  );
  await expectHidden(ctx, stranger.key, owned, true);
});

check('MODE-04', async (ctx) => {
  // Section 7 not_found covers "No such object in the account"; answering 403 would confirm the
  // object exists elsewhere (RFC 9110 section 15.5.5 allows 404 to hide it): 404, never 403.
  const [owned, stranger] = await together(
    ordering(ctx).then((owner) => own(ctx, owner.key, owner.catalog, true)),
    ordering(ctx),
  );
  await expectHidden(ctx, stranger.key, owned, false);
});

check('MODE-06', async (ctx) => {
  // Contract section 2 readings: external_id is unique per account within a mode; reuse in the other mode is the dialect's.
  const { key: testKey, account, catalog } = await ordering(ctx, { live_access: true });
  const liveKey = await ctx.key({ mode: 'live', ...(account ? { account } : {}) });
  const body = orderBody(ctx, catalog);
  requireSuccess(await ctx.postOrder(testKey, body), 'placing the test order');
  expectSuccess(
    ctx,
    await ctx.postOrder(liveKey, body),
    "a live order reusing a test order's external_id",
  );
});
