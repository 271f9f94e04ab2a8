import fc from 'fast-check';
import { check } from '../../lib/check/index.js';
import {
  escapeWith,
  type PercentEscapeMask,
  percentEscapeMask,
} from '../arbitraries/percentEscapeMask.js';
import { propertyRuns } from '../support/property-runs.js';
import { issuedToken, requestToken } from '../support/token-request.js';
import { WritePacer } from '../support/write-pacer.js';

// Section 4 (Basic credentials of the token request), RFC 6749 §2.3.1: the client form-encodes the
// Access Key ID and the Secret Key before base64, so the server form-decodes them after base64,
// splitting at the first colon. Any character may arrive as %XX; the key works all the same.
check('TOKEN-16', async (ctx) => {
  const key = await ctx.key();
  const everything = (length: number): PercentEscapeMask => ({
    escape: Array.from({ length }, () => true),
    upperHex: true,
  });
  const allEscaped: [PercentEscapeMask, PercentEscapeMask] = [
    everything(key.accessKeyId.length),
    everything(key.secretKey.length),
  ];
  // The token limit (20 a minute per key, section 8) bounds how many fit in one window: with the
  // control clock, the pacer moves the key's account past each window; without it, few are tried.
  const canMoveClock = ctx.has('clock') && key.accountId !== undefined;
  // Runs go out several at a time (ctx.propertyInLanes): the check's key serves the first lane,
  // each further lane has a key in an account of its own (its own token window and clock).
  let firstTaken = false;
  const lane = async () => {
    const laneKey = firstTaken ? await ctx.key({ account: await ctx.newAccount() }) : key;
    firstTaken = true;
    return { key: laneKey, pacer: new WritePacer(ctx, laneKey.accountId, 15) };
  };
  await ctx.propertyInLanes(
    fc.tuple(percentEscapeMask(key.accessKeyId.length), percentEscapeMask(key.secretKey.length)),
    lane,
    async ([idMask, secretMask], { key, pacer }) => {
      await pacer.write();
      const user = escapeWith(key.accessKeyId, idMask);
      const password = escapeWith(key.secretKey, secretMask);
      const res = await requestToken(ctx, key, {
        auth: { kind: 'none' },
        headers: {
          authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
        },
      });
      return (
        ctx.expectStatus(res, ctx.dialect.operations.token.status) && issuedToken(res) !== undefined
      );
    },
    {
      numRuns: canMoveClock
        ? ctx.config.numRuns
        : Math.min(propertyRuns(ctx, ctx.has('keys'), 3), 12),
      examples: [[allEscaped]],
    },
  );
});
