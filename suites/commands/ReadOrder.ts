import type fc from 'fast-check';
import { externalIdIn, idIn, succeeded } from '../../lib/check/index.js';
import { expectModelStep } from '../model/expect-model-step.js';
import { type OrdersModel, type OrdersSystem, tally } from '../model/orders-model.js';
import { MODEL_SENTENCES } from '../model/sentences.js';
import { bodyAt, statusIs } from '../model/step-conditions.js';

/**
 * Reads an earlier order by id and by external id (section 4): both answer
 * that order, cancelled or not, however old.
 */
export class ReadOrder implements fc.AsyncCommand<OrdersModel, OrdersSystem> {
  constructor(
    readonly pick: number,
    readonly byExternalId: boolean,
  ) {}

  check(model: Readonly<OrdersModel>): boolean {
    return model.orders.length > 0;
  }

  async run(model: OrdersModel, real: OrdersSystem): Promise<void> {
    tally(real, 'ReadOrder');
    const order = model.pick(this.pick);
    if (!order) return;
    const { ctx } = real;
    const path = this.byExternalId
      ? ctx.path('orderByExternalId', { external_id: order.body.external_id })
      : ctx.path('order', { id: order.id });
    const res = await ctx.api(real.key).get(path);
    expectModelStep(
      ctx,
      succeeded(ctx.dialect, this.byExternalId ? 'orderByExternalId' : 'orderRead', res.status) &&
        idIn(ctx.dialect, 'order', res.json) === order.id &&
        externalIdIn(res.json) === order.body.external_id,
      this,
      res,
      {
        expected: `200 with order ${order.id}`,
        sentence: this.byExternalId ? MODEL_SENTENCES.readByExternalId : MODEL_SENTENCES.readById,
        must: {
          all: [
            statusIs(
              ctx.dialect.operations[this.byExternalId ? 'orderByExternalId' : 'orderRead'].status,
            ),
            bodyAt(ctx.dialect.answers.order.id, order.id),
            bodyAt('/external_id', order.body.external_id),
          ],
        },
      },
    );
  }

  toString(): string {
    return `ReadOrder(#${this.pick}${this.byExternalId ? ', by external id' : ''})`;
  }
}
