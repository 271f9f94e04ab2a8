import { ApiProblem } from '../problems/api-problem.js';
import { defectsOf } from './defect.js';

/** §1, §7 not_found: modes and ownership. */
export const MODE_DEFECTS = defectsOf('MODE', [
  {
    name: 'test-key-sees-live-orders',
    breaks: 'a test key reads, finds and cancels live orders',
    replaces: () => ({
      orderReads: {
        lookupOrder: (lookup) => async (principal, id) =>
          (await lookup(principal, id)) ??
          (principal.mode === 'test'
            ? await lookup({ ...principal, mode: 'live' }, id)
            : undefined),
        lookupByExternalId: (lookup) => async (principal, externalId) =>
          (await lookup(principal, externalId)) ??
          (principal.mode === 'test'
            ? await lookup({ ...principal, mode: 'live' }, externalId)
            : undefined),
      },
    }),
  },
  {
    name: 'live-key-sees-test-quotes',
    breaks: 'a live key reads test quotes',
    replaces: () => ({
      quotes: {
        lookupQuote: (lookup) => async (principal, id) =>
          (await lookup(principal, id)) ??
          (principal.mode === 'live'
            ? await lookup({ ...principal, mode: 'test' }, id)
            : undefined),
      },
    }),
  },
  {
    name: 'other-account-orders-visible',
    breaks: "GET /orders/{id} reads another account's order",
    replaces: ({ ctx, wide }) => ({
      orderReads: {
        // The order of this mode by id, in whatever account holds it.
        lookupOrder: (lookup) => async (principal, id) => {
          const accountId = await wide.orderAccount(id, principal.mode);
          return (
            (accountId === undefined
              ? undefined
              : await ctx.store.orders.get(accountId, principal.mode, id)) ??
            (await lookup(principal, id))
          );
        },
      },
    }),
  },
  {
    // Issue 26: each path that hands an object out, leaking across accounts on its own (MODE-03).
    name: 'other-account-found-by-external-id',
    breaks: "GET /orders/by-external-id finds another account's order of the mode",
    replaces: ({ ctx, wide }) => ({
      orderReads: {
        lookupByExternalId: (lookup) => async (principal, externalId) => {
          const own = await lookup(principal, externalId);
          if (own) return own;
          const accountId = await wide.externalIdAccount(externalId, principal.mode);
          return accountId === undefined
            ? undefined
            : ctx.store.orders.getByExternalId(accountId, principal.mode, externalId);
        },
      },
    }),
  },
  {
    name: 'other-account-orders-listed',
    breaks: "GET /orders lists other accounts' orders of the mode",
    replaces: ({ ctx }) => {
      // The accounts seen placing orders in this app: whose orders the list shows the others.
      const placing = new Set<string>();
      return {
        orders: {
          checkCanPlaceOrders: (check) => (account) => {
            check(account);
            placing.add(account.id);
          },
        },
        orderReads: {
          listOrders: (list) => async (principal, before, limit) => {
            const others = [];
            for (const id of placing) {
              const account =
                id === principal.account.id ? undefined : await ctx.store.accounts.get(id);
              if (account) others.push(...(await list({ ...principal, account }, before, limit)));
            }
            return [...others, ...(await list(principal, before, limit))];
          },
        },
      };
    },
  },
  {
    name: 'other-account-quotes-visible',
    breaks: "GET /quotes/{id} reads another account's quote",
    replaces: ({ ctx }) => {
      // The accounts seen making quotes in this app: where the lookup looks after the caller's.
      const quoting = new Set<string>();
      return {
        quotes: {
          checkWritable: (check) => (account) => {
            check(account);
            quoting.add(account.id);
          },
          lookupQuote: (lookup) => async (principal, id) => {
            const own = await lookup(principal, id);
            if (own) return own;
            for (const accountId of quoting) {
              const account = await ctx.store.accounts.get(accountId);
              const quote = account && (await lookup({ ...principal, account }, id));
              if (quote) return quote;
            }
            return undefined;
          },
        },
      };
    },
  },
  {
    name: 'test-key-lists-live-orders',
    breaks: "a test key's GET /orders lists the account's live orders",
    replaces: () => ({
      orderReads: {
        listOrders: (list) => async (principal, before, limit) => [
          ...(principal.mode === 'test'
            ? await list({ ...principal, mode: 'live' }, before, limit)
            : []),
          ...(await list(principal, before, limit)),
        ],
      },
    }),
  },
  {
    name: 'unknown-id-as-422',
    breaks: 'an order id that does not exist is answered 422 validation_failed',
    replaces: () => ({
      orderReads: {
        notFound: () => () =>
          new ApiProblem('validation_failed', 'The order id is not valid.', {
            errors: [{ detail: 'No order has this id.', pointer: 'id' }],
          }),
      },
    }),
  },
]);
