import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, idIn } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';
import {
  accepted,
  answersLine,
  expectWithinRoom,
  inRounds,
  RACE_ROUNDS,
} from '../support/race-rounds.js';
import {
  countEndpoints,
  createEndpoint,
  deleteEndpoint,
  ENDPOINTS_PER_MODE,
  endpointBody,
  endpointDialectGap,
} from '../support/webhook-endpoints.js';

/** Places left free for the race, when the mode has room for them (fewer in a fuller sandbox). */
const FREE = 2;

/** The request of a creation, to a new realistic https URL (support/webhook-endpoints.ts). */
function creation(ctx: CheckContext, key: Key) {
  const url = `https://${ctx.faker.internet.domainName()}/webhooks/${ctx.faker.string.alphanumeric(10)}`;
  return {
    method: ctx.dialect.operations.webhookEndpointCreate.method,
    path: ctx.path('webhookEndpoints'),
    json: endpointBody(ctx, url),
    auth: { kind: 'key', key },
  } as const;
}

/** How many endpoints the key's mode has, or `not_verifiable` naming why they cannot be counted. */
async function counted(ctx: CheckContext, key: Key): Promise<number> {
  const count = await countEndpoints(ctx, key);
  if (typeof count === 'number') return count;
  return ctx.notVerifiable(`the webhook endpoints of the key could not be listed: ${count.why}`);
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

// Section 6 ("At most 5 webhook endpoints per mode. Adding a sixth gives 422 limit_exceeded") and
// section 8: the mode is filled to leave two places, and four creations race for them. Each round
// in an account of its own; with only a partner key, in its sandbox (the check's endpoints deleted
// after each round).
check('RACE-03', async (ctx) => {
  await inRounds(RACE_ROUNDS, async (round) => {
    const { key, account } = await ordering(ctx);
    const existing = await counted(ctx, key);
    const room = ENDPOINTS_PER_MODE - existing;
    if (room < 1) {
      return ctx.notVerifiable(
        `the sandbox already has ${existing} webhook endpoints in this mode`,
      );
    }
    const free = Math.min(FREE, room);
    const made: string[] = [];
    const fill = await allAtOnce(Array.from({ length: room - free }), () =>
      createEndpoint(ctx, key),
    );
    for (const res of fill) {
      const gap = endpointDialectGap(
        ctx,
        res,
        'webhookEndpointCreate',
        'creating a webhook endpoint',
      );
      if (gap) throw gap;
      made.push(
        idOf(ctx, requireSuccess(res, 'filling the mode'), 'an endpoint', 'webhookEndpoint'),
      );
    }
    const answers = await ctx.raceRequests(
      Array.from({ length: free + 2 }, () => creation(ctx, key)),
    );
    ctx.note(`round ${round}: ${answersLine(answers)}`);
    for (const res of answers.filter(accepted)) {
      const id = idIn(ctx.dialect, 'webhookEndpoint', res.json);
      if (id !== undefined) made.push(id);
    }
    const gap = answers.every((res) => !accepted(res))
      ? endpointDialectGap(
          ctx,
          answers[0] as HttpResponse,
          'webhookEndpointCreate',
          'a racing creation',
        )
      : undefined;
    if (gap) throw gap;
    const within = expectWithinRoom(
      ctx,
      answers,
      free,
      { status: 422, code: 'limit_exceeded' },
      'webhook endpoint creations',
    );
    const now = await counted(ctx, key);
    const five = ctx.expectTrue(now <= ENDPOINTS_PER_MODE, {
      code: 'STATE',
      pointer: '/webhook-endpoints',
      expected: `at most ${ENDPOINTS_PER_MODE} webhook endpoints in the mode`,
      received: now,
      message: `round ${round}: after racing creations the mode lists ${now} webhook endpoints`,
    });
    // A partner sandbox gets its room back before the next round (an account of its own needs none).
    if (!account) for (const id of made) await deleteEndpoint(ctx, key, id);
    return within && five;
  });
});
