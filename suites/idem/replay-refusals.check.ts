import type { AccountSettings, CheckContext, HttpResponse } from '../../lib/check/index.js';
import {
  check,
  checksUseOwnAccounts,
  idIn,
  linesOf,
  newIdempotencyKey,
  orderBody,
} from '../../lib/check/index.js';
import { allAtOnce, together } from '../support/all-at-once.js';
import type { OrderCatalog } from '../support/catalog.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import { problemCode } from '../support/problem-text.js';

/**
 * A state in which a new order is refused, entered after the order was
 * placed: the account's settings when it is placed (`before`) and after
 * (`after`, from the catalog and the order's lines), and the control feature
 * the state needs beyond `accounts` and `keys`.
 */
interface RefusalState {
  what: string;
  before?: AccountSettings;
  after?: (catalog: OrderCatalog, orderedSkus: string[]) => AccountSettings;
  needs?: 'service_state' | 'payments' | 'live_orders';
  /** A new live key on probation: its first three orders use it up. */
  probation?: true;
}

const STATES: readonly RefusalState[] = [
  // Section 4 rule 5 and section 8: the orders per day; the order placed is the day's last.
  { what: "the day's orders used up", before: { limits: { max_orders_per_day: 1 } } },
  // Section 4 rule 5: the maximum order value, lowered under the order's total.
  {
    what: 'the maximum order value lowered under the order',
    after: () => ({ limits: { max_order_value: 1 } }),
  },
  // Section 4 rule 1: the order's product is no longer on the account's list.
  {
    what: "the order's product taken off the account's list",
    after: (catalog, skus) => ({ products: catalog.products.filter((p) => !skus.includes(p.sku)) }),
  },
  // Section 5 rule 11: a suspended account gets 403 partner_suspended on new orders.
  { what: 'the account suspended', after: () => ({ suspended: true }) },
  // Section 7: account_incomplete, the account lacks something needed to place orders.
  { what: 'the account incomplete', after: () => ({ incomplete: true }) },
  // Section 7: read_only, new orders paused.
  {
    what: 'the service read_only',
    after: () => ({ service: 'read_only' }),
    needs: 'service_state',
  },
  // Section 7: card_declined, a new order's payment fails.
  {
    what: 'the card declined',
    before: { billing: { method: 'card', card: 'valid' } },
    after: () => ({
      billing: { method: 'card', card: 'declined', decline_code: 'insufficient_funds' },
    }),
    needs: 'payments',
  },
  // Section 3: a new live key's probation, three orders, used up.
  { what: "the live key's probation spent", probation: true, needs: 'live_orders' },
];

/** The replay judged as section 4 rule 2 says: 200, Idempotent-Replayed: true, the existing order. */
function expectReplay(ctx: CheckContext, res: HttpResponse, id: string, what: string): void {
  const code = problemCode(res);
  ctx.expectTrue(res.status === 200, {
    code: 'STATUS',
    pointer: '/status',
    expected: 200,
    received: code ? `${res.status} ${code}` : res.status,
    message: `with ${what}, the same request with the same key was not answered as a replay`,
    exchange: res.exchange,
  });
  if (res.status !== 200) return;
  ctx.expectHeader(res, 'Idempotent-Replayed', 'true', `a replay with ${what}`);
  ctx.expectEqual(
    `/body${ctx.dialect.answers.order.id}`,
    id,
    idIn(ctx.dialect, 'order', res.json),
    `with ${what}, the replay answers the order placed`,
  );
}

/**
 * One state: an account of its own, the order placed, the state entered, then
 * the replay and a new order at once. The new order shows the state is in
 * force: where the target takes it, the state refuses nothing there and the
 * replay proves nothing (noted, not judged).
 */
async function tryState(ctx: CheckContext, state: RefusalState): Promise<void> {
  const setup = await ordering(ctx, {
    ...state.before,
    ...(state.probation ? { live_access: true } : {}),
  });
  const account = setup.account ?? ctx.notVerifiable('needs an account of its own', ['accounts']);
  const key = state.probation ? await ctx.key({ mode: 'live', account }) : setup.key;
  const body = orderBody(ctx, setup.catalog);
  const idempotencyKey = newIdempotencyKey();
  // Probation: two orders first, so the one replayed is the third and last allowed.
  const earlier = state.probation
    ? [orderBody(ctx, setup.catalog), orderBody(ctx, setup.catalog)]
    : [];
  const fresh = orderBody(ctx, setup.catalog);
  await allAtOnce(earlier, async (other, n) =>
    requireSuccess(await ctx.postOrder(key, other), `live order ${n + 1} of 3 on probation`),
  );
  const placed = await ctx.postOrder(key, body, { idempotencyKey });
  const id = idOf(ctx, requireSuccess(placed, `placing the order before ${state.what}`), 'placing');
  const skus = linesOf(ctx.dialect.orderBody, body).map((line) => line.sku);
  if (state.after) await ctx.control.updateAccount(account.id, state.after(setup.catalog, skus));
  const [replay, refused] = await together(
    ctx.postOrder(key, body, { idempotencyKey }),
    ctx.postOrder(key, fresh),
  );
  if (refused.status < 400) {
    ctx.note(
      `${state.what}: a new order was still taken (evidence #${refused.exchange}), so the replay is not judged`,
    );
    return;
  }
  expectReplay(ctx, replay, id, state.what);
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('IDEM-20', async (ctx) => {
  // Section 4, idempotency rule 2: when the order "was already placed, the response is 200 with
  // header Idempotent-Replayed: true and the existing order". A replay places nothing: whatever
  // now refuses a new order (a limit reached, the account paused, probation spent) must not
  // refuse it.
  ctx.need('accounts', 'keys');
  const states = STATES.filter((state) => {
    if (state.needs === undefined || ctx.has(state.needs)) return true;
    ctx.note(`${state.what}: not tried (needs ${state.needs})`);
    return false;
  });
  await allAtOnce(states, (state) => tryState(ctx, state));
});
