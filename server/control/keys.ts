import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseAllowlistEntry } from '../auth/ip-allowlist.js';
import { MAX_ACTIVE_KEYS } from '../config/api.js';
import type { AppContext } from '../context.js';
import { hashSecret } from '../crypto/secret-hash.js';
import { newAccessKeyId, newSecretKey } from '../domain/ids.js';
import { MODES, type Mode } from '../domain/modes.js';
import { SCOPES } from '../domain/scopes.js';
import { rfc3339 } from '../domain/time.js';
import { ApiProblem } from '../problems/api-problem.js';
import type { ApiKey } from '../store/keys.js';
import { accountOr404, controlBody } from './request.js';

const KeyBodySchema = z.strictObject({
  mode: z.enum(MODES).optional(),
  scopes: z
    .array(z.enum(SCOPES))
    .max(SCOPES.length)
    .refine((list) => new Set(list).size === list.length, 'must not repeat a scope')
    .optional(),
  ip_allowlist: z
    .array(
      z
        .string()
        .refine(
          (entry) => parseAllowlistEntry(entry) !== undefined,
          'must be an IP address or CIDR block',
        ),
    )
    .max(100)
    .optional(),
});

type WithKey = { Params: { access_key_id: string } };

async function keyOr404(ctx: AppContext, id: string): Promise<ApiKey> {
  const key = await ctx.store.keys.get(id);
  if (!key) throw new ApiProblem('not_found', 'No key with this Access Key ID.');
  return key;
}

/** The steps of the key routes (server/behaviour.ts part `keys`); `keyBehaviour` is the reference's. */
export interface KeyBehaviour {
  /** A new Access Key ID for a key of `mode` (§2: the ID shows the mode). */
  newKeyId(mode: Mode): string;
  /** Stores the digest of `secret` as the key's only Secret Key; its tokens stop working (§3). */
  roll(key: ApiKey, secret: string): Promise<void>;
  /** Revokes this key, and only this key, with its tokens (§3). */
  revoke(key: ApiKey): Promise<void>;
  /** Ends the key's probation now (contract §3). */
  endProbation(key: ApiKey): Promise<void>;
  /** The account's keys that count toward the limit: the active ones (§3). */
  countTowardLimit(accountId: string): Promise<number>;
  /** How many keys may be active at once (§3, §8). */
  readonly limit: number;
  /** Stores a new key unless `limit` keys count toward the limit, holding the account's lock. */
  create: typeof createKey;
}

/**
 * Counts the account's active keys and stores the new one in ONE write
 * transaction holding the account's write lock (store.lockAccount): of
 * creations that race for the tenth place, one takes it and every other
 * finds ten (§3: "Up to 10 keys may be active at once").
 */
function createKey(ctx: AppContext, key: ApiKey, behave: KeyBehaviour): Promise<ApiKey> {
  return ctx.store.transaction(async () => {
    await ctx.store.lockAccount(key.accountId);
    if ((await behave.countTowardLimit(key.accountId)) >= behave.limit) {
      throw new ApiProblem(
        'limit_exceeded',
        `At most ${MAX_ACTIVE_KEYS} keys may be active at once (§3).`,
      );
    }
    return ctx.store.keys.create(key);
  });
}

export function keyBehaviour(ctx: AppContext): KeyBehaviour {
  const { keys } = ctx.store;
  return {
    create: createKey,
    newKeyId: newAccessKeyId,
    roll: async (key, secret) => {
      await keys.roll(key, hashSecret(secret));
    },
    revoke: async (key) => {
      await keys.revoke(key);
    },
    endProbation: async (key) => {
      await keys.endProbation(key);
    },
    countTowardLimit: async (accountId) => keys.countActive(accountId),
    limit: MAX_ACTIVE_KEYS,
  };
}

/**
 * Contract §3 keys. Defaults: mode test, all four scopes, no allowlist; at
 * most 10 active keys (§3). The Secret Key is in the answer once and stored
 * only as a digest (§2: shown once, when created or rolled).
 */
export function controlKeyRoutes(ctx: AppContext, behave: KeyBehaviour) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post<{ Params: { id: string } }>('/accounts/:id/keys', async (request, reply) => {
      const account = await accountOr404(ctx, request.params.id);
      const input = controlBody(request, KeyBodySchema);
      const mode = input.mode ?? 'test';
      const secret = newSecretKey(mode);
      const key = await behave.create(
        ctx,
        {
          id: behave.newKeyId(mode),
          accountId: account.id,
          mode,
          secretHash: hashSecret(secret),
          scopes: input.scopes ?? [...SCOPES],
          ipAllowlist: input.ip_allowlist ?? [],
          status: 'active',
          probationEnded: false,
          createdAt: ctx.now(account),
        },
        behave,
      );
      return reply.code(201).send({
        access_key_id: key.id,
        secret_key: secret,
        mode: key.mode,
        scopes: key.scopes,
        ip_allowlist: key.ipAllowlist,
        created_at: rfc3339(key.createdAt),
      });
    });

    // §3: roll is for test keys only; "rolling a live key: not shown" (live gets 409, contract §3).
    app.post<WithKey>('/keys/:access_key_id/roll', async (request) => {
      const key = await keyOr404(ctx, request.params.access_key_id);
      if (key.status !== 'active')
        throw new ApiProblem('invalid_state', 'A revoked key cannot be rolled.');
      if (key.mode === 'live') {
        throw new ApiProblem(
          'invalid_state',
          'Live keys are not rolled: revoke a possibly leaked live key and issue a new one (§3).',
        );
      }
      const secret = newSecretKey(key.mode);
      await behave.roll(key, secret);
      return { secret_key: secret };
    });

    app.post<WithKey>('/keys/:access_key_id/revoke', async (request, reply) => {
      const key = await keyOr404(ctx, request.params.access_key_id);
      if (key.status === 'active') await behave.revoke(key);
      return reply.code(204).send();
    });

    app.post<WithKey>('/keys/:access_key_id/end-probation', async (request, reply) => {
      const key = await keyOr404(ctx, request.params.access_key_id);
      await behave.endProbation(key);
      return reply.code(204).send();
    });
  };
}
