import { IDEMPOTENCY_KEY_MAX } from '../config/api.js';
import { sha256 } from '../crypto/secret-hash.js';
import { newId, randomBase62 } from '../domain/ids.js';
import { utcDay } from '../domain/time.js';
import { checkAccountLimits } from '../orders/account-limits.js';
import { checkCanPlaceOrders } from '../orders/account-state.js';
import { ApiProblem } from '../problems/api-problem.js';
import { orderView } from '../views/order.js';
import { defectsOf } from './defect.js';
import { databaseRoundTrip } from './round-trip.js';

const HOUR_MS = 3_600_000;

/** §4 POST /orders: the Idempotency-Key and its records (contract §2). */
export const IDEM_DEFECTS = defectsOf('IDEM', [
  {
    name: 'idem-missing-key-accepted',
    breaks: 'POST /orders without Idempotency-Key places the order',
    replaces: () => ({
      orders: {
        idempotencyKeyOf: (keyOf) => (request) => {
          const value = request.headers['idempotency-key'];
          const missing = value === undefined || (typeof value === 'string' && value.trim() === '');
          return missing ? randomBase62(32) : keyOf(request);
        },
      },
    }),
  },
  {
    name: 'idem-key-max-200',
    breaks: 'Idempotency-Keys over 200 characters are refused',
    replaces: () => ({
      orders: {
        idempotencyKeyOf: (keyOf) => (request) => {
          const key = keyOf(request);
          if (key.length > 200) {
            throw new ApiProblem(
              'idempotency_key_required',
              `The Idempotency-Key is ${key.length} characters long; at most 200 are allowed.`,
            );
          }
          return key;
        },
      },
    }),
  },
  {
    // Off by one at the boundary: the limit counted one short, so a key of exactly 255
    // characters is refused.
    name: 'idem-key-max-254',
    breaks: 'an Idempotency-Key of exactly 255 characters is refused (the limit counts 254)',
    replaces: () => ({
      orders: {
        idempotencyKeyOf: (keyOf) => (request) => {
          const key = keyOf(request);
          if (key.length === IDEMPOTENCY_KEY_MAX) {
            throw new ApiProblem(
              'idempotency_key_required',
              `The Idempotency-Key is ${key.length} characters long; at most ${IDEMPOTENCY_KEY_MAX - 1} are allowed.`,
            );
          }
          return key;
        },
      },
    }),
  },
  {
    name: 'idem-256-key-accepted',
    breaks: 'an Idempotency-Key of 256 characters is accepted',
    replaces: () => ({
      orders: {
        idempotencyKeyOf: (keyOf) => (request) => {
          const value = request.headers['idempotency-key'];
          return typeof value === 'string' && value.length === IDEMPOTENCY_KEY_MAX + 1
            ? value
            : keyOf(request);
        },
      },
    }),
  },
  {
    name: 'idem-replay-201',
    breaks: 'a replay is answered 201, not 200',
    replaces: () => ({
      orders: {
        sendReplay: () => (reply, view) =>
          reply.code(201).header('idempotent-replayed', 'true').send(view),
      },
    }),
  },
  {
    name: 'idem-replay-without-header',
    breaks: 'a replay carries no Idempotent-Replayed: true',
    replaces: () => ({ orders: { sendReplay: () => (reply, view) => reply.code(200).send(view) } }),
  },
  {
    name: 'idem-replay-new-id',
    breaks: 'a replay answers the order under a new id',
    replaces: () => ({
      orders: {
        sendReplay: (sendReplay) => (reply, view) =>
          sendReplay(reply, { ...view, id: newId('ord') }),
      },
    }),
  },
  {
    name: 'idem-raw-body-compared',
    breaks: 'the same JSON with other key order or white space is a conflict',
    replaces: () => ({ orders: { fingerprint: () => (request) => sha256(String(request.body)) } }),
  },
  {
    name: 'idem-conflict-replays',
    breaks: 'the same key with a different body replays the first order',
    replaces: () => ({ orders: { sameRequest: () => () => true } }),
  },
  {
    // A server that remembers only which external_id a key placed.
    name: 'idem-conflict-by-external-id-only',
    breaks: 'the same key with another body of the same external_id replays the first order',
    replaces: () => ({
      orders: {
        fingerprint: (fingerprint) => (request, body) =>
          fingerprint(request, {
            external_id: (body as { external_id?: unknown } | null)?.external_id,
          }),
      },
    }),
  },
  {
    name: 'idem-race-unserialized',
    breaks:
      'Idempotency-Key looked up before the lock: an identical racing request gets 409, no replay',
    replaces: () => ({
      orders: {
        // The record as it was before the lock (round-trip.ts): a racer that arrives while the
        // first is placing its order finds none, and goes on to place one itself.
        place: (place) => async (ctx, request, principal, key, fingerprint, input, behave) => {
          const record = await behave.findRecord(principal.account.id, principal.mode, key);
          await databaseRoundTrip();
          return place(ctx, request, principal, key, fingerprint, input, {
            ...behave,
            findRecord: async () => record,
          });
        },
      },
    }),
  },
  {
    name: 'idem-after-commit-record-lost',
    breaks: 'a 500 after commit loses the idempotency record',
    replaces: ({ ctx }) => ({
      orders: {
        place: (place) => async (app, request, principal, key, fingerprint, input, behave) => {
          let committed = false;
          const commit: typeof behave.commit = async (run) => {
            const result = await behave.commit(run);
            committed = !result.replayed;
            return result;
          };
          try {
            return await place(app, request, principal, key, fingerprint, input, {
              ...behave,
              commit,
            });
          } catch (error) {
            // The record is lost with a 500 after the commit, so a retry is not recognised.
            if (committed)
              await ctx.store.idempotency.delete(principal.account.id, principal.mode, key);
            throw error;
          }
        },
      },
    }),
  },
  {
    name: 'idem-before-commit-burns-key',
    breaks: 'a 500 before commit leaves the key taken: the retry is a conflict',
    replaces: ({ ctx }) => ({
      orders: {
        place: (place) => (app, request, principal, key, fingerprint, input, behave) => {
          const { account, mode, now } = principal;
          const commit: typeof behave.commit = (run) =>
            behave.commit(run).catch(async (error: unknown) => {
              // The key stays taken, with no request's fingerprint.
              if (error instanceof ApiProblem && error.code === 'internal_error') {
                await ctx.store.idempotency.insert(
                  account.id,
                  mode,
                  key,
                  Buffer.alloc(32),
                  'ord_none',
                  now,
                );
              }
              throw error;
            });
          return place(app, request, principal, key, fingerprint, input, { ...behave, commit });
        },
      },
    }),
  },
  {
    name: 'idem-keys-across-accounts',
    breaks: 'Idempotency-Keys are looked up across accounts',
    replaces: ({ wide }) => ({
      orders: {
        findRecord: () => (_accountId, mode, key) => wide.idempotencyRecord(key, { mode }),
      },
    }),
  },
  {
    name: 'idem-keys-across-modes',
    breaks: 'Idempotency-Keys are looked up across modes',
    replaces: ({ wide }) => ({
      orders: {
        findRecord: () => (accountId, _mode, key) => wide.idempotencyRecord(key, { accountId }),
      },
    }),
  },
  {
    // Isolation: a replay that reaches another account's order (a different body stays a new
    // request).
    name: 'idem-replay-across-accounts',
    breaks:
      "a request with another account's Idempotency-Key and body is answered with that account's order",
    replaces: ({ ctx, wide }) => ({
      orders: {
        place: (place) => async (app, request, principal, key, fingerprint, input, behave) => {
          const { account, mode } = principal;
          if (!(await behave.findRecord(account.id, mode, key))) {
            const record = await wide.idempotencyRecord(key, { mode });
            const owner = record && (await wide.orderAccount(record.order_id, mode));
            if (record && owner && behave.sameRequest(record.fingerprint, fingerprint)) {
              const order = await ctx.store.orders.get(owner, mode, record.order_id);
              if (order) return { order, view: orderView(order), replayed: true };
            }
          }
          return place(app, request, principal, key, fingerprint, input, behave);
        },
      },
    }),
  },
  {
    // Isolation: a replay that reaches the other mode's order (a different body stays a new
    // request).
    name: 'idem-replay-across-modes',
    breaks:
      "a request with the other mode's Idempotency-Key and body is answered with that mode's order",
    replaces: ({ ctx, wide }) => ({
      orders: {
        place: (place) => async (app, request, principal, key, fingerprint, input, behave) => {
          const { account, mode } = principal;
          const other = mode === 'test' ? 'live' : 'test';
          if (!(await behave.findRecord(account.id, mode, key))) {
            const record = await wide.idempotencyRecord(key, {
              accountId: account.id,
              mode: other,
            });
            if (record && behave.sameRequest(record.fingerprint, fingerprint)) {
              const order = await ctx.store.orders.get(account.id, other, record.order_id);
              if (order) return { order, view: orderView(order), replayed: true };
            }
          }
          return place(app, request, principal, key, fingerprint, input, behave);
        },
      },
    }),
  },
  {
    name: 'idem-records-expire-1h',
    breaks: 'idempotency records are forgotten after one hour',
    replaces: () => ({ orders: { idempotencyRetentionMs: () => HOUR_MS } }),
  },
  {
    // A server that reserves the external_id before it charges, and keeps it when the charge fails.
    name: 'declined-external-id-kept',
    breaks:
      'an order refused with 402 keeps its external_id: sent again with a new key it is a 409',
    replaces: () => {
      // `account|mode|external_id` of the orders refused with 402.
      const declined = new Set<string>();
      return {
        orders: {
          charge: (charge) => (account, mode, externalId) => {
            try {
              charge(account, mode, externalId);
            } catch (error) {
              declined.add(`${account.id}|${mode}|${externalId}`);
              throw error;
            }
          },
          externalIdTaken: (taken) => async (accountId, mode, externalId) =>
            (await taken(accountId, mode, externalId)) ||
            declined.has(`${accountId}|${mode}|${externalId}`),
        },
      };
    },
  },
  {
    // A server that checks whether the account may order before it looks the key up.
    name: 'replay-after-account-state',
    breaks: 'a replay is refused while the account is suspended, incomplete or read_only',
    replaces: ({ ctx }) => ({
      orders: {
        findRecord: (find) => async (accountId, mode, idempotencyKey) => {
          const account = await ctx.store.accounts.get(accountId);
          if (account) checkCanPlaceOrders(account);
          return find(accountId, mode, idempotencyKey);
        },
      },
    }),
  },
  {
    // A server that counts the day's orders before it looks the key up.
    name: 'replay-after-daily-limit',
    breaks: "a replay is refused once the day's orders are used up",
    replaces: ({ ctx }) => ({
      orders: {
        findRecord: (find) => async (accountId, mode, idempotencyKey) => {
          const account = await ctx.store.accounts.get(accountId);
          if (account) {
            const day = utcDay(ctx.now(account));
            checkAccountLimits(
              account.settings,
              0,
              await ctx.store.orders.countOnDay(accountId, mode, day),
            );
          }
          return find(accountId, mode, idempotencyKey);
        },
      },
    }),
  },
]);
