import { check, checksUseOwnAccounts } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { LIMITS } from './limit-classes.js';
import { allServed, pastTheMinuteOf, refusal } from './window.js';

// Each check on an account of its own, its clock its own: they may run side by side.
checksUseOwnAccounts();

// Section 8: "N requests per minute per key": a minute after a key used up a budget, whatever the
// window (fixed, sliding), none of that minute's requests counts any more, and the key has its whole
// budget again. Reads, writes and token requests, each in an account of its own (its clock moves).
check('RATE-16', async (ctx) => {
  await allAtOnce(LIMITS, async (limit) => {
    const account = await ctx.newAccount();
    const { send, sentAt } = await refusal(ctx, limit, account);
    await pastTheMinuteOf(ctx, account, sentAt);
    const { refused } = await allServed(ctx, limit.perMinute, send);
    const sample = refused[0];
    ctx.expectTrue(sample === undefined, {
      code: 'STATUS',
      pointer: '/status',
      expected: `${limit.perMinute} ${limit.name} served`,
      received: `${refused.length} of them refused`,
      message: `a minute after the key's ${limit.name} were used up, its next ${limit.perMinute} were not all served`,
      ...(sample ? { exchange: sample.exchange } : {}),
    });
  });
});
