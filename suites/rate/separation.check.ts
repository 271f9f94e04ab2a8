import { check, checksUseOwnAccounts, quoteBodyOf } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectSuccess, requireSuccess } from '../support/expect-success.js';
import { problemCode } from '../support/problem-text.js';
import { requireQuoteBodyTaken } from '../support/quote-refusal.js';
import { issuedToken, requestToken } from '../support/token-request.js';
import { firstRefusal } from './burst.js';
import { RATE_LIMITED, READS, sender, TOKENS, WRITES } from './limit-classes.js';
import { allServed, pastTheMinuteOf, startOfAMinute } from './window.js';

checksUseOwnAccounts();

// Section 8: every limit is "per key": a key that used up its token requests and its writes leaves
// another key of the same account untouched.
check('RATE-07', async (ctx) => {
  const account = await ctx.account();
  const busy = await ctx.key({ account });
  const other = await ctx.key({ account });
  const otherWrite = await sender(ctx, WRITES, other); // takes its token before anything is used up
  const busyWrite = await sender(ctx, WRITES, busy);
  // Both bursts in one minute of the account clock: one across a fixed window's end gets no 429.
  if (ctx.has('clock')) await startOfAMinute(ctx, account);
  const tokens = await firstRefusal(ctx, TOKENS.perMinute, await sender(ctx, TOKENS, busy));
  if (!tokens) ctx.note('the first key was never refused a token; compared all the same');
  ctx.expectStatus(await requestToken(ctx, other), ctx.dialect.operations.token.status);
  const writes = await firstRefusal(ctx, WRITES.perMinute, busyWrite);
  if (!writes) ctx.note('the first key was never refused a write; compared all the same');
  // Served is any 2xx: the exact success status of a quote is not shown.
  expectSuccess(ctx, await otherWrite(), 'a write of the other key');
});

// Section 8: token requests have their own limit (20), apart from reads (300) and writes (60):
// using up the token requests leaves calls with an existing token working.
check('RATE-08', async (ctx) => {
  const key = await ctx.key();
  const write = await sender(ctx, WRITES, key);
  const token = await ctx.token(key);
  const refused = await firstRefusal(ctx, TOKENS.perMinute, await sender(ctx, TOKENS, key));
  if (!refused) ctx.note('the key was never refused a token; calls checked all the same');
  ctx.expectStatus(
    await ctx.send({ method: 'GET', path: ctx.path('account'), auth: { kind: 'bearer', token } }),
    ctx.dialect.operations.account.status,
  );
  expectSuccess(ctx, await write(), 'a write with the token requests used up');
});

// Section 8: reads (300) and writes (60) are two budgets of one key: a key that used up its writes
// may still send all its reads that minute, and one that used up its reads all its writes. Both
// keys at once, in one minute of the account clock.
check('RATE-12', async (ctx) => {
  const account = await ctx.account();
  const [writer, reader] = await Promise.all([ctx.key({ account }), ctx.key({ account })]);
  // Tokens and bodies first: token requests count only against the token limit.
  const cases = await allAtOnce(
    [
      { key: writer, usedUp: WRITES, other: READS },
      { key: reader, usedUp: READS, other: WRITES },
    ],
    async (one) => ({
      ...one,
      sendUsedUp: await sender(ctx, one.usedUp, one.key),
      sendOther: await sender(ctx, one.other, one.key),
    }),
  );
  await startOfAMinute(ctx, account);
  await allAtOnce(cases, async ({ usedUp, other, sendUsedUp, sendOther }) => {
    const refusal = await firstRefusal(ctx, usedUp.perMinute, sendUsedUp);
    if (!refusal) ctx.note(`a key was never refused its ${usedUp.name}; judged all the same`);
    const { refused } = await allServed(ctx, other.perMinute, sendOther);
    const sample = refused[0];
    ctx.expectTrue(sample === undefined, {
      code: 'STATUS',
      pointer: '/status',
      expected: `${other.perMinute} ${other.name} served`,
      received: `${refused.length} of them refused (${[...new Set(refused.map((r) => r.status))].join(', ')})`,
      message: `a key that used up its ${usedUp.name} was refused ${other.name} within the same minute: they are not two budgets`,
      ...(sample ? { exchange: sample.exchange } : {}),
    });
  });
});

// Section 8: the limits are "per key": every token of a key draws on the one budget. Sixty writes
// spread over three tokens of one key use it up: a write with any of the three is then refused.
check('RATE-15', async (ctx) => {
  const account = await ctx.account();
  const key = await ctx.key({ account });
  const issued = await allAtOnce([1, 2, 3], () => requestToken(ctx, key));
  const tokens = issued.map((res) => {
    const token = issuedToken(res);
    if (token === undefined) requireSuccess(res, 'a token of the key');
    return token as string;
  });
  const order = await ctx.orderBody(undefined, account);
  const json = quoteBodyOf(ctx.dialect, order);
  const write = (token: string) =>
    ctx.send({ method: 'POST', path: ctx.path('quotes'), json, auth: { kind: 'bearer', token } });
  const tried = await write(tokens[0] as string);
  requireQuoteBodyTaken(ctx, tried, 'a quote sent as a write');
  await pastTheMinuteOf(ctx, account, performance.now() - 1000);
  await startOfAMinute(ctx, account);
  const limit = WRITES.perMinute;
  const { refused } = await allServed(
    ctx,
    limit,
    (() => {
      let n = 0;
      return () => write(tokens[n++ % tokens.length] as string);
    })(),
  );
  const sample = refused[0];
  ctx.expectTrue(sample === undefined, {
    code: 'STATUS',
    pointer: '/status',
    expected: `${limit} writes served`,
    received: `${refused.length} of them refused`,
    message: `a key's ${limit} writes of a minute, spread over three of its tokens, were not all served`,
    ...(sample ? { exchange: sample.exchange } : {}),
  });
  if (sample) return;
  const probes = await allAtOnce(tokens, (token) => write(token));
  probes.forEach((res, n) => {
    ctx.expectTrue(res.status === 429 && problemCode(res) === 'rate_limited', {
      code: 'STATUS',
      pointer: '/status',
      expected: '429 rate_limited',
      must: RATE_LIMITED,
      received: `HTTP ${res.status}${problemCode(res) ? ` ${problemCode(res)}` : ''}`,
      message: `token ${n + 1} of 3 was served a write after the key's ${limit} writes of the minute: the limit is counted per token, not per key`,
      exchange: res.exchange,
    });
  });
});
