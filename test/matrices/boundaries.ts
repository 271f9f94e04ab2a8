import { DOCUMENTED_LIMITS } from '../../lib/client/rate-limits.js';
import type { Exchange } from '../../lib/evidence/exchange.js';
import { IDEMPOTENCY_KEY_LENGTHS } from '../../suites/arbitraries/idempotencyKey.js';
import { OVERLONG_IDEMPOTENCY_KEY_LENGTHS } from '../../suites/arbitraries/overlongIdempotencyKey.js';
import { READS, TOKENS, WRITES } from '../../suites/rate/limit-classes.js';

/**
 * How a rule that names a limit is shown to try it: by what its
 * check sent to the reference (`recorded`, a predicate over the check's
 * exchanges), by the boundary examples its property declares as data
 * (`declared`, tried on every run whatever the seed: lib/check/property.ts),
 * or by another rule's check that sends the limit while this one judges
 * something else the same sentence says (`elsewhere`).
 */
export type BoundaryProof =
  | { kind: 'recorded'; sends: string; holds: (exchanges: readonly Exchange[]) => boolean }
  | { kind: 'declared'; sends: string; holds: () => boolean }
  | { kind: 'elsewhere'; rules: readonly string[]; why: string };

/**
 * The words by which a rule's quoted sentence names a limit: a count, a
 * length, a duration or an amount ("up to 255 characters", "At most 5
 * webhook endpoints", "300 requests per minute", "$500.00", "1..100"), or a
 * limit the account sets ("maximum order value", "minimum").
 */
export const NAMES_A_LIMIT =
  /\b(?:up to|at most|maximum|minimum|lasts|older than|\d+(?:-| )(?:characters?|keys?|requests?|token requests|orders?|webhook endpoints|seconds?|minutes?|hours?|items)\b|per minute|a minute|\d+\.\.\d+)|\$\d/i;

const json = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
const isControl = (e: Exchange, path: RegExp, method = 'POST') =>
  e.channel === 'control' && e.request.method === method && path.test(e.request.url);
const isApi = (e: Exchange, path: RegExp, method = 'POST') =>
  e.channel === 'api' && e.request.method === method && path.test(e.request.url);
const served = (e: Exchange) => (e.response?.status ?? 0) >= 200 && (e.response?.status ?? 0) < 300;

/** Seconds the check moved the account clock by, in order. */
function clockMoves(exchanges: readonly Exchange[]): number[] {
  return exchanges
    .filter((e) => isControl(e, /\/clock$/))
    .map((e) => (json(e.request.body) as { advance_seconds?: number } | undefined)?.advance_seconds)
    .filter((s): s is number => typeof s === 'number');
}

interface Product {
  sku: string;
  unit_price: number;
  min_quantity: number;
}
interface Line {
  sku: string;
  quantity: number;
}

/** What the check's accounts were made or changed with: products and limits, last one winning. */
function accountSettings(exchanges: readonly Exchange[]): {
  products: Product[];
  maxOrderValue?: number;
  maxOrdersPerDay?: number;
} {
  const settings: { products: Product[]; maxOrderValue?: number; maxOrdersPerDay?: number } = {
    products: [],
  };
  for (const e of exchanges) {
    if (!isControl(e, /\/accounts(\/[^/]+)?$/) && !isControl(e, /\/accounts\/[^/]+$/, 'PATCH'))
      continue;
    const body = json(e.request.body) as
      | { products?: Product[]; limits?: { max_order_value?: number; max_orders_per_day?: number } }
      | undefined;
    if (body?.products) settings.products.push(...body.products);
    if (body?.limits?.max_order_value !== undefined)
      settings.maxOrderValue = body.limits.max_order_value;
    if (body?.limits?.max_orders_per_day !== undefined)
      settings.maxOrdersPerDay = body.limits.max_orders_per_day;
  }
  return settings;
}

