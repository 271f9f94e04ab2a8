import type { AppContext } from '../context.js';
import { correctQuotes, type QuoteBehaviour } from '../routes/quotes.js';
import { quoteOfAnyAccount, rememberActiveAccount } from './leaks-across-accounts.js';

/**
 * The quote decisions (routes/quotes.ts `QuoteBehaviour`) of a defective
 * server: plugged in as `ctx.hooks.quotes` only when defects are on.
 */
export function defectiveQuotes(ctx: AppContext): Partial<QuoteBehaviour> {
  const correct = correctQuotes(ctx);
  const { hasDefect } = ctx;
  return {
    checkWritable: (account) => {
      if (!hasDefect('read-only-quotes-created')) correct.checkWritable(account);
      rememberActiveAccount(ctx, account.id);
    },
    lookupQuote: async (principal, id) =>
      hasDefect('quote-not-readable')
        ? undefined
        : ((await correct.lookupQuote(principal, id)) ??
          (principal.mode === 'live' && hasDefect('live-key-sees-test-quotes')
            ? await correct.lookupQuote({ ...principal, mode: 'test' }, id)
            : undefined) ??
          (hasDefect('other-account-quotes-visible')
            ? await quoteOfAnyAccount(ctx, principal, (other) => correct.lookupQuote(other, id))
            : undefined)),
  };
}
