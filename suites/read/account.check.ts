import type { CheckContext, HttpResponse, Key } from '../../lib/check/index.js';
import { check, checksUseOwnAccounts, moneyAt } from '../../lib/check/index.js';
import { accountSchema } from '../schemas/account.js';
import { allAtOnce, together } from '../support/all-at-once.js';
import { ordering } from '../support/ordering.js';
import { exactlyThese } from '../support/scopes.js';
import { locate, scopeSet, showsCents, valueAt } from './account-fields.js';

/** GET /account with the key. */
function getAccount(ctx: CheckContext, key: Key): Promise<HttpResponse> {
  return ctx.api(key).get(ctx.path('account'));
}

async function readAccount(
  ctx: CheckContext,
  key: Key,
): Promise<{ res: HttpResponse; account: Record<string, unknown> | undefined }> {
  const res = await getAccount(ctx, key);
  return { res, account: accountIn(ctx, res) };
}

/** The account a read answered, judged by its status; undefined when it is not one. */
function accountIn(ctx: CheckContext, res: HttpResponse): Record<string, unknown> | undefined {
  const body = res.json;
  return ctx.expectStatus(res, ctx.dialect.operations.account.status) &&
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

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

/** Notes where the target shows an item when it is not the profile's name (READ-06 judges names). */
function noteWhere(ctx: CheckContext, what: string, found: string, profile: string): void {
  if (found !== profile)
    ctx.note(`${what} is shown at ${found}, not at the profile's ${profile} (a name is DIALECT)`);
}

check('READ-02', async (ctx) => {
  // Section 8: the per-account limits are "shown in GET /account under limits" and "read from the account".
  // The object `limits` is the document's; the names inside it are the profile's, else any member showing the value.
  const { key } = await ordering(ctx, {
    limits: { max_order_value: 123_456, max_orders_per_day: 37 },
  });
  const { res, account } = await readAccount(ctx, key);
  if (!account) return;
  const names = ctx.dialect.accountFields;
  for (const [what, pointer, expected] of [
    ['the maximum order value ($1,234.56)', names.maxOrderValue, 123_456],
    ['the maximum orders per day (37)', names.maxOrdersPerDay, 37],
  ] as const) {
    const shows = ([v]: unknown[]) =>
      pointer === names.maxOrderValue
        ? showsCents(moneyAt(ctx.dialect.money, 'maxOrderValue'), v, expected)
        : v === expected;
    const found = locate([account], pointer, shows, '/limits');
    if (found) noteWhere(ctx, what, found, pointer);
    ctx.expectTrue(found !== undefined, {
      code: 'VALUE',
      pointer: `/body${pointer}`,
      expected,
      received: valueAt(account, '/limits') ?? '(no limits)',
      message: `the account's limits do not show ${what} the account was given`,
      exchange: res.exchange,
    });
  }
});

check('READ-03', async (ctx) => {
  // Section 2: GET /account shows "the key's scopes" (the name is the profile's; an array or a
  // space-separated list). The key's, not the token's: section 5 rule 7 lets a token carry a subset,
  // so a key with every scope is also read with a token asked for one scope only.
  const { account: own } = await ordering(ctx);
  const pointer = ctx.dialect.accountFields.scopes;
  const every = ['catalog:read', 'orders:read', 'orders:write', 'webhooks:manage'];
  const reads = [
    { scopes: ['catalog:read', 'orders:read'] },
    { scopes: ['webhooks:manage'] },
    { scopes: every },
    { scopes: every, tokenScopes: ['orders:read'] },
  ];
  // A key of each set, and a read with each: at once, judged in order.
  const answers = await allAtOnce(reads, ({ scopes, tokenScopes }) =>
    ctx
      .key({ scopes, ...(own ? { account: own } : {}) })
      .then((key) => ctx.api(key, tokenScopes).get(ctx.path('account'))),
  );
  const shown: Record<string, unknown>[] = [];
  let last: HttpResponse | undefined;
  for (const res of answers) {
    const account = accountIn(ctx, res);
    last = res;
    if (!account) return;
    shown.push(account);
  }
  const shows = (values: unknown[]) =>
    values.every(
      (value, i) =>
        JSON.stringify(scopeSet(value)) === JSON.stringify([...(reads[i]?.scopes ?? [])].sort()),
    );
  const found = locate(shown, pointer, shows);
  if (found) noteWhere(ctx, "the key's scopes", found, pointer);
  ctx.expectTrue(found !== undefined, {
    code: 'VALUE',
    pointer: `/body${pointer}`,
    expected: reads.map(({ scopes }) => scopes.join(' ')),
    received: shown.map((read) => valueAt(read, pointer) ?? '(missing)'),
    message:
      "the account read with keys of different scopes, and with a token asked for fewer scopes than its key has, does not show each key's scopes",
    ...(last ? { exchange: last.exchange } : {}),
    // As data, on the last read (a key with every scope, a token asked for one): all four shown,
    // as a space-separated list or an array.
    must: {
      any: [
        { at: `/body${pointer}`, is: { matches: exactlyThese(every) } },
        {
          all: every.map((scope) => ({
            at: `/body${pointer}`,
            is: { hasItem: { at: '', is: { equals: scope } } },
          })),
        },
      ],
    },
  });
});

/** Whether a shown value says live (true, "live") or test (false, "test"). */
function saysLive(value: unknown, live: boolean): boolean {
  return value === live || value === (live ? 'live' : 'test');
}

check('READ-04', async (ctx) => {
  // Section 2: GET /account shows "whether the key is live" (the name is the profile's).
  const pointer = ctx.dialect.accountFields.livemode;
  const setup = await ordering(ctx, ctx.has('accounts') ? { live_access: true } : {});
  const liveAccount = setup.account;
  // The read with the key, and (with an account of its own) a live key and its read: at once,
  // judged in order.
  const [firstRes, secondRes] = await together(
    getAccount(ctx, setup.key),
    liveAccount
      ? ctx.key({ mode: 'live', account: liveAccount }).then((key) => getAccount(ctx, key))
      : Promise.resolve(undefined),
  );
  const first = { res: firstRes, account: accountIn(ctx, firstRes) };
  if (!first.account) return;
  const reads: { account: Record<string, unknown>; live: boolean; res: HttpResponse }[] = [
    { account: first.account, live: setup.key.mode === 'live', res: first.res },
  ];
  if (secondRes) {
    const account = accountIn(ctx, secondRes);
    if (!account) return;
    reads.push({ account, live: true, res: secondRes });
  } else {
    ctx.note('partner key only: the other mode is not tried');
  }
  const agrees = (values: unknown[]) =>
    values.every((value, i) => saysLive(value, reads[i]?.live ?? false));
  // One mode alone cannot tell a live flag from any false field: without both, only the profile's name counts.
  if (reads.length === 1 && valueAt(first.account, pointer) === undefined) {
    ctx.notVerifiable(
      `the account shows nothing at ${pointer} (the profile's name for whether the key is live) and with one mode only no other field can be told to mean it: set dialect.accountFields.livemode in the profile, or run with the control API`,
    );
  }
  const found =
    reads.length === 1
      ? agrees([valueAt(first.account, pointer)])
        ? pointer
        : undefined
      : locate(
          reads.map((r) => r.account),
          pointer,
          agrees,
        );
  if (found) noteWhere(ctx, 'whether the key is live', found, pointer);
  ctx.expectTrue(found !== undefined, {
    code: 'VALUE',
    pointer: `/body${pointer}`,
    expected: reads.map((r) => (r.live ? 'live' : 'test')),
    received: reads.map((r) => valueAt(r.account, pointer) ?? '(missing)'),
    message: 'the account does not show whether the key is live',
    exchange: reads.at(-1)?.res.exchange ?? first.res.exchange,
  });
});

/** Whether a shown value names the billing method (`"card"`, `{"method": "card"}`, `"credit_card"`). */
function namesMethod(value: unknown, method: string): boolean {
  const named =
    typeof value === 'string' ? value : (value as { method?: unknown } | undefined)?.method;
  return typeof named === 'string' && named.toLowerCase().includes(method);
}

check('READ-05', async (ctx) => {
  // Section 2: GET /account shows "the billing method" (the name is the profile's).
  const pointer = ctx.dialect.accountFields.billingMethod;
  const methods = ['card', 'invoice'] as const;
  const reads: Record<string, unknown>[] = [];
  const readAnswers: HttpResponse[] = [];
  let last: HttpResponse | undefined;
  for (const method of methods) {
    const { key } = await ordering(ctx, { billing: { method, card: 'valid' } });
    const { res, account } = await readAccount(ctx, key);
    last = res;
    readAnswers.push(res);
    if (!account) return;
    reads.push(account);
  }
  const found = locate(reads, pointer, (values) =>
    values.every((value, i) => namesMethod(value, methods[i] ?? '')),
  );
  if (found) noteWhere(ctx, 'the billing method', found, pointer);
  ctx.expectTrue(found !== undefined, {
    code: 'VALUE',
    pointer: `/body${pointer}`,
    expected: [...methods],
    received: reads.map((read) => valueAt(read, pointer) ?? '(missing)'),
    message: 'accounts billed by card and by invoice do not show their billing method',
    ...(last ? { exchange: last.exchange } : {}),
    // As data over both reads: accounts billed two ways show two billing methods.
    exchanges: readAnswers.map((res) => res.exchange),
    must: { distinct: `/body${pointer}`, min: 2 },
  });
});

check('READ-06', async (ctx) => {
  // Contract section 2: account is {id, name, livemode, billing_method, limits: {max_order_value, max_orders_per_day}, scopes}.
  const { key } = await ordering(ctx);
  const { res, account } = await readAccount(ctx, key);
  if (account) ctx.expectShape(account, accountSchema(ctx.dialect), '/body', res.exchange);
});
