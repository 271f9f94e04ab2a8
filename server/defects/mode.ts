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
