import type {
  AccountSettings,
  CheckContext,
  HttpResponse,
  Key,
  TestAccount,
} from '../../lib/check/index.js';
import { orderBody } from '../../lib/check/index.js';
import type { OrderCatalog } from '../support/catalog.js';
import { idOf, requireSuccess } from '../support/expect-success.js';
import { ordering } from '../support/ordering.js';

/** An account with one order placed while the service was normal, then switched to `service`. */
export interface Switched {
  account: TestAccount;
  key: Key;
  catalog: OrderCatalog;
  orderId: string;
}

export async function switchedTo(
  ctx: CheckContext,
  service: NonNullable<AccountSettings['service']>,
): Promise<Switched> {
  const { key, account, catalog } = await ordering(ctx);
  if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
  const orderId = idOf(
    ctx,
    requireSuccess(
      await ctx.postOrder(key, orderBody(ctx, catalog)),
      'placing an order before the switch',
    ),
    'placing an order',
  );
  await ctx.token(key); // obtained while the service is normal
  await ctx.control.updateAccount(account.id, { service });
  return { account, key, catalog, orderId };
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
