import { type CredentialBehaviour, correctCredentials } from '../auth/credential-behaviour.js';
import { checkWritable } from '../auth/service-state.js';
import { badClient } from '../auth/token-grant.js';
import { MAX_ACTIVE_KEYS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { checkNotSuspended } from '../orders/account-state.js';
import { ApiProblem } from '../problems/api-problem.js';
import { defectiveBearerGate } from './bearer-gate.js';
import { defectiveKeyGates } from './key-gates.js';
import { lockedOutSeconds, lockOutKey } from './rate.js';
import { rememberingRefusal } from './sticky-refusal.js';
import { defectiveTokenRequest } from './token-request.js';

const correct = correctCredentials;

/**
 * The credential decisions (auth/credential-behaviour.ts) of a defective
 * server: `ctx.hooks.credentials` when defects are on. The decisions shared
 * by the token request and the bearer gate (key gates, account state, rate
 * limits) are bent here; the others in bearer-gate.ts and token-request.ts.
 */
export function defectiveCredentials(ctx: AppContext): Partial<CredentialBehaviour> {
  const { hasDefect } = ctx;
  return {
    ...defectiveBearerGate(hasDefect),
    ...defectiveTokenRequest(ctx),
    keyGates: (key, account, ip) => {
      const gates = () => defectiveKeyGates(key, account, ip, hasDefect);
      if (hasDefect('live-refusal-remembered')) rememberingRefusal(ctx, key.id, gates);
      else gates();
    },
    checkAccount: async (account, use) => {
      if (!hasDefect('unavailable-ignored')) await correct.checkAccount(account, use);
      if (use === 'read') {
        if (hasDefect('read-only-blocks-reads')) checkWritable(account);
        if (hasDefect('suspended-blocks-reads')) checkNotSuspended(account, 'reads');
      }
      if (use === 'token') {
        if (hasDefect('read-only-blocks-tokens')) checkWritable(account);
        const tenKeys = hasDefect('ten-keys-no-tokens');
        if (tenKeys && (await ctx.store.keys.countActive(account.id)) >= MAX_ACTIVE_KEYS) {
          throw badClient();
        }
      }
    },
    rateSubject: (key, account) =>
      hasDefect('rate-limit-per-account') ? account.id : correct.rateSubject(key, account),
    rateLimit: (account, rateClass) =>
      rateClass === 'read' && hasDefect('read-limit-400')
        ? 400
        : correct.rateLimit(account, rateClass),
    overLimit: (key, rateClass, decision, now) => {
      if (rateClass === 'token' && !decision.allowed && hasDefect('token-limit-off')) {
        return undefined;
      }
      if (rateClass === 'write' && hasDefect('writes-not-limited')) return undefined;
      if (hasDefect('token-refusal-blocks-calls')) {
        if (rateClass === 'token' && !decision.allowed) {
          lockOutKey(ctx, key.id, now + decision.resetSeconds * 1000);
        }
        const locked = rateClass === 'token' ? 0 : lockedOutSeconds(ctx, key.id, now);
        if (locked > 0) {
          return new ApiProblem('rate_limited', `This key is locked out for ${locked} seconds.`, {
            headers: { 'retry-after': String(locked) },
          });
        }
      }
      return correct.overLimit(key, rateClass, decision, now);
    },
  };
}
