import type {
  CheckContext,
  Key,
  OrderBody,
  OrderSpec,
  TestAccount,
} from '../../lib/check/index.js';
import type { OrderCatalog } from '../support/catalog.js';
import type { WritePacer } from '../support/write-pacer.js';

/** Section 3: the cancel window; contract section 2: idempotency records are kept at least this long. */
export const DAY_SECONDS = 24 * 3600;

/**
 * The account clock runs with real time as well as every advance (contract
 * section 3), so a real age is the model's age plus the seconds the run took.
 * Within this margin of a boundary the model accepts either side.
 */
const MARGIN_SECONDS = 300;

/** What the model knows of one order it placed. */
export interface ModelOrder {
  /** Its position in the model, for people reading a sequence. */
  n: number;
  id: string;
  /** The order, and its body as sent (made from it by the one order builder). */
  spec: OrderSpec;
  body: OrderBody;
  idempotencyKey: string;
  /** Model seconds at placement. */
  placedAt: number;
  cancelled: boolean;
}

export type Tristate = 'yes' | 'no' | 'either';

/**
 * An executable model of the orders of one account and mode (API document
 * sections 3 and 4): orders placed once per key, replays, conflicts, the
 * 24-hour cancel window and the account clock.
 */
export class OrdersModel {
  /** Seconds the account clock has been moved since the sequence began. */
  now = 0;
  readonly orders: ModelOrder[] = [];

  pick(index: number): ModelOrder | undefined {
    return this.orders.length === 0 ? undefined : this.orders[index % this.orders.length];
  }

  ageOf(order: ModelOrder): number {
    return this.now - order.placedAt;
  }

  /** Section 3: cancellable within 24 hours (and not cancelled, not in production). */
  inCancelWindow(order: ModelOrder): Tristate {
    return within(this.ageOf(order), DAY_SECONDS);
  }

  /** Contract section 2: an idempotency record is kept at least 24 hours; after that either may happen. */
  recordKept(order: ModelOrder): Tristate {
    const state = within(this.ageOf(order), DAY_SECONDS);
    return state === 'no' ? 'either' : state;
  }
}

function within(age: number, limit: number): Tristate {
  if (age < limit - MARGIN_SECONDS) return 'yes';
  if (age > limit + MARGIN_SECONDS) return 'no';
  return 'either';
}

/** The real system the commands drive: one key of an account the check made. */
export interface OrdersSystem {
  ctx: CheckContext;
  key: Key;
  account: TestAccount;
  catalog: OrderCatalog;
  pacer: WritePacer;
  /** Counts the steps run, by command, for the check's notes. */
  ran: Map<string, number>;
}

/** Counts one step of a command. */
export function tally(real: OrdersSystem, command: string): void {
  real.ran.set(command, (real.ran.get(command) ?? 0) + 1);
}
