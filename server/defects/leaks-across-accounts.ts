import type { Principal } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import type { Order } from '../domain/order.js';
import type { Quote } from '../store/quotes.js';
import { appMemory } from './app-memory.js';
import { externalIdInAnyAccount } from './scope-too-wide.js';

/**
 * Defects that hand another account's objects out on one path each (issue
 * 26), so that the fault matrix shows MODE-03 judging every path:
 * `other-account-found-by-external-id`, `other-account-orders-listed`,
 * `other-account-quotes-visible`. (`other-account-orders-visible`, the read
 * and cancel by id, is order-reads.ts's.) Each is one function below, used
 * by order-reads.ts, quotes.ts and orders/place-order.ts.
 */

/** The accounts that placed an order or made a quote in this app: whose objects the list and quote leaks show. */
const activeAccounts = appMemory(() => new Set<string>());

/** Called where an account places an order or makes a quote, only while one of these defects is on. */
export function rememberActiveAccount(ctx: AppContext, accountId: string): void {
  if (ctx.hasDefect('other-account-orders-listed') || ctx.hasDefect('other-account-quotes-visible'))
    activeAccounts(ctx).add(accountId);
}

/** The other accounts this app has seen active, as principals of the same key and mode. */
async function othersAs(ctx: AppContext, principal: Principal): Promise<Principal[]> {
  const others: Principal[] = [];
  for (const id of activeAccounts(ctx)) {
    if (id === principal.account.id) continue;
    const account = await ctx.store.accounts.get(id);
    if (account) others.push({ ...principal, account });
  }
  return others;
}

// --- `other-account-found-by-external-id`: GET /orders/by-external-id looks in every account of the mode.
export function orderByExternalIdAnywhere(
  ctx: AppContext,
  principal: Principal,
  externalId: string,
): Promise<Order | undefined> {
  return externalIdInAnyAccount(ctx.store, principal.mode, externalId);
}

// --- `other-account-orders-listed`: GET /orders lists other accounts' orders of the mode before the caller's.
export async function ordersOfEveryAccount(
  ctx: AppContext,
  principal: Principal,
  own: Order[],
  list: (principal: Principal) => Promise<Order[]>,
): Promise<Order[]> {
  const others: Order[] = [];
  for (const other of await othersAs(ctx, principal)) others.push(...(await list(other)));
  return [...others, ...own];
}

// --- `other-account-quotes-visible`: GET /quotes/{id} finds a quote of any account of the mode.
export async function quoteOfAnyAccount(
  ctx: AppContext,
  principal: Principal,
  lookup: (principal: Principal) => Promise<Quote | undefined>,
): Promise<Quote | undefined> {
  for (const other of await othersAs(ctx, principal)) {
    const quote = await lookup(other);
    if (quote) return quote;
  }
  return undefined;
}
