import type fc from 'fast-check';
import { orderBodyOf } from '../../lib/check/index.js';
import { expectModelStep } from '../model/expect-model-step.js';
import { type OrdersModel, type OrdersSystem, tally } from '../model/orders-model.js';
import { MODEL_SENTENCES } from '../model/sentences.js';
import { problem } from '../model/step-conditions.js';
import { problemCode } from '../support/problem-text.js';

/**
 * Sends an earlier order's key with a different body, one more of its first
 * item (section 4, idempotency rule 3): 409 idempotency_conflict. Once the
 * record may have expired, the reused external_id gives 409 duplicate_external_id
 * instead. Either way no order is placed.
 */
export class ConflictingOrder implements fc.AsyncCommand<OrdersModel, OrdersSystem> {
  constructor(readonly pick: number) {}

  check(model: Readonly<OrdersModel>): boolean {
    return model.orders.length > 0;
  }

  async run(model: OrdersModel, real: OrdersSystem): Promise<void> {
    tally(real, 'ConflictingOrder');
    const order = model.pick(this.pick);
    if (!order) return;
    const [first, ...rest] = order.spec.items;
    if (!first) return;
    const items = [{ ...first, quantity: first.quantity + 1 }, ...rest];
    const body = orderBodyOf(real.ctx.dialect.orderBody, { ...order.spec, items });
    model.now += await real.pacer.write();
    const res = await real.ctx.postOrder(real.key, body, { idempotencyKey: order.idempotencyKey });
    const code = res.status === 409 ? problemCode(res) : undefined;
    const kept = model.recordKept(order);
    expectModelStep(
      real.ctx,
      code === 'idempotency_conflict' || (kept === 'either' && code === 'duplicate_external_id'),
      this,
      res,
      kept === 'yes'
        ? {
            expected: '409 idempotency_conflict',
            sentence: MODEL_SENTENCES.conflicting,
            must: problem(409, 'idempotency_conflict'),
          }
        : {
            expected: '409 idempotency_conflict or duplicate_external_id',
            sentence: MODEL_SENTENCES.conflicting,
            must: problem(409, 'idempotency_conflict', 'duplicate_external_id'),
          },
    );
  }

  toString(): string {
    return `ConflictingOrder(#${this.pick})`;
  }
}
