import type { AccountSettings } from '../domain/account-settings.js';
import { ApiProblem } from '../problems/api-problem.js';

/**
 * §7 payments: with card billing the charge can fail four ways, each 402 and
 * each leaving no order (§4 idempotency rule 5). Contract §3: `billing.card`
 * decides what the next charge does; invoice billing never fails.
 */
export function charge(billing: AccountSettings['billing']): void {
  if (billing.method !== 'card') return;
  switch (billing.card) {
    case 'valid':
      return;
    case 'declined':
      throw new ApiProblem(
        'card_declined',
        'The card was declined; no order was created and nothing was charged. ' +
          'Update the card, then send the order again with a new Idempotency-Key.',
        { declineCode: billing.decline_code },
      );
    case 'authentication_required':
      throw new ApiProblem(
        'authentication_required',
        'The bank asks for extra approval of this charge; no order was created. Contact the operator.',
      );
    case 'missing':
      throw new ApiProblem(
        'payment_method_required',
        'The account bills a card, but none is saved with permission for automatic charges. Add a card in billing.',
      );
    case 'failing':
      throw new ApiProblem(
        'payment_failed',
        'The payment could not be completed; no order was created. Retry later or contact the operator.',
      );
  }
}

/**
 * Whether a placed order is charged to the account's card: card billing takes
 * the order's total when it is placed; invoice billing charges nothing then.
 */
export function chargedToCard(billing: AccountSettings['billing']): boolean {
  return billing.method === 'card';
}
