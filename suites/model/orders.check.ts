import fc from 'fast-check';
import { check } from '../../lib/check/index.js';
import { AdvanceClock } from '../commands/AdvanceClock.js';
import { CancelOrder } from '../commands/CancelOrder.js';
import { ConflictingOrder } from '../commands/ConflictingOrder.js';
import { PlaceOrder } from '../commands/PlaceOrder.js';
import { ReadOrder } from '../commands/ReadOrder.js';
import { ReplayOrder } from '../commands/ReplayOrder.js';
import { ordering } from '../support/ordering.js';
import { WritePacer } from '../support/write-pacer.js';
import { DAY_SECONDS, OrdersModel, type OrdersSystem } from './orders-model.js';

/** Clock steps: small ones, and ones that land before, near and past the 24-hour boundaries. */
const CLOCK_STEPS = [60, 3600, 6 * 3600, 12 * 3600, 23 * 3600, DAY_SECONDS + 600];

const commands = [
  fc.integer({ min: 0, max: 3 }).map((extra) => new PlaceOrder(extra)),
  fc.integer({ min: 0, max: 3 }).map((extra) => new PlaceOrder(extra)),
  fc.nat(15).map((pick) => new ReplayOrder(pick)),
  fc.nat(15).map((pick) => new ConflictingOrder(pick)),
  fc.nat(15).map((pick) => new CancelOrder(pick)),
  fc
    .tuple(fc.nat(15), fc.boolean())
    .map(([pick, byExternalId]) => new ReadOrder(pick, byExternalId)),
  fc.constantFrom(...CLOCK_STEPS).map((seconds) => new AdvanceClock(seconds)),
];

check(
  'MODEL-01',
  async (ctx) => {
    // Sections 3 and 4: orders, Idempotency-Key replays and conflicts, the 24-hour cancel window and
    // the account clock, in random sequences, agree with an executable model of those rules.
    const ran = new Map<string, number>();
    // Sequences go out several at a time (more lanes than files at a time: runs are long), each
    // lane with an account and key of its own (so lanes share no clock, limits or orders); a
    // lane's sequences run one after another on its account, each with orders of its own. The pacer keeps the key under the write limit, and the clock it
    // moves is added to the model's.
    const lane = async (): Promise<OrdersSystem> => {
      const { key, account, catalog } = await ordering(ctx);
      if (!account) return ctx.notVerifiable('needs an account of its own', ['accounts']);
      return { ctx, key, account, catalog, pacer: new WritePacer(ctx, account), ran };
    };
    await ctx.propertyInLanes(
      fc.commands(commands, { maxCommands: 12, size: 'max' }),
      lane,
      async (sequence, real) => {
        await fc.asyncModelRun(() => ({ model: new OrdersModel(), real }), sequence);
      },
      undefined,
      // Up to 12 steps a sequence: a lane's account and key cost little beside its runs.
      { longRuns: true },
    );
    const steps = [...ran].map(([command, n]) => `${n} ${command}`).join(', ');
    ctx.note(`steps run against the target, shrinking included: ${steps}`);
  },
  { timeout: 120_000 },
);
