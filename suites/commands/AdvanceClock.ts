import type fc from 'fast-check';
import { type OrdersModel, type OrdersSystem, tally } from '../model/orders-model.js';

/** Moves the account clock (contract section 3); the model's clock moves with it. */
export class AdvanceClock implements fc.AsyncCommand<OrdersModel, OrdersSystem> {
  constructor(readonly seconds: number) {}

  check(): boolean {
    return true;
  }

  async run(model: OrdersModel, real: OrdersSystem): Promise<void> {
    tally(real, 'AdvanceClock');
    await real.ctx.advanceClock(real.account, this.seconds);
    model.now += this.seconds;
  }

  toString(): string {
    const h = Math.floor(this.seconds / 3600);
    const m = Math.floor((this.seconds % 3600) / 60);
    return `AdvanceClock(${h ? `${h}h` : ''}${m ? `${m}m` : ''}${!h && !m ? `${this.seconds}s` : ''})`;
  }
}
