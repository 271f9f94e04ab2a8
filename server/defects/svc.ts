import { checkWritable } from '../auth/service-state.js';
import { chargedAnyway } from './charged-anyway.js';
import { defectsOf } from './defect.js';

/** §7 read_only and api_unavailable: service states. */
export const SVC_DEFECTS = defectsOf('SVC', [
  {
    name: 'read-only-orders-placed',
    breaks: 'while read_only, new orders are placed',
    replaces: () => ({
      orders: {
        checkCanPlaceOrders: (check) => (account) =>
          check(
            account.settings.service === 'read_only'
              ? { ...account, settings: { ...account.settings, service: 'normal' } }
              : account,
          ),
      },
    }),
  },
  {
    name: 'read-only-quotes-created',
    breaks: 'while read_only, new quotes are made',
    replaces: () => ({ quotes: { checkWritable: () => () => undefined } }),
  },
  {
    name: 'read-only-blocks-reads',
    breaks: 'while read_only, reads are refused too',
    replaces: () => ({
      credentials: {
        checkAccount: (check) => (account, use) => {
          check(account, use);
          if (use === 'read') checkWritable(account);
        },
      },
    }),
  },
  {
    name: 'read-only-blocks-tokens',
    breaks: 'while read_only, token requests are refused',
    replaces: () => ({
      credentials: {
        checkAccount: (check) => (account, use) => {
          check(account, use);
          if (use === 'token') checkWritable(account);
        },
      },
    }),
  },
  {
    name: 'read-only-order-charged',
    breaks: 'while read_only, a new order is refused with 503 but its card is charged all the same',
    replaces: (env) => ({
      orders: { place: chargedAnyway(env, (problem) => problem.code === 'read_only') },
    }),
  },
  {
    name: 'unavailable-ignored',
    breaks: 'while the API is switched off, calls are served',
    replaces: () => ({ credentials: { checkAccount: () => () => undefined } }),
  },
]);
