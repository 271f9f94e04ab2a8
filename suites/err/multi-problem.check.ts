import type { CheckContext, HttpResponse } from '../../lib/check/index.js';
import {
  addressOf,
  check,
  checksUseOwnAccounts,
  orderBody,
  withAddress,
} from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectNoOrder } from '../support/expect-orders.js';
import { ordering } from '../support/ordering.js';
import { errorEntries } from '../support/problem-text.js';

/** An order body that breaks several rules at once, and the field each problem is about. */
interface SeveralProblems {
  what: string;
  body: Record<string, unknown> & { external_id?: unknown };
  /** The field each problem is about, one per problem (for the report). */
  fields: string[];
  /** The external_id sent, to look for an order that should not exist. */
  externalId?: string;
}

/** The last token of a pointer of the profile's order body (`/ship_to/nation`: nation). */
function nameAt(pointer: string): string {
  return (pointer.split('/').at(-1) ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Orders each breaking two rules of section 4 that no one rule decides
 * between, every problem about its own field: a missing required field and
 * an unknown one; a SKU not on the product list and an address outside the
 * US; a quantity under its product's minimum on one line and a freight
 * product on another (when the catalog has both kinds).
 */
async function severalProblems(ctx: CheckContext): Promise<{
  key: Awaited<ReturnType<typeof ordering>>['key'];
  cases: SeveralProblems[];
}> {
  const { key, catalog } = await ordering(ctx);
  const shape = ctx.dialect.orderBody;
  const cases: SeveralProblems[] = [];

  const fields = orderBody(ctx, catalog) as Record<string, unknown>;
  delete fields.external_id;
  cases.push({
    what: 'an order without external_id and with the unknown field gift_message',
    body: { ...fields, gift_message: 'Happy birthday, Sam!' },
    fields: ['external_id', 'gift_message'],
  });

  const listed = new Set(catalog.products.map((p) => p.sku));
  let sku = `ZZ-${ctx.faker.string.alphanumeric({ length: 8, casing: 'upper' })}`;
  while (listed.has(sku)) sku += 'Z';
  const unlisted = orderBody(ctx, catalog, { items: [{ sku, quantity: 1 }] });
  cases.push({
    what: `an order for ${sku}, on no product list, to an address in Canada`,
    body: withAddress(shape, unlisted, { ...addressOf(shape, unlisted), country: 'CA' }),
    fields: [nameAt(shape.sku), nameAt(shape.address.country)],
    externalId: unlisted.external_id,
  });

  const orderable = catalog.products.filter((p) => !p.ships_by_freight);
  const minimum = orderable.find((p) => p.min_quantity > 1);
  const freight = catalog.products.find((p) => p.ships_by_freight);
  if (minimum && freight) {
    const lines = orderBody(ctx, catalog, {
      items: [
        { sku: minimum.sku, quantity: minimum.min_quantity - 1 },
        { sku: freight.sku, quantity: Math.max(1, freight.min_quantity) },
      ],
    });
    cases.push({
      what: `an order for ${minimum.min_quantity - 1} of ${minimum.sku} (minimum ${minimum.min_quantity}) and a freight product, ${freight.sku}`,
      body: lines,
      // The two problems are about two lines: each line's own field.
      fields: [nameAt(shape.quantity), nameAt(shape.sku)],
      externalId: lines.external_id,
    });
  } else {
    ctx.note(
      'the catalog lacks a product with a minimum above 1 or a freight product: two lines are not tried',
    );
  }
  return { key, cases };
}

// Each check makes the accounts it uses: they may run side by side against a target far away.
checksUseOwnAccounts();

check('ERR-13', async (ctx) => {
  // Section 7: "422 validation_failed: Request cannot be accepted as sent. Each problem is in
  // errors[]." Section 2: errors[] entries each have detail. A body breaking two rules lists both: a
  // validator that stops at the first problem lists one.
  const { key, cases } = await severalProblems(ctx);
  const answers = await allAtOnce(cases, ({ body }) => ctx.postOrder(key, body));
  for (const [i, { what, fields, externalId }] of cases.entries()) {
    const res = answers[i] as HttpResponse;
    if (!ctx.expectProblem(res, { status: 422, code: 'validation_failed' })) {
      if (externalId !== undefined) await expectNoOrder(ctx, key, externalId, what);
      continue;
    }
    // One entry, with its detail, per problem. Which entry points where is the pointer rules' to judge.
    const entries = errorEntries(res).filter(
      (entry) => typeof entry.detail === 'string' && entry.detail.length > 0,
    );
    ctx.expectTrue(entries.length >= fields.length, {
      code: 'PROBLEM',
      pointer: '/body/errors',
      expected: `an entry with a detail for each of the ${fields.length} problems (${fields.join(', ')})`,
      received: (res.json as { errors?: unknown }).errors ?? '(missing)',
      message: `${what}: errors[] lists ${entries.length} of its ${fields.length} problems`,
      exchange: res.exchange,
    });
  }
});
