import { API_BASE } from '../config/api.js';
import { checkNotSuspended } from '../orders/account-state.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { Account } from '../store/accounts.js';
import { defectsOf } from './defect.js';

/** The account with some of its settings as a defect misreads them. */
function withSettings(account: Account, settings: Partial<Account['settings']>): Account {
  return { ...account, settings: { ...account.settings, ...settings } };
}

/** §5 rules 10–11, §7: account states. */
export const ACCT_DEFECTS = defectsOf('ACCT', [
  {
    name: 'live-key-before-live-access',
    breaks: 'a live key works before live access is switched on',
    replaces: () => ({
      credentials: {
        keyGates: (gates) => (key, account, ip) =>
          gates(key, withSettings(account, { live_access: true }), ip),
      },
    }),
  },
  {
    name: 'sandbox-not-enforced',
    breaks: 'a test key works while test mode is off',
    replaces: () => ({
      credentials: {
        keyGates: (gates) => (key, account, ip) =>
          gates(key, withSettings(account, { test_mode: true }), ip),
      },
    }),
  },
  {
    name: 'suspended-orders-placed',
    breaks: 'a suspended account still places orders',
    replaces: () => ({
      orders: {
        checkCanPlaceOrders: (check) => (account) =>
          check(withSettings(account, { suspended: false })),
      },
    }),
  },
  {
    name: 'suspended-blocks-reads',
    breaks: 'a suspended account is refused reads too',
    replaces: () => ({
      credentials: {
        checkAccount: (check) => (account, use) => {
          check(account, use);
          if (use === 'read') checkNotSuspended(account, 'reads');
        },
      },
    }),
  },
  {
    name: 'incomplete-not-enforced',
    breaks: 'an incomplete account still places orders',
    replaces: () => ({
      orders: {
        checkCanPlaceOrders: (check) => (account) =>
          check(withSettings(account, { incomplete: false })),
      },
    }),
  },
  {
    name: 'live-refusal-remembered',
    breaks: 'a live key refused before live access stays refused after it is switched on',
    replaces: () => {
      // Key id → the refusal it got: a server that caches a refusal refuses the same way for good.
      const refusals = new Map<string, ApiProblem>();
      return {
        credentials: {
          keyGates: (gates) => (key, account, ip) => {
            const remembered = refusals.get(key.id);
            if (remembered) throw remembered;
            try {
              gates(key, account, ip);
            } catch (error) {
              if (error instanceof ApiProblem) refusals.set(key.id, error);
              throw error;
            }
          },
        },
      };
    },
  },
  {
    // A scoped statement applied too widely, so the check must test its scope's edge: §5.10
    // refuses live keys.
    name: 'live-access-off-refuses-test-keys',
    breaks: 'with live access off, test keys are refused with 403 api_not_enabled too',
    replaces: () => ({
      credentials: {
        keyGates: (gates) => (key, account, ip) =>
          gates(account.settings.live_access ? key : { ...key, mode: 'live' }, account, ip),
      },
    }),
  },
  {
    // A scoped statement applied too widely, so the check must test its scope's edge: test mode off
    // refuses test keys.
    name: 'sandbox-off-refuses-live-keys',
    breaks: 'with test mode off, live keys are refused with 403 sandbox_not_enabled too',
    replaces: () => ({
      credentials: {
        keyGates: (gates) => (key, account, ip) =>
          gates(
            !account.settings.test_mode && account.settings.live_access
              ? { ...key, mode: 'test' }
              : key,
            account,
            ip,
          ),
      },
    }),
  },
  {
    name: 'suspended-blocks-webhook-reads',
    breaks: 'a suspended account is refused the reads of its webhook endpoints and events',
    replaces: () => ({
      // As a server whose webhook service pauses with the account: after the bearer gate.
      beforeHandler: (app) => {
        app.addHook('preHandler', async (request) => {
          const url = request.routeOptions.url ?? '';
          if (
            request.method === 'GET' &&
            request.principal?.account.settings.suspended === true &&
            (url.startsWith(`${API_BASE}/webhook-endpoints`) ||
              url.startsWith(`${API_BASE}/events`))
          )
            checkNotSuspended(request.principal.account, 'webhook endpoint and event reads');
        });
      },
    }),
  },
]);
