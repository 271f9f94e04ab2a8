import type { FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import { CANCEL_WINDOW_MS, IDEMPOTENCY_RETENTION_MS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { digestsEqual, sha256 } from '../crypto/secret-hash.js';
import type { AccountSettings } from '../domain/account-settings.js';
import { canonicalJson } from '../domain/canonical-json.js';
import { newId } from '../domain/ids.js';
import type { Mode } from '../domain/modes.js';
import type { Order } from '../domain/order.js';
import { utcDay } from '../domain/time.js';
import { faultPoint } from '../faults/fault-point.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { Account } from '../store/accounts.js';
import type { IdempotencyRecord } from '../store/idempotency.js';
import type { ApiKey } from '../store/keys.js';
import { type OrderBody, toShippingAddress } from '../validation/order-body.js';
import { orderView } from '../views/order.js';
import { checkAccountLimits } from './account-limits.js';
import { checkCanPlaceOrders } from './account-state.js';
import { charge, chargedToCard } from './payment.js';
import { priceItems } from './price-items.js';
import { checkProbation, onProbation } from './probation.js';

export interface PlaceOrderResult {
  order: Order;
  /** The order's API representation (the answer's body). */
  view: ReturnType<typeof orderView>;
  /** §4 idempotency rule 2: the key already placed this order. */
  replayed: boolean;
}

/**
 * Contract §2: the same request means the same method, path and JSON body up
 * to key order and white space; its fingerprint is a digest of exactly that.
 */
export function requestFingerprint(method: string, path: string, body: unknown): Buffer {
  return sha256(`${method} ${path}\n${canonicalJson(body)}`);
}

/**
 * The steps of placing an order (part of server/behaviour.ts `orders`,
 * passed in by routes/orders-create.ts); `correctPlacement` is the
 * reference's. Each is one rule of §3, §4, §7 or §8.
 */
export interface PlaceOrderBehaviour {
  /** Runs the placement's one write transaction in a group commit; resolves once it is on disk. */
  commit(run: () => Promise<PlaceOrderResult>): Promise<PlaceOrderResult>;
  /** §4 idempotency: the record of this key, in this account and mode only (contract §2). */
  findRecord(
    accountId: string,
    mode: Mode,
    idempotencyKey: string,
  ): Promise<IdempotencyRecord | undefined>;
  /** Contract §2: how long a record is kept on the account clock. */
  readonly idempotencyRetentionMs: number;
  /** §4 idempotency rule 3: whether a stored fingerprint is the same request as this one. */
  sameRequest(stored: Buffer, given: Buffer): boolean;
  /** §5.11, §7: the account may place new orders. */
  checkCanPlaceOrders(account: Account): void;
  /** §4 idempotency rule 4: whether the external_id is taken in this account and mode. */
  externalIdTaken(accountId: string, mode: Mode, externalId: string): Promise<boolean>;
  /** §4 rules 1–4. */
  priceItems: typeof priceItems;
  /** §8: the orders that count toward today's limit (this mode, cancelled ones included). */
  ordersToday(accountId: string, mode: Mode, day: string): Promise<number>;
  /** §4 rule 5, §8. */
  checkAccountLimits(settings: AccountSettings, total: number, ordersToday: number): void;
  /** §3: whether the key is on probation. */
  onProbation(key: ApiKey, now: number): boolean;
  /** §3: the key's orders and their total during probation. */
  probationUsage(key: ApiKey): Promise<{ count: number; total: number }>;
  /** §3 probation limits. */
  checkProbation(used: { count: number; total: number }, orderTotal: number): void;
  /** §7 payments: charges the account for the order with this external_id, or throws a 402. */
  charge(account: Account, mode: Mode, externalId: string): void;
}

export function correctPlacement(ctx: AppContext): PlaceOrderBehaviour {
  const { store } = ctx;
  return {
    commit: (run) => store.groupCommit.run(run),
    findRecord: (accountId, mode, idempotencyKey) =>
      store.idempotency.get(accountId, mode, idempotencyKey),
    idempotencyRetentionMs: IDEMPOTENCY_RETENTION_MS,
    sameRequest: digestsEqual,
    checkCanPlaceOrders,
    externalIdTaken: async (accountId, mode, externalId) =>
      (await store.orders.getByExternalId(accountId, mode, externalId)) !== undefined,
    priceItems,
    ordersToday: (accountId, mode, day) => store.orders.countOnDay(accountId, mode, day),
    checkAccountLimits,
    onProbation,
    probationUsage: (key) => store.orders.probationUsage(key.id),
    checkProbation,
    charge: (account) => charge(account.settings.billing),
  };
}

/**
 * Places an order (§4), all in ONE write transaction: look up the
 * Idempotency-Key, check the account, the five order rules, probation and
 * payment, then store the order, its idempotency record and its event
 * together, holding the account's write lock (store.lockAccount: on SQLite
 * the one write lane, on PostgreSQL a transaction-scoped advisory lock shared
 * by every instance), so no other placement for the account runs in between:
 * identical requests racing with one key are serialized, whichever instance
 * they reach, and every one after the first replays the order it placed. A throw
 * anywhere rolls everything back: a refused or failed request leaves no
 * order and no record, so its key is free to be sent again (contract §2: a
 * key sent again after a 402 is processed afresh). The transaction joins a
 * group commit (store/group-commit.ts): the answer waits for the COMMIT.
 */
export async function placeOrder(
  ctx: AppContext,
  request: FastifyRequest,
  principal: Principal,
  idempotencyKey: string,
  fingerprint: Buffer,
  input: OrderBody,
  behave: PlaceOrderBehaviour,
): Promise<PlaceOrderResult> {
  const { key, mode, now } = principal;
  const { store } = ctx;
  const result = await behave.commit(async (): Promise<PlaceOrderResult> => {
    await store.lockAccount(principal.account.id);
    // The account as it is when the batch runs (a control PATCH may have landed since authentication).
    const account = (await store.accounts.get(principal.account.id)) ?? principal.account;
    const record = await behave.findRecord(account.id, mode, idempotencyKey);
    // Contract §2: records are kept (at least) 24 hours on the account clock.
    if (record && now - record.created_at <= behave.idempotencyRetentionMs) {
      if (!behave.sameRequest(record.fingerprint, fingerprint)) {
        // §4 idempotency rule 3.
        throw new ApiProblem(
          'idempotency_conflict',
          'This Idempotency-Key was already used with a different request. Use a new key for a different order.',
        );
      }
      const order = await store.orders.get(account.id, mode, record.order_id);
      if (order) return { order, view: orderView(order), replayed: true };
    }
    if (record) await store.idempotency.delete(account.id, mode, idempotencyKey);

    behave.checkCanPlaceOrders(account);

    // §4 idempotency rule 4: external_id is unique per account (and mode, contract §2).
    if (await behave.externalIdTaken(account.id, mode, input.external_id)) {
      throw new ApiProblem(
        'duplicate_external_id',
        `An order with external_id ${JSON.stringify(input.external_id)} already exists. ` +
          'Fetch it with GET /orders/by-external-id/{external_id}.',
      );
    }

    const { settings } = account;
    const priced = behave.priceItems(settings, input.items, input.shipping_address.country);
    // §4 rule 5: the limits apply to the total, shipping included.
    const total = priced.total + ctx.shippingCents;
    const ordersToday = await behave.ordersToday(account.id, mode, utcDay(now));
    behave.checkAccountLimits(settings, total, ordersToday);
    const probation = behave.onProbation(key, now);
    if (probation) behave.checkProbation(await behave.probationUsage(key), total);
    behave.charge(account, mode, input.external_id);
    await faultPoint(ctx, request, account.id, 'before_commit');

    const order = await store.orders.insert({
      id: newId('ord'),
      accountId: account.id,
      mode,
      keyId: key.id,
      externalId: input.external_id,
      status: 'received',
      items: priced.items,
      total,
      shippingAddress: toShippingAddress(input.shipping_address),
      createdAt: now,
      cancellableUntil: now + CANCEL_WINDOW_MS,
      updatedAt: now,
    });
    if (probation) await store.orders.countForProbation(key.id, order.total);
    // §7: the card is charged in the transaction that stores the order, so a refusal or a fault
    // before the commit (402, 500, 503) leaves nothing charged.
    if (chargedToCard(account.settings.billing)) {
      await store.charges.record({
        id: newId('ch'),
        accountId: account.id,
        mode,
        orderId: order.id,
        externalId: order.externalId,
        amount: order.total,
        createdAt: now,
      });
    }
    await store.idempotency.insert(account.id, mode, idempotencyKey, fingerprint, order.id, now);
    const view = orderView(order);
    await store.events.record(account.id, mode, 'order.created', now, view);
    return { order, view, replayed: false };
  });
  // §4 idempotency rule 6: a fault after the commit leaves the order and its record stored.
  if (!result.replayed) await faultPoint(ctx, request, principal.account.id, 'after_commit');
  return result;
}
