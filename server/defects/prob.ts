import { defectsOf } from './defect.js';

/** §3 probation of new live keys. */
export const PROB_DEFECTS = defectsOf('PROB', [
  {
    name: 'probation-orders-unlimited',
    breaks: "probation's 3-order limit is not enforced",
    replaces: () => ({
      orders: {
        checkProbation: (check) => (used, orderTotal) => check({ ...used, count: 0 }, orderTotal),
      },
    }),
  },
  {
    name: 'probation-value-unlimited',
    breaks: "probation's $500.00 limit is not enforced",
    replaces: () => ({
      orders: { checkProbation: (check) => (used) => check({ ...used, total: 0 }, 0) },
    }),
  },
  {
    name: 'probation-never-lifted',
    breaks: 'probation does not end after the first 24 hours',
    replaces: () => ({
      orders: { onProbation: (onProbation) => (key) => onProbation(key, key.createdAt) },
    }),
  },
  {
    name: 'end-probation-ignored',
    breaks: 'ending probation early has no effect',
    replaces: () => ({ keys: { endProbation: () => () => Promise.resolve() } }),
  },
  {
    name: 'probation-skips-cancelled',
    breaks: 'cancelled orders do not count toward probation',
    replaces: ({ wide }) => ({
      orders: { probationUsage: () => (key) => wide.keyUsageWithoutCancelled(key.id) },
    }),
  },
  {
    name: 'probation-per-account',
    breaks: "probation counts every live key's orders of the account",
    replaces: ({ wide }) => ({
      orders: { probationUsage: () => (key) => wide.accountLiveUsage(key.accountId) },
    }),
  },
  {
    name: 'probation-on-test-keys',
    breaks: 'new test keys are held to probation',
    replaces: () => ({
      orders: {
        onProbation: (onProbation) => (key, now) => onProbation({ ...key, mode: 'live' }, now),
      },
    }),
  },
  {
    // A server that starts the 24 hours at the key's first order instead of at the key.
    name: 'probation-from-first-order',
    breaks: "probation's 24 hours run from the key's first order, not from the key",
    replaces: () => {
      // When each live key first ordered.
      const firstOrder = new Map<string, number>();
      return {
        orders: {
          onProbation: (onProbation) => (key, now) => {
            if (key.mode !== 'live') return onProbation(key, now);
            const first = firstOrder.get(key.id) ?? now;
            firstOrder.set(key.id, first);
            return onProbation({ ...key, createdAt: first }, now);
          },
        },
      };
    },
  },
]);
