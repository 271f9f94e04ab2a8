import type { AccountSettings } from '../../domain/account-settings.js';
import { ApiProblem } from '../../problems/api-problem.js';
import type { HasDefect } from '../catalogue.js';

/**
 * §7 payments: with card billing the charge can fail four ways, each 402 and
 * each leaving no order (§4 idempotency rule 5). Contract §3: `billing.card`
 * decides what the next charge does; invoice billing never fails.
 */
export function charge(billing: AccountSettings['billing'], hasDefect: HasDefect): void {
  if (billing.method !== 'card' && !hasDefect('invoice-billing-charged')) return;
  switch (billing.card) {
    case 'valid':
      if (hasDefect('valid-card-declined')) {
        throw new ApiProblem('card_declined', 'The card was declined.', {
          declineCode: 'generic_decline',
        });
      }
      return;
    case 'declined':
      throw new ApiProblem(
        hasDefect('declined-as-payment-failed') ? 'payment_failed' : 'card_declined',
        'The card was declined; no order was created and nothing was charged. ' +
          'Update the card, then send the order again with a new Idempotency-Key.',
        hasDefect('decline-code-missing') ? {} : { declineCode: billing.decline_code },
      );
    case 'authentication_required':
      throw new ApiProblem(
        hasDefect('auth-required-as-payment-failed') ? 'payment_failed' : 'authentication_required',
        'The bank asks for extra approval of this charge; no order was created. Contact the operator.',
      );
    case 'missing':
      throw new ApiProblem(
        hasDefect('no-card-as-card-declined') ? 'card_declined' : 'payment_method_required',
        'The account bills a card, but none is saved with permission for automatic charges. Add a card in billing.',
      );
    case 'failing':
      throw new ApiProblem(
        hasDefect('payment-failed-as-auth-required') ? 'authentication_required' : 'payment_failed',
        'The payment could not be completed; no order was created. Retry later or contact the operator.',
      );
  }
}
