import { type CheckContext, check, checksUseOwnAccounts, type Key } from '../../lib/check/index.js';
import { expectKeyRefused } from '../support/key-refusal.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';
import {
  DOCUMENTATION_RANGES,
  hostEntries,
  inDocumentationRanges,
  networkEntries,
} from './cidr.js';

checksUseOwnAccounts();

/**
 * A key whose allowlist holds only documentation ranges, where no real
 * caller is. With `whoami` the check makes sure the run's own address is
 * not among them (it never is on a real network).
 */
async function keyAllowedElsewhere(ctx: CheckContext): Promise<Key> {
  if (ctx.has('whoami')) {
    const { ip } = await ctx.control.whoami();
    if (inDocumentationRanges(ip)) {
      ctx.notVerifiable(
        `the run calls from ${ip}, inside the documentation ranges this check allowlists`,
      );
    }
  }
  return ctx.key({ ip_allowlist: DOCUMENTATION_RANGES });
}

// Section 5, rule 9 and section 7 (403 ip_not_allowed). Contract "Readings": the refusal may come at
// the token request or at the call; no protected call may succeed.
check('IP-01', async (ctx) => {
  const key = await keyAllowedElsewhere(ctx);
  const refusal = await expectKeyRefused(ctx, key, { status: 403, code: 'ip_not_allowed' });
  ctx.note(`refused at the ${refusal.at === 'token' ? 'token request' : 'API call'}`);
});

// Section 5, rule 9: calls from the allowlisted addresses work (one address, and a range around it).
check('IP-02', async (ctx) => {
  const { ip } = await ctx.control.whoami();
  for (const allowlist of [hostEntries(ip), networkEntries(ip)]) {
    const key = await ctx.key({ ip_allowlist: allowlist });
    const res = await requestToken(ctx, key);
    if (!ctx.expectStatus(res, ctx.dialect.operations.token.status)) {
      ctx.note(`a caller at ${ip} got no token with the allowlist ${allowlist.join(', ')}`);
      continue;
    }
    const call = await getAccountWith(ctx, issuedToken(res) ?? '');
    if (!ctx.expectStatus(call, ctx.dialect.operations.account.status)) {
      ctx.note(`a caller at ${ip} was refused with the allowlist ${allowlist.join(', ')}`);
    }
  }
});

// Contract "Readings": the reference takes the first reading, refusing already at the token request.
check('IP-03', async (ctx) => {
  const key = await keyAllowedElsewhere(ctx);
  ctx.expectProblem(await requestToken(ctx, key), { status: 403, code: 'ip_not_allowed' });
});
