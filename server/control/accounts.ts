import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { applySettings, defaultSettings, SettingsPatchSchema } from '../domain/account-settings.js';
import { newId } from '../domain/ids.js';
import { rfc3339 } from '../domain/time.js';
import type { Account } from '../store/accounts.js';
import { accountOr404, controlBody } from './request.js';
import { controlAccountView } from './views.js';

type WithId = { Params: { id: string } };

/** Ten years: far enough for any test, small enough to stay a valid date. */
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

const ClockBodySchema = z.strictObject({
  advance_seconds: z.number().min(0).max(MAX_ADVANCE_SECONDS),
});

/**
 * Contract §3 accounts and clock: `POST /accounts` (201), `GET` and `PATCH
 * /accounts/{id}`, `POST /accounts/{id}/clock` (200 `{now}`). The clock only
 * moves forward: time going back would reopen closed windows.
 */
export function controlAccountRoutes(ctx: AppContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const { accounts } = ctx.store;

    /**
     * Read, change, write one account under its write lock: two changes
     * arriving at once (through two instances on one PostgreSQL database)
     * both count, neither overwrites the other.
     */
    const change = (id: string, next: (current: Account) => Promise<Account>) =>
      ctx.store.transaction(async () => {
        await ctx.store.lockAccount(id);
        const current = await accounts.get(id);
        if (!current) throw new Error(`account ${id} vanished`);
        return next(current);
      });

    app.post('/accounts', async (request, reply) => {
      const patch = controlBody(request, SettingsPatchSchema);
      const account = await accounts.create(
        newId('acct'),
        applySettings(defaultSettings(), patch),
        Date.now(),
      );
      return reply.code(201).send(controlAccountView(account, ctx.now(account)));
    });

    app.get<WithId>('/accounts/:id', async (request) => {
      const account = await accountOr404(ctx, request.params.id);
      return controlAccountView(account, ctx.now(account));
    });

    app.patch<WithId>('/accounts/:id', async (request) => {
      const account = await accountOr404(ctx, request.params.id);
      const patch = controlBody(request, SettingsPatchSchema);
      const next = await change(account.id, (current) =>
        accounts.updateSettings(current, applySettings(current.settings, patch)),
      );
      return controlAccountView(next, ctx.now(next));
    });

    app.post<WithId>('/accounts/:id/clock', async (request) => {
      const account = await accountOr404(ctx, request.params.id);
      const { advance_seconds } = controlBody(request, ClockBodySchema);
      const next = await change(account.id, (current) =>
        accounts.setClockOffset(
          current,
          current.clockOffsetMs + Math.round(advance_seconds * 1000),
        ),
      );
      return { now: rfc3339(ctx.now(next)) };
    });
  };
}