/** The POST /orders the check sent, with their lines and answers. */
function orders(exchanges: readonly Exchange[]): { lines: Line[]; body: unknown; e: Exchange }[] {
  return exchanges
    .filter((e) => isApi(e, /\/orders$/))
    .map((e) => {
      const body = json(e.request.body) as { items?: Line[] } | undefined;
      return { lines: Array.isArray(body?.items) ? body.items : [], body, e };
    });
}

function goods(products: readonly Product[], lines: readonly Line[]): number {
  return lines.reduce(
    (sum, line) =>
      sum + (products.find((p) => p.sku === line.sku)?.unit_price ?? 0) * line.quantity,
    0,
  );
}

function idempotencyKeyLengths(exchanges: readonly Exchange[]): number[] {
  return exchanges
    .filter((e) => isApi(e, /\/orders$/))
    .map((e) => e.request.headers['idempotency-key']?.length ?? -1);
}

/** `n` writes of one kind, the first `n - 1` served: the limit and one past it. */
function limitAndOneMore(exchanges: readonly Exchange[], path: RegExp, limit: number): boolean {
  const sent = exchanges.filter((e) => isApi(e, path));
  return sent.length >= limit + 1 && sent.slice(0, limit).every(served);
}

/** Every rule whose quoted sentence names a limit, and how it is shown that its check sends it. */
export const BOUNDARIES: Readonly<Record<string, BoundaryProof>> = {
  'AUTH-05': {
    kind: 'recorded',
    sends: 'the clock moved 3599 s (the 3600-second lifetime minus one)',
    holds: (ex) => clockMoves(ex).includes(3599),
  },
  'AUTH-06': {
    kind: 'recorded',
    sends: 'the clock moved 3601 s (the lifetime plus one)',
    holds: (ex) => clockMoves(ex).includes(3601),
  },
  'AUTH-12': {
    kind: 'recorded',
    sends: 'the clock moved 3600 s (the lifetime itself)',
    holds: (ex) => clockMoves(ex).includes(3600),
  },
  'KEY-06': {
    kind: 'recorded',
    sends: 'ten keys made in one account, each used',
    holds: (ex) =>
      ex.filter((e) => isControl(e, /\/accounts\/[^/]+\/keys$/) && served(e)).length >= 10,
  },
  'KEY-12': {
    kind: 'recorded',
    sends: 'ten keys made in one account, an eleventh asked for, then after a revoke a tenth',
    holds: (ex) =>
      ex.filter((e) => isControl(e, /\/accounts\/[^/]+\/keys$/)).length >= 12 &&
      ex.some((e) => isControl(e, /\/keys\/[^/]+\/revoke$/)),
  },
  'RATE-01': {
    kind: 'declared',
    sends: 'a burst of READS.perMinute (300) reads, then one more',
    holds: () => READS.perMinute === 300,
  },
  'RATE-02': {
    kind: 'declared',
    sends: 'a burst of WRITES.perMinute (60) writes, then one more',
    holds: () => WRITES.perMinute === 60,
  },
  'RATE-03': {
    kind: 'declared',
    sends: 'a burst of TOKENS.perMinute (20) token requests, then one more',
    holds: () => TOKENS.perMinute === 20,
  },
  'RATE-07': {
    kind: 'elsewhere',
    rules: ['RATE-01', 'RATE-02', 'RATE-03'],
    why: 'judges that limits are per key, exhausting them with the same limit classes',
  },
  'RATE-08': {
    kind: 'elsewhere',
    rules: ['RATE-01', 'RATE-02', 'RATE-03'],
    why: 'judges that the classes are counted apart, with the same limit classes',
  },
  'RATE-11': {
    kind: 'elsewhere',
    rules: ['RATE-01', 'RATE-02', 'RATE-03'],
    why: "judges the Retry-After of each class's 429, provoked with the same limit classes",
  },
  'RATE-12': {
    kind: 'elsewhere',
    rules: ['RATE-01', 'RATE-02'],
    why: 'uses up reads and writes with the same limit classes, then the other one whole',
  },
  'RATE-13': {
    kind: 'declared',
    sends: 'DOCUMENTED_LIMITS.read (300) reads spread over every GET endpoint, then one more each',
    holds: () => DOCUMENTED_LIMITS.read === 300,
  },
  'RATE-14': {
    kind: 'declared',
    sends:
      'DOCUMENTED_LIMITS.write (60) writes spread over every write endpoint, then one more each',
    holds: () => DOCUMENTED_LIMITS.write === 60,
  },
  'RATE-15': {
    kind: 'declared',
    sends: "WRITES.perMinute (60) writes spread over three of a key's tokens, then one more each",
    holds: () => WRITES.perMinute === 60,
  },
  'RATE-16': {
    kind: 'elsewhere',
    rules: ['RATE-01', 'RATE-02', 'RATE-03'],
    why: 'uses up each class with the same limit classes, then sends its whole budget again',
  },
  'RACE-07': {
    kind: 'declared',
    sends: 'TOKENS.perMinute (20) token requests of a key, the last places raced',
    holds: () => TOKENS.perMinute === 20,
  },
  'RACE-08': {
    kind: 'declared',
    sends: 'WRITES.perMinute (60) writes of a key, the last places raced',
    holds: () => WRITES.perMinute === 60,
  },
  'RACE-09': {
    kind: 'declared',
    sends: 'READS.perMinute (300) reads of a key, the last places raced',
    holds: () => READS.perMinute === 300,
  },
  'RACE-02': {
    kind: 'elsewhere',
    rules: ['CANCEL-02', 'CANCEL-03'],
    why: 'races cancels inside the 24-hour window; its end is tried by CANCEL-02 and CANCEL-03',
  },
  'RACE-03': {
    kind: 'recorded',
    sends: 'webhook endpoint creations racing for the last places of the five (the last round)',
    holds: (ex) => {
      const sent = ex.filter((e) => isApi(e, /\/webhook-endpoints$/));
      return sent.filter(served).length >= 5 && sent.length >= 6;
    },
  },
  'RACE-04': {
    kind: 'recorded',
    sends: 'an account of 3 orders a day: one order, then four racing for the last two',
    holds: (ex) => {
      const sent = orders(ex);
      return (
        accountSettings(ex).maxOrdersPerDay === 3 &&
        sent.filter(({ e }) => served(e)).length >= 3 &&
        sent.length >= 5
      );
    },
  },
  'RACE-05': {
    kind: 'recorded',
    sends: 'five $20.00 and four $250.00 orders racing on new live keys (the last round)',
    holds: (ex) => {
      const { products } = accountSettings(ex);
      const sent = orders(ex);
      const of = (cents: number) => sent.filter(({ lines }) => goods(products, lines) === cents);
      return of(2_000).length >= 5 && of(25_000).length >= 4;
    },
  },
  'RACE-06': {
    kind: 'elsewhere',
    rules: ['KEY-06'],
    why: 'races key creations for the last two of the ten places; ten keys made and used: KEY-06',
  },
  'RATE-10': {
    kind: 'recorded',
    sends: 'the clock moved to just before the 60-second window ends',
    holds: (ex) => clockMoves(ex).some((s) => s >= 55 && s < 60),
  },
  'IDEM-01': {
    kind: 'elsewhere',
    rules: ['IDEM-02', 'IDEM-03'],
    why: 'judges a missing key; the 255-character limit is tried by IDEM-02 and IDEM-03',
  },
  'IDEM-02': {
    kind: 'declared',
    sends: 'keys of 254 and 255 characters, besides the generated ones',
    holds: () => [254, 255].every((n) => IDEMPOTENCY_KEY_LENGTHS.includes(n)),
  },
  'IDEM-03': {
    kind: 'declared',
    sends: 'a key of 256 characters, besides the generated ones',
    holds: () => OVERLONG_IDEMPOTENCY_KEY_LENGTHS.includes(256),
  },
  'IDEM-04': {
    kind: 'recorded',
    sends: 'a key of 256 characters',
    holds: (ex) => idempotencyKeyLengths(ex).includes(256),
  },
  'ORDER-07': {
    kind: 'recorded',
    sends: "a quantity one under its product's minimum",
    holds: (ex) => {
      const { products } = accountSettings(ex);
      return orders(ex).some(({ lines }) =>
        lines.some(
          (l) => l.quantity === (products.find((p) => p.sku === l.sku)?.min_quantity ?? 0) - 1,
        ),
      );
    },
  },
  'ORDER-10': {
    kind: 'recorded',
    sends:
      'the cheapest order over the maximum order value (one unit less is within it), and one a cent over',
    holds: (ex) => {
      const { products, maxOrderValue } = accountSettings(ex);
      if (maxOrderValue === undefined) return false;
      const centOver = orders(ex).some(({ lines }) => goods(products, lines) === maxOrderValue + 1);
      return (
        centOver &&
        orders(ex).some(({ lines }) => {
          const total = goods(products, lines);
          return (
            total > maxOrderValue &&
            lines.some(
              (l) =>
                total - (products.find((p) => p.sku === l.sku)?.unit_price ?? 0) <= maxOrderValue,
            )
          );
        })
      );
    },
  },
  'ORDER-11': {
    kind: 'recorded',
    sends: 'an order of exactly the maximum order value',
    holds: (ex) => {
      const { products, maxOrderValue } = accountSettings(ex);
      return orders(ex).some(({ lines }) => goods(products, lines) === maxOrderValue);
    },
  },
  'ORDER-12': {
    kind: 'recorded',
    sends: 'as many orders as the account may place a day, then one more',
    holds: (ex) => {
      const { maxOrdersPerDay } = accountSettings(ex);
      return maxOrdersPerDay !== undefined && limitAndOneMore(ex, /\/orders$/, maxOrdersPerDay);
    },
  },
  'ORDER-13': {
    kind: 'elsewhere',
    rules: ['ORDER-12'],
    why: "judges that cancelled orders count, with the day's allowance and one more order",
  },
  'ORDER-14': {
    kind: 'elsewhere',
    rules: ['ORDER-12'],
    why: "judges that the allowance counts per mode, with the day's allowance and one more order",
  },
  'ORDER-28': {
    kind: 'recorded',
    sends: "the day's one order and one more, then the clock moved 48 hours and one more",
    holds: (ex) => {
      const { maxOrdersPerDay } = accountSettings(ex);
      return (
        maxOrdersPerDay === 1 &&
        limitAndOneMore(ex, /\/orders$/, 1) &&
        clockMoves(ex).includes(48 * 3600)
      );
    },
  },
  'ORDER-25': {
    kind: 'recorded',
    sends: 'external_id of 64 and 65 characters, 100 and 101 items',
    holds: (ex) => {
      const sent = orders(ex).map(({ body, lines }) => ({
        id: (body as { external_id?: unknown } | undefined)?.external_id,
        items: lines.length,
      }));
      const idLengths = sent.map((s) => (typeof s.id === 'string' ? s.id.length : -1));
      const itemCounts = sent.map((s) => s.items);
      return (
        [64, 65].every((n) => idLengths.includes(n)) &&
        [100, 101].every((n) => itemCounts.includes(n))
      );
    },
  },
  'PROB-01': {
    kind: 'recorded',
    sends: '3 orders with a new live key, then a 4th',
    holds: (ex) => limitAndOneMore(ex, /\/orders$/, 3),
  },
  'PROB-02': {
    kind: 'recorded',
    sends: 'orders of $500.00 in all with a new live key, then more',
    holds: (ex) => {
      const { products } = accountSettings(ex);
      const sent = orders(ex);
      let total = 0;
      for (const [i, { lines, e }] of sent.entries()) {
        if (!served(e)) break;
        total += goods(products, lines);
        if (total === 50_000) return sent.length > i + 1;
      }
      return false;
    },
  },
  'PROB-03': {
    kind: 'recorded',
    sends: 'the clock moved to a minute before the first 24 hours end, then a minute past them',
    holds: (ex) => {
      // Where the clock stood after each move: one stop just inside the 24 hours, the last past them.
      const stops = clockMoves(ex).map((_, i, moves) =>
        moves.slice(0, i + 1).reduce((a, b) => a + b, 0),
      );
      const last = stops.at(-1) ?? 0;
      return (
        stops.some((at) => at < 86_400 && at >= 86_400 - 60) && last > 86_400 && last <= 86_400 + 60
      );
    },
  },
  'PROB-05': {
    kind: 'elsewhere',
    rules: ['PROB-01'],
    why: 'judges that cancelled orders count, with the same 3 orders and a 4th',
  },
  'PROB-06': {
    kind: 'elsewhere',
    rules: ['PROB-01'],
    why: 'judges that probation is per key, with the same 3 orders and a 4th',
  },
  'PROB-07': {
    kind: 'recorded',
    sends: 'a 4th order with a new test key in its first day',
    holds: (ex) => orders(ex).filter(({ e }) => served(e)).length >= 4,
  },
  'CANCEL-01': {
    kind: 'elsewhere',
    rules: ['CANCEL-02', 'CANCEL-03'],
    why: 'judges a cancel inside the window; its end is tried by CANCEL-02 and CANCEL-03',
  },
  'CANCEL-02': {
    kind: 'recorded',
    sends: 'the clock moved 24 hours less one minute',
    holds: (ex) => clockMoves(ex).includes(86_400 - 60),
  },
  'CANCEL-03': {
    kind: 'recorded',
    sends: 'the clock moved 24 hours and one minute',
    holds: (ex) => clockMoves(ex).includes(86_400 + 60),
  },
  'CANCEL-04': {
    kind: 'elsewhere',
    rules: ['CANCEL-02', 'CANCEL-03'],
    why: 'judges a cancel after production started, inside the window',
  },
  'CANCEL-07': {
    kind: 'elsewhere',
    rules: ['CANCEL-02', 'CANCEL-03'],
    why: 'judges a cancel of a shipped order, inside the window',
  },
  'CANCEL-05': {
    kind: 'elsewhere',
    rules: ['CANCEL-02', 'CANCEL-03'],
    why: 'judges a second cancel, inside the window',
  },
  'READ-02': {
    kind: 'recorded',
    sends: 'an account made with limits of its own, then read',
    holds: (ex) => {
      const { maxOrderValue, maxOrdersPerDay } = accountSettings(ex);
      return (
        maxOrderValue !== undefined &&
        maxOrdersPerDay !== undefined &&
        ex.some((e) => isApi(e, /\/account$/, 'GET'))
      );
    },
  },
  'READ-13': {
    kind: 'elsewhere',
    rules: ['READ-14'],
    why: 'judges paging; the bounds of limit (1..100) are tried by READ-14',
  },
  'READ-14': {
    kind: 'recorded',
    sends: 'limit=0 and limit=101 (one past each end of 1..100)',
    holds: (ex) => {
      const urls = ex.filter((e) => isApi(e, /\/orders\?/, 'GET')).map((e) => e.request.url);
      return ['limit=0', 'limit=101'].every((q) =>
        urls.some((u) => new RegExp(`[?&]${q}(&|$)`).test(u)),
      );
    },
  },
  'READ-25': {
    kind: 'recorded',
    sends: '21 orders (one more than the default page of 20), then a list read with no limit',
    holds: (ex) =>
      ex.filter((e) => isApi(e, /\/orders$/, 'POST') && served(e)).length >= 21 &&
      ex.some((e) => isApi(e, /\/orders$/, 'GET')),
  },
  'HOOK-01': {
    kind: 'recorded',
    sends: '5 webhook endpoints, then a sixth',
    holds: (ex) => limitAndOneMore(ex, /\/webhook-endpoints$/, 5),
  },
  'HOOK-03': {
    kind: 'elsewhere',
    rules: ['HOOK-01'],
    why: 'judges that a deleted endpoint leaves room, after the same five',
  },
  'HOOK-02': {
    kind: 'recorded',
    sends: '5 webhook endpoints in each mode',
    holds: (ex) => ex.filter((e) => isApi(e, /\/webhook-endpoints$/) && served(e)).length >= 10,
  },
};
