import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/principal.js';
import { CANCEL_WINDOW_MS, IDEMPOTENCY_RETENTION_MS } from '../../config/api.js';
import type { AppContext } from '../../context.js';
import { digestsEqual } from '../../crypto/secret-hash.js';
import { newId } from '../../domain/ids.js';
import { utcDay } from '../../domain/time.js';
import { faultPoint } from '../../faults/fault-point.js';
import type { PlaceOrderResult } from '../../orders/place-order.js';
import { ApiProblem } from '../../problems/api-problem.js';
import { type OrderBody, toShippingAddress } from '../../validation/order-body.js';
import { orderView } from '../../views/order.js';
import { rememberDeclined, wasDeclined } from '../declined-external-ids.js';
import { enterFlight } from '../in-flight.js';
import {
  accountLiveUsage,
  cancelledOnDay,
  idempotencyRecordAcross,
  keyUsageWithoutCancelled,
  ordersOnDayAllModes,
} from '../lookups.js';
import { externalIdInAnyAccount } from '../scope-too-wide.js';
import { checkAccountLimits } from './account-limits.js';
import { checkCanPlaceOrders } from './account-state.js';
import { charge } from './payment.js';
import { priceItems } from './price-items.js';
import { checkProbation, onProbation } from './probation.js';

/**
 * POST /orders' placement as a defective server does it (orders/place-order.ts
 * with the idempotency, order, limit, probation and payment defects switched
 * in). Places an order (§4), all in ONE write transaction: look up the
 * Idempotency-Key, check the account, the five order rules, probation and
 * payment, then store the order, its idempotency record and its event
 * together. The work is synchronous (better-sqlite3), so no other request
 * runs in between: identical requests racing with one key are serialized,
 * and every one after the first replays the order it placed. A throw
 * anywhere rolls everything back: a refused or failed request leaves no
 * order and no record, so its key is free to be sent again (contract §2: a
 * key sent again after a 402 is processed afresh). The transaction joins a
 * group commit (store/group-commit.ts): the answer waits for the COMMIT.
 */
