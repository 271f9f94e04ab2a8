import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type HttpResponse,
  type Key,
} from '../../lib/check/index.js';
import { allAtOnce, together } from '../support/all-at-once.js';
import {
  expectKeyRefused,
  judgeKeyRefused,
  type KeyRefusal,
  keyRefusalOf,
} from '../support/key-refusal.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';
import {
  DOCUMENTATION_RANGES,
  hostEntries,
  inDocumentationRanges,
  neighbourHostEntries,
  neighbourNetworkEntries,
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

/** A key served from the run's address: its token request and `GET /account` with the token. */
interface Served {
  token: HttpResponse;
  call: HttpResponse | undefined;
}

async function servedOf(ctx: CheckContext, key: Key): Promise<Served> {
  const token = await requestToken(ctx, key);
  const issued = issuedToken(token);
  return { token, call: issued === undefined ? undefined : await getAccountWith(ctx, issued) };
}

function expectServed(ctx: CheckContext, { token, call }: Served, what: string): void {
  if (!ctx.expectStatus(token, ctx.dialect.operations.token.status) || call === undefined) {
    ctx.note(`${what} got no token`);
    return;
  }
  if (!ctx.expectStatus(call, ctx.dialect.operations.account.status))
    ctx.note(`${what} was refused at the API call`);
}

const IP_NOT_ALLOWED = { status: 403, code: 'ip_not_allowed' };

// Section 5, rule 9: "An IP allowlist can be set on a key by the operator": it is the key's, not the
// account's. Keys of the same account made before and after the allowlisted one, without one of
// their own, are served from the run's address while the allowlisted key is refused.
check('IP-04', async (ctx) => {
  const before = await ctx.key();
  const listed = await keyAllowedElsewhere(ctx);
  const after = await ctx.key();
  // All three at once, judged in order.
  const [refusal, servedBefore, servedAfter] = await together(
    keyRefusalOf(ctx, listed),
    servedOf(ctx, before),
    servedOf(ctx, after),
  );
  judgeKeyRefused(ctx, refusal, IP_NOT_ALLOWED);
  expectServed(ctx, servedBefore, 'a key of the account made before the allowlisted one');
  expectServed(ctx, servedAfter, 'a key of the account made after the allowlisted one');
});

// Section 5, rule 9: "Calls from other addresses get 403 ip_not_allowed", at the edge of the list: an
// allowlist of the one address next to the caller's, and of the network next to the caller's, leave
// the caller outside. A server that reads a prefix wider than written serves it.
check('IP-05', async (ctx) => {
  const { ip } = await ctx.control.whoami();
  const lists = [
    { what: 'the address next to the caller', allowlist: neighbourHostEntries(ip) },
    { what: 'the network next to the caller', allowlist: neighbourNetworkEntries(ip) },
  ];
  const keys = await allAtOnce(lists, ({ allowlist }) => ctx.key({ ip_allowlist: allowlist }));
  const refusals = await allAtOnce(keys, (key) => keyRefusalOf(ctx, key));
  for (const [i, { what, allowlist }] of lists.entries()) {
    const refusal = judgeKeyRefused(ctx, refusals[i] as KeyRefusal, IP_NOT_ALLOWED);
    ctx.note(
      `a caller at ${ip}, with ${what} allowlisted (${allowlist.join(', ')}): answered ${refusal.res.status} at the ${refusal.at === 'token' ? 'token request' : 'API call'}`,
    );
  }
});
