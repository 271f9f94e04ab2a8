import type { CheckContext, HttpResponse, OrderLine } from '../../lib/check/index.js';
import { addressOf, cheapestLine, check, orderBody, withAddress } from '../../lib/check/index.js';
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
  // A missing or unknown field, a foreign country, and the rules of section 4 that refuse one field
  // of one line (a SKU not on the list, a quantity under the minimum, a freight product): the
  // broken line comes second, after a valid one, so a pointer that names no line is not enough.
  const { key, catalog } = await ordering(ctx);
  const shape = ctx.dialect.orderBody;

  const missing = orderBody(ctx, catalog) as Record<string, unknown>;
  delete missing.external_id;
  const unknown = { ...orderBody(ctx, catalog), gift_message: 'Happy birthday, Sam!' };
  const plain = orderBody(ctx, catalog);
  const foreign = withAddress(shape, plain, { ...addressOf(shape, plain), country: 'CA' });
  const valid = cheapestLine(catalog.products);
  const sku = nameAt(shape.sku);
  const quantity = nameAt(shape.quantity);
  const secondLine = (line: OrderLine) =>
    orderBody(ctx, catalog, { items: [valid, line] }) as Record<string, unknown>;
  const strict = catalog.products
    .filter((p) => !p.ships_by_freight && p.min_quantity > 1)
    .sort((a, b) => b.min_quantity - a.min_quantity)[0];
  const freight = catalog.products.find((p) => p.ships_by_freight);

  const cases: [Record<string, unknown>, string, string][] = [
    [missing, 'external_id', 'an order without external_id'],
    [unknown, 'gift_message', 'an order with the unknown field gift_message'],
    // The country field under the profile's name (dialect.orderBody.address.country).
    [foreign, nameAt(shape.address.country), 'an order to an address in Canada'],
    [
      secondLine({
        sku: `NOT-LISTED-${ctx.faker.string.alphanumeric(8).toUpperCase()}`,
        quantity: 1,
      }),
      sku,
      'an order whose second line names a SKU not on the product list',
    ],
  ];
  if (strict) {
    cases.push([
      secondLine({ sku: strict.sku, quantity: strict.min_quantity - 1 }),
      quantity,
      `an order whose second line orders ${strict.sku} one under its minimum`,
    ]);
  } else ctx.note('no product has a minimum above 1: the quantity pointer is not tried');
  if (freight) {
    cases.push([
      secondLine({ sku: freight.sku, quantity: freight.min_quantity }),
      sku,
      `an order whose second line is the freight product ${freight.sku}`,
    ]);
  } else ctx.note('no product ships by freight: the freight pointer is not tried');
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
