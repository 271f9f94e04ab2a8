import type fc from 'fast-check';
import {
  cheapestLine,
  newIdempotencyKey,
  orderBodyOf,
  orderSpec,
  requireId,
} from '../../lib/check/index.js';
import { expectModelStep } from '../model/expect-model-step.js';
import { type OrdersModel, type OrdersSystem, tally } from '../model/orders-model.js';
import { MODEL_SENTENCES } from '../model/sentences.js';
import { success } from '../model/step-conditions.js';

/** Places a new order with a new key (section 4): the target answers success with a new id. */
export class PlaceOrder implements fc.AsyncCommand<OrdersModel, OrdersSystem> {
  constructor(readonly extraQuantity: number) {}

  check(): boolean {
    return true;
  }

  async run(model: OrdersModel, real: OrdersSystem): Promise<void> {
    tally(real, 'PlaceOrder');
    const { ctx, key, catalog } = real;
    const line = cheapestLine(catalog.products);
    const spec = orderSpec(ctx, catalog, {
      items: [{ sku: line.sku, quantity: line.quantity + this.extraQuantity }],
    });
    const body = orderBodyOf(ctx.dialect.orderBody, spec);
    const idempotencyKey = newIdempotencyKey();
    model.now += await real.pacer.write();
    const res = await ctx.postOrder(key, body, { idempotencyKey });
    expectModelStep(ctx, res.status >= 200 && res.status < 300, this, res, {
      expected: 'success (a new order)',
      sentence: MODEL_SENTENCES.placed,
      must: success,
    });
    // Without an id where the profile says, the model cannot follow the order: not verifiable.
    const id = requireId(ctx.dialect, 'order', res.json, 'the order placed', res.exchange);
    expectModelStep(ctx, !model.orders.some((o) => o.id === id), this, res, {
      expected: 'a new order id',
      sentence: MODEL_SENTENCES.placed,
      must: {
        not: {
          at: `/body${ctx.dialect.answers.order.id}`,
          is: { oneOf: model.orders.map((o) => o.id) },
        },
      },
    });
    model.orders.push({
      n: model.orders.length,
      id,
      spec,
      body,
      idempotencyKey,
      placedAt: model.now,
      cancelled: false,
    });
  }

  toString(): string {
    return `PlaceOrder(quantity +${this.extraQuantity})`;
  }
}