export async function defectivePlaceOrder(
  ctx: AppContext,
  request: FastifyRequest,
  principal: Principal,
  idempotencyKey: string,
  fingerprint: Buffer,
  input: OrderBody,
): Promise<PlaceOrderResult> {
  const { key, mode, now } = principal;
  const { store } = ctx;
  const { hasDefect } = ctx;
  // Test-only defect: a request whose key is still in flight skips the lookup below.
  const flight = hasDefect('idem-race-unserialized')
    ? enterFlight(ctx, `${principal.account.id}|${mode}|${idempotencyKey}`)
    : undefined;
  if (flight && !flight.raced) await flight.barrier;
  const committing = store.groupCommit.run((): PlaceOrderResult => {
    // The account as it is when the batch runs (a control PATCH may have landed since authentication).
    const account = store.accounts.get(principal.account.id) ?? principal.account;
    const record = flight?.raced
      ? undefined
      : hasDefect('idem-keys-across-accounts') || hasDefect('idem-keys-across-modes')
        ? idempotencyRecordAcross(store, idempotencyKey, {
            ...(hasDefect('idem-keys-across-accounts') ? {} : { accountId: account.id }),
            ...(hasDefect('idem-keys-across-modes') ? {} : { mode }),
          })
        : store.idempotency.get(account.id, mode, idempotencyKey);
    if (record) {
      // Contract §2: records are kept (at least) 24 hours on the account clock.
      const retention = hasDefect('idem-records-expire-1h') ? 3_600_000 : IDEMPOTENCY_RETENTION_MS;
      if (now - record.created_at <= retention) {
        if (!digestsEqual(record.fingerprint, fingerprint) && !hasDefect('idem-conflict-replays')) {
          // §4 idempotency rule 3.
          throw new ApiProblem(
            'idempotency_conflict',
            'This Idempotency-Key was already used with a different request. Use a new key for a different order.',
          );
        }
        const order = store.orders.get(account.id, mode, record.order_id);
        if (order) return { order, view: orderView(order), replayed: true };
      }
      store.idempotency.delete(account.id, mode, idempotencyKey);
    }

    checkCanPlaceOrders(account, hasDefect);

    // §4 idempotency rule 4: external_id is unique per account (and mode, contract §2).
    if (
      (!hasDefect('duplicate-external-id-unchecked') &&
        store.orders.getByExternalId(account.id, mode, input.external_id)) ||
      (hasDefect('external-id-unique-across-accounts') &&
        externalIdInAnyAccount(store, mode, input.external_id)) ||
      (hasDefect('declined-external-id-kept') &&
        wasDeclined(ctx, account.id, mode, input.external_id))
    ) {
      throw new ApiProblem(
        'duplicate_external_id',
        `An order with external_id ${JSON.stringify(input.external_id)} already exists. ` +
          'Fetch it with GET /orders/by-external-id/{external_id}.',
      );
    }

    const { settings } = account;
    const priced = priceItems(settings, input.items, input.shipping_address.country, hasDefect);
    const day = utcDay(now);
    const ordersToday = hasDefect('orders-per-day-across-modes')
      ? ordersOnDayAllModes(store, account.id, day)
      : store.orders.countOnDay(account.id, mode, day) -
        (hasDefect('orders-per-day-skips-cancelled')
          ? cancelledOnDay(store, account.id, mode, day)
          : 0);
    checkAccountLimits(settings, priced.total, ordersToday, hasDefect);
    const probation = onProbation(key, now, hasDefect);
    if (probation) {
      const usage = hasDefect('probation-skips-cancelled')
        ? keyUsageWithoutCancelled(store, key.id)
        : hasDefect('probation-per-account')
          ? accountLiveUsage(store, account.id)
          : store.orders.probationUsage(key.id);
      checkProbation(usage, priced.total, hasDefect);
    }
    // Test-only defect `order-kept-after-402`: the charge comes after the commit instead.
    if (hasDefect('declined-external-id-kept')) {
      try {
        charge(settings.billing, hasDefect);
      } catch (error) {
        rememberDeclined(ctx, account.id, mode, input.external_id);
        throw error;
      }
    } else if (!hasDefect('order-kept-after-402')) {
      charge(settings.billing, hasDefect);
    }
    faultPoint(ctx, request, account.id, 'before_commit');

    const order = store.orders.insert({
      id: newId('ord'),
      accountId: account.id,
      mode,
      keyId: key.id,
      externalId: input.external_id,
      status: 'received',
      items: priced.items,
      total: priced.total,
      shippingAddress: toShippingAddress(input.shipping_address),
      createdAt: now,
      cancellableUntil: now + CANCEL_WINDOW_MS,
      updatedAt: now,
    });
    if (probation) store.orders.countForProbation(key.id, order.total);
    store.idempotency.insert(account.id, mode, idempotencyKey, fingerprint, order.id, now);
    const view = orderView(order);
    store.events.record(account.id, mode, 'order.created', now, view);
    return { order, view, replayed: false };
  });
  const result = await committing
    .catch((error: unknown) => {
      // Test-only defect: a 500 before commit leaves the key taken, with no request's fingerprint.
      if (
        hasDefect('idem-before-commit-burns-key') &&
        error instanceof ApiProblem &&
        error.code === 'internal_error'
      ) {
        store.idempotency.insert(
          principal.account.id,
          mode,
          idempotencyKey,
          Buffer.alloc(32),
          'ord_none',
          now,
        );
      }
      throw error;
    })
    .finally(() => flight?.leave());
  if (hasDefect('order-kept-after-402') && !result.replayed) {
    charge(principal.account.settings.billing, hasDefect);
  }
  if (!result.replayed) {
    try {
      faultPoint(ctx, request, principal.account.id, 'after_commit');
    } catch (error) {
      // Test-only defect: the record is lost with the 500, so a retry is not recognised.
      if (hasDefect('idem-after-commit-record-lost')) {
        store.idempotency.delete(principal.account.id, mode, idempotencyKey);
      }
      throw error;
    }
  }
  return result;
}
