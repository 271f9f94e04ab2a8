import type { CheckContext, HttpResponse } from '../../lib/check/index.js';
import { addressOf, check, orderBody, withAddress } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectValidationFailed } from '../support/expect-validation.js';
import { ordering } from '../support/ordering.js';
import { errorEntries } from '../support/problem-text.js';

/**
 * Whether some `errors[]` entry points at `field`: a member other than `detail`
 * whose text names it. Section 2 says field errors "carry a pointer to the
 * field" without naming the member or its form, so `/shipping_address/country`,
 * `shipping_address.country` and `country` all pass here; the reference form
 * (an RFC 6901 pointer in `pointer`) is ORDER-18's, a DIALECT rule.
 */
function expectPointsAt(ctx: CheckContext, res: HttpResponse, field: string, what: string): void {
  const entries = errorEntries(res);
  const pointing = entries.some((entry) =>
    Object.entries(entry).some(
      ([member, value]) =>
        member !== 'detail' && stringsIn(value).some((text) => text.includes(field)),
    ),
  );
  ctx.expectTrue(pointing, {
    code: 'VALUE',
    pointer: '/body/errors',
    expected: `an errors[] entry pointing at ${field} (a member besides detail that names it)`,
    received: entries,
    message: `${what}: no errors[] entry points at the field`,
    exchange: res.exchange,
  });
}

/**
 * Every string in a member's value, nested ones too: the document names neither
 * the member nor its shape, so a pointer may sit in an object
 * (`"source": {"pointer": "/items/0/sku"}`, as JSON:API writes it).
 */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(stringsIn);
}

/** The name the profile gives a body field: the last token of its pointer (`/ship_to/nation`: nation). */
function nameAt(pointer: string): string {
  return (pointer.split('/').at(-1) ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
}

check('ORDER-26', async (ctx) => {
  // Section 2, error object: errors[] entries each have detail; "Field errors also carry a pointer to the field."
  const { key, catalog } = await ordering(ctx);

  const missing = orderBody(ctx, catalog) as Record<string, unknown>;
  delete missing.external_id;
  const unknown = { ...orderBody(ctx, catalog), gift_message: 'Happy birthday, Sam!' };
  const shape = ctx.dialect.orderBody;
  const plain = orderBody(ctx, catalog);
  const foreign = withAddress(shape, plain, { ...addressOf(shape, plain), country: 'CA' });

  const cases = [
    [missing, 'external_id', 'an order without external_id'],
    [unknown, 'gift_message', 'an order with the unknown field gift_message'],
    // The country field under the profile's name (dialect.orderBody.address.country).
    [foreign, nameAt(shape.address.country), 'an order to an address in Canada'],
  ] as const;
  // At once, judged in order.
  const answers = await allAtOnce(cases, async ([body, field, what]) => ({
    field,
    what,
    res: await ctx.postOrder(key, body),
  }));
  for (const { field, what, res } of answers) {
    if (expectValidationFailed(ctx, res)) expectPointsAt(ctx, res, field, what);
  }
});
