import { randomBytes } from 'node:crypto';
import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type HttpResponse,
} from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { getAccountWith, issuedToken, requestToken } from '../support/token-request.js';
import { challengeOf, parseChallenges } from '../support/www-authenticate.js';

checksUseOwnAccounts();

interface Unauthorized {
  what: string;
  /** Whether the request sent a credential (a token): RFC 6750 §3.1 then wants an error code. */
  sentToken: boolean;
  res: HttpResponse;
}

/** The 401s of API calls the run can provoke: no header, an unknown token, and (with a clock) an expired one. */
async function unauthorizedCalls(ctx: CheckContext): Promise<Unauthorized[]> {
  const path = ctx.path('account');
  const unknown = `${ctx.dialect.keyPrefix}_at_${randomBytes(24).toString('hex')}`;
  const withClock = ctx.has('clock') && ctx.has('keys') && ctx.has('accounts');
  if (!withClock) ctx.note('the expired-token case needs the control features "keys" and "clock"');
  // The three cases at once: none depends on another.
  const [none, unknownToken, expired] = await together(
    ctx.send({ method: 'GET', path }),
    ctx.send({ method: 'GET', path, auth: { kind: 'bearer', token: unknown } }),
    withClock ? callWithExpiredToken(ctx) : Promise.resolve(undefined),
  );
  const out: Unauthorized[] = [
    { what: 'no Authorization header', sentToken: false, res: none },
    { what: 'an unknown token', sentToken: true, res: unknownToken },
    ...(expired ? [{ what: 'an expired token', sentToken: true, res: expired }] : []),
  ];
  return out.filter(({ what, res }) => {
    if (res.status === 401) return true;
    ctx.note(`${what} was answered ${res.status}, not 401: no challenge to judge`);
    return false;
  });
}

/** A call with a token its account's clock has moved past (an hour and a second). */
async function callWithExpiredToken(ctx: CheckContext): Promise<HttpResponse | undefined> {
  const account = await ctx.account();
  const key = await ctx.key({ account });
  const token = issuedToken(await requestToken(ctx, key));
  if (token === undefined) return undefined;
  await ctx.advanceClock(account, 3601);
  return getAccountWith(ctx, token);
}

/**
 * The 401s a challenge rule judges; none (a target that answered something
 * else, which AUTH-02 and AUTH-04 fail) leaves the rule not_verifiable, never passed.
 */
async function judged(
  ctx: CheckContext,
  which: (call: Unauthorized) => boolean,
): Promise<Unauthorized[]> {
  const calls = (await unauthorizedCalls(ctx)).filter(which);
  if (calls.length === 0) ctx.notVerifiable('the target answered no call of this kind with 401');
  return calls;
}

// Section 5 (401 unauthorized, invalid_token, token_expired), RFC 6750 §3: a 401 of a protected
// resource carries a WWW-Authenticate challenge with the Bearer scheme.
check('AUTH-08', async (ctx) => {
  for (const { what, res } of await judged(ctx, () => true)) {
    ctx.expectHeader(
      res,
      'www-authenticate',
      (value) => challengeOf(value, 'Bearer') !== undefined,
      `a Bearer challenge (${what})`,
    );
  }
});

// Section 5, rule 1, RFC 6750 §3.1: a request without any authentication gets a challenge without an error code.
check('AUTH-09', async (ctx) => {
  for (const { what, res } of await judged(ctx, (call) => !call.sentToken)) {
    const header = res.header('www-authenticate');
    if (header === undefined) continue; // AUTH-08 judges a missing challenge
    const challenges = parseChallenges(header) ?? [];
    const withError = challenges.find((c) => 'error' in c.params);
    ctx.expectTrue(withError === undefined, {
      code: 'HEADER',
      pointer: '/headers/www-authenticate',
      expected: 'a challenge without an error attribute',
      received: header,
      message: `${what}: the request sent no credentials, so the challenge names no error (RFC 6750 §3.1)`,
      exchange: res.exchange,
    });
  }
});

// Section 5, rules 2 and 3, RFC 6750 §3.1: an unknown or expired token gets error="invalid_token".
check('AUTH-10', async (ctx) => {
  for (const { what, res } of await judged(ctx, (call) => call.sentToken)) {
    ctx.expectHeader(
      res,
      'www-authenticate',
      (value) => challengeOf(value, 'Bearer')?.params.error === 'invalid_token',
      `a Bearer challenge with error="invalid_token" (${what})`,
    );
  }
});
