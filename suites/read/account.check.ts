import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { check } from '../../lib/check/index.js';
import { AccountSchema } from '../schemas/account.js';
import { api } from '../support/api.js';
import { ordering } from '../support/ordering.js';

async function readAccount(
  ctx: CheckContext,
  key: Key,
): Promise<{ res: HttpResponse; account: Record<string, unknown> | undefined }> {
  const res = await api(ctx, key).get(ctx.path('account'));
  const body = res.json;
  const account =
    ctx.expectStatus(res, 200) && typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  return { res, account };
}

/** Money per contract section 2, or a bare integer of cents. */
function centsOf(value: unknown): unknown {
  const amount = (value as { amount?: unknown } | undefined)?.amount;
  return typeof value === 'number' ? value : amount;
}

check('READ-01', async (ctx) => {
  // Section 2: GET /account "Shows the partner account, … the order limits (object limits)".
  const { key } = await ordering(ctx);
  const { res, account } = await readAccount(ctx, key);
  if (!account) return;
  const limits = account.limits;
  ctx.expectTrue(typeof limits === 'object' && limits !== null && !Array.isArray(limits), {
    code: 'SCHEMA',
    pointer: '/body/limits',
    expected: 'an object',
    received: limits ?? '(missing)',
    message: 'the account has no object limits',
    exchange: res.exchange,
  });
});

check('READ-02', async (ctx) => {
  // Section 8: the per-account limits "are set per account and are read from the account".
  const { key } = await ordering(ctx, {
    limits: { max_order_value: 123_456, max_orders_per_day: 37 },
  });
  const { account } = await readAccount(ctx, key);
  const limits = account?.limits as Record<string, unknown> | undefined;
  if (!account) return;
  ctx.expectEqual(
    '/body/limits/max_order_value',
    123_456,
    centsOf(limits?.max_order_value),
    "the maximum order value is the account's ($1,234.56)",
  );
  ctx.expectEqual(
    '/body/limits/max_orders_per_day',
    37,
    limits?.max_orders_per_day,
    "the maximum orders per day is the account's (37)",
  );
});

check('READ-03', async (ctx) => {
  // Section 2: GET /account shows "the key's scopes".
  const { account: own } = await ordering(ctx);
  for (const scopes of [
    ['catalog:read', 'orders:read'],
    ['webhooks:manage'],
    ['catalog:read', 'orders:read', 'orders:write', 'webhooks:manage'],
  ]) {
    const key = await ctx.key({ scopes, ...(own ? { account: own } : {}) });
    const { account } = await readAccount(ctx, key);
    if (!account) continue;
    const shown = Array.isArray(account.scopes) ? [...account.scopes].sort() : account.scopes;
    ctx.expectEqual(
      '/body/scopes',
      [...scopes].sort(),
      shown,
      `the account read with a key of scopes ${scopes.join(' ')} shows them`,
    );
  }
});

check('READ-04', async (ctx) => {
  // Section 2: GET /account shows "whether the key is live".
  const setup = await ordering(ctx, ctx.has('accounts') ? { live_access: true } : {});
  const testRead = await readAccount(ctx, setup.key);
  ctx.expectEqual(
    '/body/livemode',
    setup.key.mode === 'live',
    testRead.account?.livemode,
    `a ${setup.key.mode} key's account read says so`,
  );
  if (!setup.account) {
    ctx.note('partner key only: the other mode is not tried');
    return;
  }
  const liveKey = await ctx.key({ mode: 'live', account: setup.account });
  const liveRead = await readAccount(ctx, liveKey);
  ctx.expectEqual(
    '/body/livemode',
    true,
    liveRead.account?.livemode,
    "a live key's account read says it is live",
  );
});

check('READ-05', async (ctx) => {
  // Section 2: GET /account shows "the billing method".
  for (const method of ['card', 'invoice'] as const) {
    const { key } = await ordering(ctx, { billing: { method, card: 'valid' } });
    const { account } = await readAccount(ctx, key);
    if (!account) continue;
    const shown = account.billing_method ?? account.billing;
    const named =
      typeof shown === 'string' ? shown : (shown as { method?: unknown } | undefined)?.method;
    ctx.expectEqual(
      '/body/billing_method',
      method,
      named,
      `an account billed by ${method} shows it`,
    );
  }
});

check('READ-06', async (ctx) => {
  // Contract section 2: account is {id, name, livemode, billing_method, limits: {max_order_value, max_orders_per_day}, scopes}.
  const { key } = await ordering(ctx);
  const { res, account } = await readAccount(ctx, key);
  if (account) ctx.expectShape(account, AccountSchema, '/body', res.exchange);
});
