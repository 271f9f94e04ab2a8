import { ApiProblem } from '../../problems/api-problem.js';
import type { ProblemCode } from '../../problems/codes.js';
import type { Account } from '../../store/accounts.js';
import type { HasDefect } from '../catalogue.js';

/**
 * The payment defects (§7): the correct charge of orders/payment.ts, run on
 * bent billing, with its 402 answered under another code or without its
 * decline code.
 */
export function bentCharge(
  correct: (account: Account) => void,
  hasDefect: HasDefect,
): (account: Account) => void {
  return (account) => {
    const { billing } = account.settings;
    const charged = hasDefect('invoice-billing-charged') ? 'card' : billing.method;
    if (charged === 'card' && billing.card === 'valid' && hasDefect('valid-card-declined')) {
      throw new ApiProblem('card_declined', 'The card was declined.', {
        declineCode: 'generic_decline',
      });
    }
    try {
      correct({
        ...account,
        settings: { ...account.settings, billing: { ...billing, method: charged } },
      });
    } catch (error) {
      if (!(error instanceof ApiProblem)) throw error;
      const swap = swappedCode(error.code, hasDefect);
      const dropCode = hasDefect('decline-code-missing') && error.options.declineCode !== undefined;
      if (!swap && !dropCode) throw error;
      const { declineCode: _dropped, ...withoutCode } = error.options;
      throw new ApiProblem(
        swap ?? error.code,
        error.message,
        dropCode ? withoutCode : error.options,
      );
    }
  };
}

/** The 402 code some defects answer in place of the right one (§7 payments). */
function swappedCode(code: ProblemCode, hasDefect: HasDefect): ProblemCode | undefined {
  if (code === 'card_declined' && hasDefect('declined-as-payment-failed')) return 'payment_failed';
  if (code === 'authentication_required' && hasDefect('auth-required-as-payment-failed'))
    return 'payment_failed';
  if (code === 'payment_method_required' && hasDefect('no-card-as-card-declined'))
    return 'card_declined';
  if (code === 'payment_failed' && hasDefect('payment-failed-as-auth-required'))
    return 'authentication_required';
  return undefined;
}
