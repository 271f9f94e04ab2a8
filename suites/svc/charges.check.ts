import { check, checksUseOwnAccounts, orderBody } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { cardAccounts, chargedOnce, expectNoNewCharge } from '../support/charges.js';

/** Section 7: the two service states that refuse new orders with 503, and their codes. */
const REFUSING = [
  { service: 'unavailable', code: 'api_unavailable' },
  { service: 'read_only', code: 'read_only' },
] as const;

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('SVC-07', async (ctx) => {
  // Section 7: "503 api_unavailable: API switched off for maintenance. Nothing charged."; "503
  // read_only: New orders and quotes are paused" (a paused order takes no payment). Each account
  // first places an order with a working card, so its listing of charges is shown to show a charge
  // taken; then its service is switched and a new order refused.
  const accounts = await cardAccounts(ctx, REFUSING.length);
  const bodies = accounts.map(({ catalog }) => [orderBody(ctx, catalog), orderBody(ctx, catalog)]);
  const refusals = await allAtOnce(accounts, async (account, i) => {
    const [first, refused] = bodies[i] as [(typeof bodies)[number][0], (typeof bodies)[number][1]];
    const { service, code } = REFUSING[i] as (typeof REFUSING)[number];
    const before = await chargedOnce(ctx, account, first);
    await ctx.control.updateAccount(account.account.id, { service });
    const res = await ctx.postOrder(account.key, refused);
    const after = res.status === 503 ? await ctx.control.charges(account.account.id) : undefined;
    return { code, before, res, after };
  });
  for (const { code, before, res, after } of refusals) {
    if (after === undefined) {
      ctx.note(`a new order answered ${res.status}, not 503 ${code}: SVC-02 and SVC-06 judge that`);
      continue;
    }
    expectNoNewCharge(ctx, before, after, `503 ${code}`, res.exchange);
  }
});
