import { rateLimited } from '../auth/bearer-problems.js';
import { tokenLimitReached } from '../auth/token-grant.js';
import { RATE_WINDOW_MS } from '../config/api.js';
import { utcDay } from '../domain/time.js';
import type { RateClass, RateDecision } from '../limits/rate-limiter.js';
import { findOrder } from '../routes/orders-read.js';
import type { Replacements } from './defect.js';
import { defectsOf } from './defect.js';
import { databaseRoundTrip } from './round-trip.js';
import { storeTokenUnchecked } from './unchecked-token.js';

/**
 * A rate limit counted by reading the key's count, a database round trip,
 * then writing what was read plus one (a read-modify-write, not one atomic
 * step): requests of the class that arrive together all read the same count,
 * all pass, and count as one. Other classes count as the correct server does.
 */
function lostUpdate(counted: RateClass): () => Replacements {
  return () => {
    /** Key id → its window of this class: when it began and what it counted. */
    const windows = new Map<string, { start: number; count: number }>();
    return {
      credentials: {
        countRequest: (count) => async (key, account, rateClass, now) => {
          if (rateClass !== counted) return count(key, account, rateClass, now);
          const limit = account.settings.rate_limits[rateClass];
          const start = now - (now % RATE_WINDOW_MS);
          const seen = windows.get(key.id);
          const used = seen !== undefined && seen.start === start ? seen.count : 0;
          await databaseRoundTrip();
          const resetSeconds = Math.max(1, Math.ceil((start + RATE_WINDOW_MS - now) / 1000));
          if (used >= limit) {
            const decision: RateDecision = { allowed: false, limit, remaining: 0, resetSeconds };
            const refused =
              rateClass === 'token'
                ? tokenLimitReached(decision)
                : rateLimited(rateClass, decision);
            return { decision, refused };
          }
          windows.set(key.id, { start, count: used + 1 });
          const decision: RateDecision = {
            allowed: true,
            limit,
            remaining: limit - used - 1,
            resetSeconds,
          };
          return { decision, refused: undefined };
        },
      },
    };
  };
}

/**
 * Requests a concurrent request can break: each defect here does what the
 * correct server does under the account's lock (one transaction, the check
 * and the write together) as a read before the lock, a database round trip
 * (round-trip.ts), then the write, judged on what was read. One request at a
 * time, it is correct; requests that race all read the same state.
 */
export const RACE_DEFECTS = defectsOf('RACE', [
  {
    name: 'race-external-id-unlocked',
    breaks:
      'external_id checked before the lock: orders racing with one external_id get 500, not 409',
    replaces: () => ({
      orders: {
        place: (place) => async (ctx, request, principal, key, fingerprint, input, behave) => {
          const { account, mode } = principal;
          const taken = await behave.externalIdTaken(account.id, mode, input.external_id);
          await databaseRoundTrip();
          return place(ctx, request, principal, key, fingerprint, input, {
            ...behave,
            externalIdTaken: async () => taken,
          });
        },
      },
    }),
  },
  {
    name: 'race-cancel-unlocked',
    breaks: 'a cancel reads the order before the lock: racing cancels of one order all succeed',
    replaces: () => ({
      cancel: {
        cancel: (cancel) => async (ctx, request, behave, reads) => {
          const seen = await findOrder(reads, request, request.params.id);
          await databaseRoundTrip();
          return cancel(ctx, request, behave, { ...reads, lookupOrder: async () => seen });
        },
      },
    }),
  },
  {
    name: 'race-webhook-limit-unlocked',
    breaks: 'endpoints counted before the lock: racing creations give a mode more than five',
    replaces: () => ({
      webhookEndpoints: {
        create: (create) => async (ctx, request, principal, input, behave) => {
          const counted = await behave.countTowardLimit(principal.account.id, principal.mode);
          await databaseRoundTrip();
          return create(ctx, request, principal, input, {
            ...behave,
            countTowardLimit: async () => counted,
          });
        },
      },
    }),
  },
  {
    name: 'race-orders-per-day-unlocked',
    breaks: "today's orders counted before the lock: racing orders go over the day's maximum",
    replaces: () => ({
      orders: {
        place: (place) => async (ctx, request, principal, key, fingerprint, input, behave) => {
          const { account, mode, now } = principal;
          const today = await behave.ordersToday(account.id, mode, utcDay(now));
          await databaseRoundTrip();
          return place(ctx, request, principal, key, fingerprint, input, {
            ...behave,
            ordersToday: async () => today,
          });
        },
      },
    }),
  },
  {
    name: 'race-probation-unlocked',
    breaks: "probation use read before the lock: a new live key's racing orders go over its caps",
    replaces: () => ({
      orders: {
        place: (place) => async (ctx, request, principal, key, fingerprint, input, behave) => {
          const used = await behave.probationUsage(principal.key);
          await databaseRoundTrip();
          return place(ctx, request, principal, key, fingerprint, input, {
            ...behave,
            probationUsage: async () => used,
          });
        },
      },
    }),
  },
  {
    name: 'race-active-keys-unlocked',
    breaks: 'active keys counted before the lock: racing creations give an account more than ten',
    replaces: () => ({
      keys: {
        create: (create) => async (ctx, key, behave) => {
          const active = await behave.countTowardLimit(key.accountId);
          await databaseRoundTrip();
          return create(ctx, key, { ...behave, countTowardLimit: async () => active });
        },
      },
    }),
  },
  {
    name: 'race-token-count-lost-update',
    breaks:
      'token requests counted read-then-write (a lost update): racing ones all pass the limit',
    replaces: lostUpdate('token'),
  },
  {
    name: 'race-write-count-lost-update',
    breaks: 'writes counted read-then-write (a lost update): racing writes all pass the limit',
    replaces: lostUpdate('write'),
  },
  {
    name: 'race-read-count-lost-update',
    breaks: 'reads counted read-then-write (a lost update): racing reads all pass the limit',
    replaces: lostUpdate('read'),
  },
  {
    name: 'race-token-stored-after-roll',
    breaks:
      'a token is stored a round trip after its secret was checked: one racing a roll outlives it',
    replaces: ({ wide }) => ({
      credentials: {
        // Issued for the secret as it was checked; stored after a round trip in which the key may
        // have been rolled (and its tokens dropped): the new token is not among them (stored whatever the key is now).
        storeToken: storeTokenUnchecked(wide, databaseRoundTrip),
      },
    }),
  },
  {
    name: 'race-token-stored-after-revoke',
    breaks:
      'a revoke only drops tokens, stored a round trip after their check: one racing it lives on',
    replaces: ({ wide }) => ({
      credentials: {
        // A token is honoured while its row exists (a revoke drops its key's rows), and stored a
        // round trip after the key was checked: one whose key was revoked meanwhile is kept.
        keyHonoursTokens: () => () => true,
        storeToken: storeTokenUnchecked(wide, databaseRoundTrip),
      },
    }),
  },
]);
