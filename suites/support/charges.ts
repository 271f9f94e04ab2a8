import type {
  AccountSettings,
  Charge,
  CheckContext,
  Key,
  TestAccount,
} from '../../lib/check/index.js';
import { HarnessError } from '../../lib/check/index.js';
import { allAtOnce } from './all-at-once.js';
import type { OrderCatalog } from './catalog.js';
import { requireSuccess } from './expect-success.js';
import { ordering } from './ordering.js';

/**
 * The billing of an account whose card works: every order it places is charged
 * to the card, so the control listing of charges (the `charges` addition,
 * docs/contract-additions.md) shows a charge where one is taken.
 */
const WORKING_CARD: NonNullable<AccountSettings['billing']> = {
  method: 'card',
  card: 'valid',
};

/** An account of the check's own billed to a working card, and its key and catalog. */
export interface CardAccount {
  account: TestAccount;
  key: Key;
  catalog: OrderCatalog;
}

/**
 * `count` accounts of the check's own billed to a working card (with
 * `settings` beside it), made at once. The catalog of each is known before
 * any order is sent, so a check draws every body first (the same seed, the
 * same requests).
 */
export async function cardAccounts(
  ctx: CheckContext,
  count: number,
  settings: AccountSettings = {},
): Promise<CardAccount[]> {
  const made = await allAtOnce(Array.from({ length: count }), () =>
    ordering(ctx, { ...settings, billing: WORKING_CARD }),
  );
  return made.map(({ key, account, catalog }) => {
    if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
    return { key, account, catalog };
  });
}

/**
 * Places `body` with the account's working card and reads the account's
 * charges: that order must show as a charge. A listing that does not show a
 * charge taken cannot show that nothing was charged, so a control API whose
 * listing stays empty is a set-up failure (its answer, not the API's, is at
 * fault), never a pass. Answers the charges then.
 */
export async function chargedOnce(
  ctx: CheckContext,
  { account, key }: CardAccount,
  body: { external_id: string },
): Promise<Charge[]> {
  requireSuccess(await ctx.postOrder(key, body), 'placing an order with a working card');
  const charges = await ctx.control.charges(account.id);
  if (!charges.some((charge) => charge.external_id === body.external_id)) {
    throw new HarnessError(
      'HARNESS_CONTROL',
      `the control listing of charges shows no charge for the order placed with a working card (external_id ${body.external_id}): it cannot show that nothing was charged`,
    );
  }
  return charges;
}

/** The charges of `after` that `before` did not hold. */
function newCharges(before: readonly Charge[], after: readonly Charge[]): Charge[] {
  const seen = new Set(before.map((charge) => charge.id));
  return after.filter((charge) => !seen.has(charge.id));
}

/** A charge as a violation shows it. */
function shown(charge: Charge): string {
  const order = charge.order_id === null ? 'no order' : `order ${charge.order_id}`;
  return `${charge.amount} cents (${order}, external_id ${charge.external_id})`;
}

/**
 * That the account's charges `after` hold none that `before` did not: section
 * 7's "nothing charged" after `what` (evidence: the refused answer `exchange`).
 */
export function expectNoNewCharge(
  ctx: CheckContext,
  before: readonly Charge[],
  after: readonly Charge[],
  what: string,
  exchange: number,
): boolean {
  const added = newCharges(before, after);
  return ctx.expectTrue(added.length === 0, {
    code: 'STATE',
    pointer: '/charges',
    expected: 'no new charge',
    received: added.map(shown),
    message: `after ${what} the account was charged ${added.length === 1 ? 'once' : `${added.length} times`}`,
    exchange,
  });
}

/**
 * That the account's charges `after` hold, beyond `before`, at most one, and
 * only for the order with `externalId`: one order placed, at most one charge.
 */
export function expectAtMostOneCharge(
  ctx: CheckContext,
  before: readonly Charge[],
  after: readonly Charge[],
  externalId: string,
  what: string,
  exchange: number,
): boolean {
  const added = newCharges(before, after);
  const forOrder = added.filter((charge) => charge.external_id === externalId);
  return ctx.expectTrue(forOrder.length <= 1 && added.length === forOrder.length, {
    code: 'STATE',
    pointer: '/charges',
    expected: `at most one charge, for external_id ${externalId}`,
    received: added.map(shown),
    message: `after ${what} the account was charged ${added.length} times`,
    exchange,
  });
}
