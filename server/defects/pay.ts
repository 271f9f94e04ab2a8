import type { PlaceOrderBehaviour } from '../orders/place-order.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { ProblemCode } from '../problems/codes.js';
import { chargedAnyway } from './charged-anyway.js';
import { defectsOf } from './defect.js';

type Charge = PlaceOrderBehaviour['charge'];

/** The charge, its 402 answered under another code (§7 payments). */
function swapped(from: ProblemCode, to: ProblemCode) {
  return (charge: Charge): Charge =>
    (account, mode, externalId) => {
      try {
        charge(account, mode, externalId);
      } catch (error) {
        if (!(error instanceof ApiProblem) || error.code !== from) throw error;
        throw new ApiProblem(to, error.message, error.options);
      }
    };
}

/** §7 payments: the 402 codes, and what is charged. */
export const PAY_DEFECTS = defectsOf('PAY', [
  {
    name: 'declined-as-payment-failed',
    breaks: 'a declined card is answered 402 payment_failed',
    replaces: () => ({ orders: { charge: swapped('card_declined', 'payment_failed') } }),
  },
  {
    name: 'decline-code-missing',
    breaks: 'card_declined carries no decline_code',
    replaces: () => ({
      orders: {
        charge: (charge) => (account, mode, externalId) => {
          try {
            charge(account, mode, externalId);
          } catch (error) {
            if (!(error instanceof ApiProblem) || error.options.declineCode === undefined)
              throw error;
            const { declineCode: _dropped, ...options } = error.options;
            throw new ApiProblem(error.code, error.message, options);
          }
        },
      },
    }),
  },
  {
    name: 'auth-required-as-payment-failed',
    breaks: 'a payment the bank wants approved is answered payment_failed',
    replaces: () => ({ orders: { charge: swapped('authentication_required', 'payment_failed') } }),
  },
  {
    name: 'no-card-as-card-declined',
    breaks: 'a card-billed account without a card is answered card_declined',
    replaces: () => ({ orders: { charge: swapped('payment_method_required', 'card_declined') } }),
  },
  {
    name: 'payment-failed-as-auth-required',
    breaks: 'a payment that cannot complete is answered authentication_required',
    replaces: () => ({ orders: { charge: swapped('payment_failed', 'authentication_required') } }),
  },
  {
    name: 'decline-code-on-every-402',
    breaks: 'every 402 carries a decline_code',
    replaces: () => ({
      answer: (answer) => {
        if (answer.problem && answer.reply.statusCode === 402)
          answer.body = {
            ...answer.body,
            decline_code: answer.body.decline_code ?? 'generic_decline',
          };
      },
    }),
  },
  {
    name: 'order-kept-after-402',
    breaks: 'an order refused with 402 is stored all the same',
    replaces: ({ correct }) => ({
      orders: {
        // The charge comes after the commit instead, so a refused order stays stored.
        charge: () => () => undefined,
        place: (place) => (app, request, principal, key, fingerprint, input, behave) =>
          place(app, request, principal, key, fingerprint, input, {
            ...behave,
            commit: async (run) => {
              const result = await behave.commit(run);
              if (!result.replayed)
                correct.orders.charge(principal.account, principal.mode, input.external_id);
              return result;
            },
          }),
      },
    }),
  },
  {
    name: 'invoice-billing-charged',
    breaks: 'an invoice-billed account is charged to the card on file',
    replaces: () => ({
      orders: {
        charge: (charge) => (account, mode, externalId) => {
          const { billing } = account.settings;
          charge(
            {
              ...account,
              settings: { ...account.settings, billing: { ...billing, method: 'card' } },
            },
            mode,
            externalId,
          );
        },
      },
    }),
  },
  {
    name: 'declined-card-charged',
    breaks: 'a declined card is charged all the same, though no order is created',
    replaces: (env) => ({
      orders: { place: chargedAnyway(env, (problem) => problem.code === 'card_declined') },
    }),
  },
  {
    name: 'fault-charge-kept',
    breaks:
      'a 500 internal_error before the commit leaves the card charged (the charge is not rolled back)',
    replaces: (env) => ({
      orders: { place: chargedAnyway(env, (problem) => problem.code === 'internal_error') },
    }),
  },
  {
    name: 'valid-card-declined',
    breaks: 'a saved card that works is declined all the same',
    replaces: () => ({
      orders: {
        charge: (charge) => (account, mode, externalId) => {
          const { billing } = account.settings;
          if (billing.method === 'card' && billing.card === 'valid') {
            throw new ApiProblem('card_declined', 'The card was declined.', {
              declineCode: 'generic_decline',
            });
          }
          charge(account, mode, externalId);
        },
      },
    }),
  },
]);
