import { defaultSettings } from '../domain/account-settings.js';
import { money } from '../domain/money.js';
import { SCOPES } from '../domain/scopes.js';
import type { accountView } from '../views/account.js';
import type { HasDefect } from './catalogue.js';

type AccountView = ReturnType<typeof accountView>;
/** `account-limits-flat`: the limits' fields beside the others, no object limits. */
type FlatAccountView = Omit<AccountView, 'limits'> & AccountView['limits'];

const ACCOUNT_DEFECTS = [
  'account-default-limits',
  'account-all-scopes',
  'account-livemode-false',
  'account-billing-invoice',
  'account-limits-flat',
] as const;

/**
 * `account-default-limits`, `account-all-scopes`, `account-livemode-false`,
 * `account-billing-invoice`, `account-limits-flat`: GET /account (§2) as a
 * defective server shows it.
 */
export function bentAccountView(
  view: AccountView,
  hasDefect: HasDefect,
): AccountView | FlatAccountView {
  // The hottest read of the API: a correct server pays a set lookup per defect above, nothing more.
  if (!ACCOUNT_DEFECTS.some((name) => hasDefect(name))) return view;
  if (hasDefect('account-limits-flat')) {
    const { limits, ...rest } = view;
    return { ...rest, ...limits };
  }
  const defaults = defaultSettings().limits;
  return {
    ...view,
    ...(hasDefect('account-default-limits')
      ? {
          limits: {
            max_order_value: money(defaults.max_order_value),
            max_orders_per_day: defaults.max_orders_per_day,
          },
        }
      : {}),
    ...(hasDefect('account-all-scopes') ? { scopes: [...SCOPES] } : {}),
    ...(hasDefect('account-livemode-false') ? { livemode: false } : {}),
    ...(hasDefect('account-billing-invoice') ? { billing_method: 'invoice' as const } : {}),
  };
}
