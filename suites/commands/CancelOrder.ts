import type fc from 'fast-check';
import { expectModelStep } from '../model/expect-model-step.js';
import { type OrdersModel, type OrdersSystem, tally } from '../model/orders-model.js';
import { MODEL_SENTENCES } from '../model/sentences.js';
import { problem, success } from '../model/step-conditions.js';
import { problemCode } from '../support/problem-text.js';

/**
 * Cancels an earlier order (section 3): success inside the 24-hour window
 * when not yet cancelled; 409 not_cancellable once cancelled or after the window.
 */
export class CancelOrder implements fc.AsyncCommand<OrdersModel, OrdersSystem> {
  constructor(readonly pick: number) {}

  check(model: Readonly<OrdersModel>): boolean {
    return model.orders.length > 0;
  }

  async run(model: OrdersModel, real: OrdersSystem): Promise<void> {
    tally(real, 'CancelOrder');
    const order = model.pick(this.pick);
    if (!order) return;
    model.now += await real.pacer.write();
    const res = await real.ctx.api(real.key).post(real.ctx.path('orderCancel', { id: order.id }));
    const cancelled = res.status >= 200 && res.status < 300;
    const refused = res.status === 409 && problemCode(res) === 'not_cancellable';
    const window = model.inCancelWindow(order);
    const notCancellable = problem(409, 'not_cancellable');
    if (order.cancelled || window === 'no') {
      expectModelStep(real.ctx, refused, this, res, {
        expected: '409 not_cancellable',
        sentence: MODEL_SENTENCES.notCancellable,
        must: notCancellable,
      });
    } else if (window === 'yes') {
      expectModelStep(real.ctx, cancelled, this, res, {
        expected: 'success (cancelled)',
        sentence: MODEL_SENTENCES.cancelled,
        must: success,
      });
    } else {
      expectModelStep(real.ctx, cancelled || refused, this, res, {
        expected: 'success or 409 not_cancellable (at the edge of the window)',
        sentence: MODEL_SENTENCES.cancelled,
        must: { any: [success, notCancellable] },
      });
    }
    if (cancelled) order.cancelled = true;
  }

  toString(): string {
    return `CancelOrder(#${this.pick})`;
  }
}
