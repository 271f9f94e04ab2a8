import type fc from 'fast-check';
import { type Condition, idIn } from '../../lib/check/index.js';
import { expectModelStep } from '../model/expect-model-step.js';
import { type OrdersModel, type OrdersSystem, tally } from '../model/orders-model.js';
import { MODEL_SENTENCES } from '../model/sentences.js';
import { bodyAt, problem, statusIs } from '../model/step-conditions.js';
import { problemCode } from '../support/problem-text.js';

/**
 * Sends an earlier order's request again, same key, same body (section 4,
 * idempotency rule 2): 200, Idempotent-Replayed: true, the same order. Once
 * the record may have expired (24 hours, contract section 2) a target may
 * instead treat it as new, and the used external_id gives 409 duplicate_external_id.
 */
export class ReplayOrder implements fc.AsyncCommand<OrdersModel, OrdersSystem> {
  constructor(readonly pick: number) {}

  check(model: Readonly<OrdersModel>): boolean {
    return model.orders.length > 0;
  }

  async run(model: OrdersModel, real: OrdersSystem): Promise<void> {
    tally(real, 'ReplayOrder');
    const order = model.pick(this.pick);
    if (!order) return;
    model.now += await real.pacer.write();
    const res = await real.ctx.postOrder(real.key, order.body, {
      idempotencyKey: order.idempotencyKey,
    });
    const kept = model.recordKept(order);
    const replayed =
      res.status === 200 &&
      res.header('idempotent-replayed') === 'true' &&
      idIn(real.ctx.dialect, 'order', res.json) === order.id;
    const duplicate = res.status === 409 && problemCode(res) === 'duplicate_external_id';
    const replay: Condition = {
      all: [
        statusIs(200),
        { at: '/headers/idempotent-replayed', is: { equals: 'true' } },
        bodyAt(real.ctx.dialect.answers.order.id, order.id),
      ],
    };
    expectModelStep(
      real.ctx,
      replayed || (kept === 'either' && duplicate),
      this,
      res,
      {
        expected:
          kept === 'yes'
            ? `200 Idempotent-Replayed: true with order ${order.id}`
            : `a replay of ${order.id} or 409 duplicate_external_id`,
        sentence: kept === 'yes' ? MODEL_SENTENCES.replayed : MODEL_SENTENCES.duplicate,
        must: kept === 'yes' ? replay : { any: [replay, problem(409, 'duplicate_external_id')] },
      },
      // The same as `must`, in the older shape report.json readers may know.
      kept === 'yes'
        ? [
            { pointer: '/status', equals: 200 },
            { pointer: '/headers/idempotent-replayed', equals: 'true' },
            { pointer: `/body${real.ctx.dialect.answers.order.id}`, equals: order.id },
          ]
        : undefined,
    );
  }

  toString(): string {
    return `ReplayOrder(#${this.pick})`;
  }
}
