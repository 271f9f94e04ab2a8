import { parseBasic } from '../auth/basic.js';
import { badClient } from '../auth/token-grant.js';
import { MAX_ACTIVE_KEYS } from '../config/api.js';
import { secretMatches } from '../crypto/secret-hash.js';
import { newSecretKey } from '../domain/ids.js';
import type { DefectEnv } from './defect.js';
import { defectsOf, successOf } from './defect.js';
import { storeTokenUnchecked } from './unchecked-token.js';

/**
 * Runs a roll or revoke (which drops the key's tokens) and puts the tokens
 * back as they were.
 */
async function keepingTokens(
  { wide }: DefectEnv,
  keyId: string,
  change: () => Promise<void>,
): Promise<void> {
  const rows = await wide.tokensOfKey(keyId);
  await change();
  for (const row of rows) await wide.insertToken(row);
}

/** §3 API key: roll, revoke, the ten-key limit and key ids. */
export const KEY_DEFECTS = defectsOf('KEY', [
  {
    name: 'roll-keeps-old-secret',
    breaks: 'after a roll the old Secret Key still gets tokens',
    replaces: () => {
      // The digests a roll replaced, by key id.
      const replaced = new Map<string, Buffer[]>();
      return {
        keys: {
          roll: (roll) => async (key, secret) => {
            replaced.set(key.id, [...(replaced.get(key.id) ?? []), key.secretHash]);
            await roll(key, secret);
          },
        },
        credentials: {
          secretAccepted: (accepted) => (key, secret) =>
            accepted(key, secret) ||
            (key !== undefined &&
              (replaced.get(key.id) ?? []).some((digest) => secretMatches(secret, digest))),
        },
      };
    },
  },
  {
    name: 'roll-keeps-old-tokens',
    breaks: 'after a roll the tokens made with the old Secret Key still work',
    replaces: (env) => ({
      keys: {
        roll: (roll) => (key, secret) => keepingTokens(env, key.id, () => roll(key, secret)),
      },
    }),
  },
  {
    name: 'roll-answers-wrong-secret',
    breaks: 'a roll answers a Secret Key other than the one it stores',
    replaces: () => ({ keys: { roll: (roll) => (key) => roll(key, newSecretKey(key.mode)) } }),
  },
  {
    name: 'revoke-keeps-tokens',
    breaks: "a revoked key's tokens keep working",
    replaces: (env) => ({
      keys: { revoke: (revoke) => (key) => keepingTokens(env, key.id, () => revoke(key)) },
      credentials: { keyHonoursTokens: () => () => true },
    }),
  },
  {
    name: 'revoked-key-issues-tokens',
    breaks: 'a revoked key still gets tokens',
    replaces: ({ wide }) => ({
      credentials: { keyIssuesTokens: () => () => true, storeToken: storeTokenUnchecked(wide) },
    }),
  },
  {
    name: 'ten-keys-no-tokens',
    breaks: 'an account with ten active keys gets no tokens (the limit counts nine)',
    replaces: ({ ctx }) => ({
      credentials: {
        storeToken: (storeToken) => async (token, key, scopes, now) => {
          if ((await ctx.store.keys.countActive(key.accountId)) >= MAX_ACTIVE_KEYS)
            throw badClient();
          return storeToken(token, key, scopes, now);
        },
      },
    }),
  },
  {
    name: 'live-key-ids-marked-test',
    breaks: 'live keys get Access Key IDs marked test',
    replaces: () => ({
      keys: { newKeyId: (newKeyId) => (mode) => newKeyId(mode === 'live' ? 'test' : mode) },
    }),
  },
  {
    // A scoped statement applied too widely, so the check must test its scope's edge: §3 revokes
    // one key.
    name: 'revoke-revokes-account-keys',
    breaks: 'revoking a key revokes every other active key of its account',
    replaces: ({ ctx, wide }) => ({
      keys: {
        revoke: (revoke) => async (key) => {
          await revoke(key);
          for (const id of await wide.otherActiveKeyIds(key.accountId, key.id)) {
            const other = await ctx.store.keys.get(id);
            if (other) await ctx.store.keys.revoke(other);
          }
        },
      },
    }),
  },
  {
    // A server that keeps Secret Keys in clear and shows the key on the account.
    name: 'account-shows-secret-key',
    breaks: "GET /account shows the calling key's Secret Key",
    replaces: () => {
      // The Secret Key each Access Key ID last got a token with.
      const secrets = new Map<string, string>();
      return {
        answer: (answer) => {
          if (successOf(answer, 'POST', '/oauth/token')) {
            const basic = parseBasic(answer.request.headers.authorization);
            if (basic) secrets.set(basic.id, basic.secret);
            return;
          }
          const key = answer.request.principal?.key;
          const secret = key && secrets.get(key.id);
          if (secret && successOf(answer, 'GET', '/account'))
            answer.body = { ...answer.body, key: { access_key_id: key.id, secret_key: secret } };
        },
      };
    },
  },
  {
    name: 'eleventh-key-active',
    breaks: 'an account may hold eleven active keys, each of them working',
    replaces: () => ({ keys: { limit: (limit) => limit + 1 } }),
  },
  {
    // A server whose limit counts every key ever made for the account, revoked ones too.
    name: 'revoked-keys-count-toward-ten',
    breaks: 'revoked keys count toward the ten: after a revoke no tenth key can be made',
    replaces: () => {
      // Keys revoked per account, as the defective count remembers them.
      const revoked = new Map<string, number>();
      return {
        keys: {
          revoke: (revoke) => async (key) => {
            await revoke(key);
            revoked.set(key.accountId, (revoked.get(key.accountId) ?? 0) + 1);
          },
          countTowardLimit: (count) => async (accountId) =>
            (await count(accountId)) + (revoked.get(accountId) ?? 0),
        },
      };
    },
  },
]);
