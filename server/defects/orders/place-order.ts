import type { AppContext } from '../../context.js';
import { charge } from '../../orders/payment.js';
import type { PlaceOrderBehaviour } from '../../orders/place-order.js';
import { ApiProblem } from '../../problems/api-problem.js';
import type { OrderCreateBehaviour } from '../../routes/orders-create.js';
import { rememberDeclined, wasDeclined } from '../declined-external-ids.js';
import { enterFlight } from '../in-flight.js';
import { rememberActiveAccount } from '../leaks-across-accounts.js';
import { cancelledOnDay, idempotencyRecordAcross, ordersOnDayAllModes } from '../lookups.js';
import { externalIdInAnyAccount } from '../scope-too-wide.js';
import { bentCheckAccountLimits } from './account-limits.js';
import { bentCheckCanPlaceOrders } from './account-state.js';
import { bentCharge } from './payment.js';
import { bentPriceItems } from './price-items.js';
import { bentProbation } from './probation.js';

/**
 * The placement decisions (orders/place-order.ts `PlaceOrderBehaviour`) of a
 * defective server: the idempotency, order, limit, probation and payment
 * defects, each bending one decision of the correct flow.
 */
export function defectivePlacement(
  ctx: AppContext,
  correct: PlaceOrderBehaviour,
): Partial<PlaceOrderBehaviour> {
  const { store, hasDefect } = ctx;
  const bentCharged = bentCharge((account) => charge(account.settings.billing), hasDefect);
  return {
    findRecord: (accountId, mode, idempotencyKey) => {
      const acrossAccounts = hasDefect('idem-keys-across-accounts');
      const acrossModes = hasDefect('idem-keys-across-modes');
      if (!acrossAccounts && !acrossModes)
        return correct.findRecord(accountId, mode, idempotencyKey);
      return idempotencyRecordAcross(store, idempotencyKey, {
        ...(acrossAccounts ? {} : { accountId }),
        ...(acrossModes ? {} : { mode }),
      });
    },
    idempotencyRetentionMs: hasDefect('idem-records-expire-1h')
      ? 3_600_000
      : correct.idempotencyRetentionMs,
    sameRequest: (stored, given) =>
      hasDefect('idem-conflict-replays') || correct.sameRequest(stored, given),
    checkCanPlaceOrders: (account) => {
      bentCheckCanPlaceOrders(correct.checkCanPlaceOrders, hasDefect)(account);
      // `other-account-orders-listed` (leaks-across-accounts.ts) lists the orders of accounts seen placing.
      rememberActiveAccount(ctx, account.id);
    },
    externalIdTaken: async (accountId, mode, externalId) =>
      (!hasDefect('duplicate-external-id-unchecked') &&
        (await correct.externalIdTaken(accountId, mode, externalId))) ||
      (hasDefect('external-id-unique-across-accounts') &&
        (await externalIdInAnyAccount(store, mode, externalId)) !== undefined) ||
      (hasDefect('declined-external-id-kept') && wasDeclined(ctx, accountId, mode, externalId)),
    priceItems: bentPriceItems(correct.priceItems, hasDefect),
    ordersToday: async (accountId, mode, day) =>
      hasDefect('orders-per-day-across-modes')
        ? ordersOnDayAllModes(store, accountId, day)
        : (await correct.ordersToday(accountId, mode, day)) -
          (hasDefect('orders-per-day-skips-cancelled')
            ? await cancelledOnDay(store, accountId, mode, day)
            : 0),
    checkAccountLimits: bentCheckAccountLimits(correct.checkAccountLimits, hasDefect),
    ...bentProbation(correct, store, hasDefect),
    charge: (account, mode, externalId) => {
      // `order-kept-after-402`: the charge comes after the commit instead (see `defectivePlace`).
      if (hasDefect('order-kept-after-402')) return;
      try {
        bentCharged(account);
      } catch (error) {
        if (hasDefect('declined-external-id-kept'))
          rememberDeclined(ctx, account.id, mode, externalId);
        throw error;
      }
    },
  };
}

/**
 * The placement flow's defects that act around its transaction: a racing
 * request that skips the key lookup, a key burnt by a 500 before commit, a
 * charge after the commit, a record lost with a 500 after it. Wraps the
 * correct `placeOrder` (routes/orders-create.ts `place`).
 */
export function defectivePlace(
  ctx: AppContext,
  correct: OrderCreateBehaviour,
): OrderCreateBehaviour['place'] {
  const { store, hasDefect } = ctx;
  const bentCharged = bentCharge((account) => charge(account.settings.billing), hasDefect);
  return async (app, request, principal, idempotencyKey, fingerprint, input, behave) => {
    const { account, mode, now } = principal;
    // Test-only defect: a request whose key is still in flight skips the key lookup.
    const flight = hasDefect('idem-race-unserialized')
      ? enterFlight(ctx, `${account.id}|${mode}|${idempotencyKey}`)
      : undefined;
    if (flight && !flight.raced) await flight.barrier;
    let committed = false;
    const bent: PlaceOrderBehaviour = {
      ...behave,
      ...(flight?.raced ? { findRecord: () => Promise.resolve(undefined) } : {}),
      commit: async (run) => {
        const result = await behave.commit(run).catch(async (error: unknown) => {
          // Test-only defect: a 500 before commit leaves the key taken, with no request's fingerprint.
          if (
            hasDefect('idem-before-commit-burns-key') &&
            error instanceof ApiProblem &&
            error.code === 'internal_error'
          ) {
            await store.idempotency.insert(
              account.id,
              mode,
              idempotencyKey,
              Buffer.alloc(32),
              'ord_none',
              now,
            );
          }
          throw error;
        });
        committed = !result.replayed;
        if (committed && hasDefect('order-kept-after-402')) bentCharged(account);
        return result;
      },
    };
    try {
      return await correct.place(app, request, principal, idempotencyKey, fingerprint, input, bent);
    } catch (error) {
      // Test-only defect: the record is lost with a 500 after the commit, so a retry is not recognised.
      if (committed && hasDefect('idem-after-commit-record-lost')) {
        await store.idempotency.delete(account.id, mode, idempotencyKey);
      }
      throw error;
    } finally {
      flight?.leave();
    }
  };
}
