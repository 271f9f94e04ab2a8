import type { AccountSettings, Charge, HttpResponse } from '../../lib/check/index.js';
import {
  API_BASE_PATH,
  check,
  checksUseOwnAccounts,
  HarnessError,
  newIdempotencyKey,
  orderBody,
} from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import {
  cardAccounts,
  chargedOnce,
  expectAtMostOneCharge,
  expectNoNewCharge,
} from '../support/charges.js';

type Card = NonNullable<NonNullable<AccountSettings['billing']>['card']>;

/** Section 7: the card behaviours of the control protocol (contract section 3) that refuse payment, and their 402. */
const REFUSING: readonly { card: Card; code: string }[] = [
  { card: 'declined', code: 'card_declined' },
  { card: 'authentication_required', code: 'authentication_required' },
  { card: 'missing', code: 'payment_method_required' },
  { card: 'failing', code: 'payment_failed' },
];

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('PAY-09', async (ctx) => {
  // Section 7: card_declined "No order created, nothing charged"; authentication_required "The bank
  // wants extra approval", payment_failed "Payment could not be completed" (no order created either);
  // payment_method_required: no card saved "with permission for automatic charges". A charge taken
  // for a refused order contradicts each. Each account first places an order with a working card,
  // so its listing of charges is shown to show a charge taken.
  const accounts = await cardAccounts(ctx, REFUSING.length);
  const bodies = accounts.map(({ catalog }) => [orderBody(ctx, catalog), orderBody(ctx, catalog)]);
  const refusals = await allAtOnce(accounts, async (account, i) => {
    const [first, refused] = bodies[i] as [(typeof bodies)[number][0], (typeof bodies)[number][1]];
    const { card, code } = REFUSING[i] as (typeof REFUSING)[number];
    const before = await chargedOnce(ctx, account, first);
    await ctx.control.updateAccount(account.account.id, {
      billing: { method: 'card', card, decline_code: 'insufficient_funds' },
    });
    const res = await ctx.postOrder(account.key, refused);
    const after = res.status === 402 ? await ctx.control.charges(account.account.id) : undefined;
    return { card, code, before, res, after };
  });
  for (const { card, code, before, res, after } of refusals) {
    if (after === undefined) {
      ctx.note(`a ${card} card answered ${res.status}, not 402 ${code}: PAY-01..04 judge that`);
      continue;
    }
    expectNoNewCharge(ctx, before, after, `402 ${code}`, res.exchange);
  }
});

/** What one fault lane saw: the charges before, at the 500 and after the retry with the same key. */
interface FaultLane {
  when: 'before_commit' | 'after_commit';
  externalId: string;
  before: Charge[];
  failed: HttpResponse;
  atFault: Charge[];
  retry: HttpResponse;
  atRetry: Charge[];
}

check('PAY-10', async (ctx) => {
  // Section 7: "500 internal_error: Fault on the service side. Nothing charged." Section 4, idempotency
  // rule 6: the request is retried with the same key. Contract section 3: before_commit stores
  // nothing (so nothing may be charged at the 500); after_commit stores the order, which the retry
  // answers: one order, so at most one charge.
  const accounts = await cardAccounts(ctx, 2);
  const bodies = accounts.map(({ catalog }) => [orderBody(ctx, catalog), orderBody(ctx, catalog)]);
  const faults = ['before_commit', 'after_commit'] as const;
  const lanes = await allAtOnce(accounts, async (account, i): Promise<FaultLane> => {
    const [first, faulted] = bodies[i] as [(typeof bodies)[number][0], (typeof bodies)[number][1]];
    const when = faults[i] as FaultLane['when'];
    const before = await chargedOnce(ctx, account, first);
    await ctx.control.injectFault(account.account.id, {
      method: 'POST',
      path: API_BASE_PATH + ctx.path('orders'),
      when,
      times: 1,
    });
    const idempotencyKey = newIdempotencyKey();
    const failed = await ctx.postOrder(account.key, faulted, { idempotencyKey });
    if (failed.status !== 500) {
      throw new HarnessError(
        'HARNESS_SETUP',
        `the injected ${when} fault did not fire: POST /orders answered ${failed.status} (evidence #${failed.exchange})`,
      );
    }
    const atFault = await ctx.control.charges(account.account.id);
    const retry = await ctx.postOrder(account.key, faulted, { idempotencyKey });
    const atRetry = await ctx.control.charges(account.account.id);
    return { when, externalId: faulted.external_id, before, failed, atFault, retry, atRetry };
  });
  for (const { when, externalId, before, failed, atFault, retry, atRetry } of lanes) {
    // After commit the order exists when the 500 is sent: its one charge is no fault's.
    if (when === 'before_commit')
      expectNoNewCharge(ctx, before, atFault, `500 internal_error (${when})`, failed.exchange);
    if (retry.status >= 300) {
      ctx.note(`the retry after the ${when} fault answered ${retry.status}: IDEM-11/12 judge that`);
      continue;
    }
    expectAtMostOneCharge(
      ctx,
      before,
      atRetry,
      externalId,
      `500 internal_error (${when}) and a retry with the same Idempotency-Key`,
      retry.exchange,
    );
  }
});
