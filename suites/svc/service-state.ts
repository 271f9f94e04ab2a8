import type {
  AccountSettings,
  CheckContext,
  HttpResponse,
  Key,
  TestAccount,
} from '../../lib/check/index.js';
import { orderBody } from '../../lib/check/index.js';
import type { OrderCatalog } from '../support/catalog.js';
import { everyRead, type PlacedForReads, type Read, servedReads } from '../support/every-read.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';

/** An account with one order placed while the service was normal, then switched to `service`. */
export interface Switched {
  account: TestAccount;
  key: Key;
  catalog: OrderCatalog;
  orderId: string;
  /** With `options.reads`: every read of the endpoint table the target served before the switch. */
  reads: Read[];
}

export async function switchedTo(
  ctx: CheckContext,
  service: NonNullable<AccountSettings['service']>,
  options: { reads?: boolean } = {},
): Promise<Switched> {
  const { key, account, catalog } = await ordering(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const body = orderBody(ctx, catalog);
  const orderId = idOf(
    ctx,
    requireSuccess(await ctx.postOrder(key, body), 'placing an order before the switch'),
    'placing an order',
  );
  // The order a check may cancel stays as it is; another is shipped, for its shipments and invoice.
  const placed = { id: orderId, body };
  const reads = options.reads
    ? await servedReads(ctx, await readsWithShipped(ctx, key, account, catalog, placed), {
        kind: 'key',
        key,
      })
    : [];
  await ctx.token(key); // obtained while the service is normal
  await ctx.control.updateAccount(account.id, { service });
  return { account, key, catalog, orderId, reads };
}

/** Back to normal, so that what happened meanwhile can be read. */
export async function backToNormal(ctx: CheckContext, account: TestAccount): Promise<void> {
  await ctx.control.updateAccount(account.id, { service: 'normal' });
}

/** POST /oauth/token with the key's Basic credentials (section 4). */
export function tokenRequest(ctx: CheckContext, key: Key): Promise<HttpResponse> {
  return ctx.send({
    method: 'POST',
    path: ctx.path('token'),
    form: { grant_type: 'client_credentials' },
    auth: { kind: 'basic', accessKeyId: key.accessKeyId, secretKey: key.secretKey },
  });
}

/** Every read of the endpoint table, the shipments and invoice those of a second order, shipped. */
async function readsWithShipped(
  ctx: CheckContext,
  key: Key,
  account: TestAccount,
  catalog: OrderCatalog,
  placed: PlacedForReads,
): Promise<Read[]> {
  const body = orderBody(ctx, catalog);
  const res = requireSuccess(await ctx.postOrder(key, body), 'placing an order to ship');
  const shipped = { id: idOf(ctx, res, 'placing an order to ship'), body };
  return everyRead(ctx, key, placed, account, shipped);
}
