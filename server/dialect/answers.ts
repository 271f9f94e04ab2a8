import {
  ADDRESS_FIELDS,
  type BodyShape,
  type Dialect,
  type MoneyPlace,
  moneyAt,
  type OperationName,
} from './model.js';
import { get, isObject, type Json, set, take } from './pointer.js';

type JsonObject = Record<string, unknown>;

/**
 * The reference members whose money has a place of its own (the domain's
 * names, before the dialect moves them): a product's and a line's prices, the
 * account's limit. Any other money is a total.
 */
const MONEY_MEMBERS: Readonly<Record<string, MoneyPlace>> = {
  unit_price: 'prices',
  amount: 'prices',
  max_order_value: 'maxOrderValue',
};

/**
 * The domain's answers (the reference dialect, contract §2) as the dialect
 * shows them. Each takes a freshly parsed answer and may change it in place.
 */
export class AnswerShapes {
  readonly #d: Dialect;
  readonly #statuses: Map<unknown, string>;
  readonly #kinds: Map<unknown, string>;

  constructor(dialect: Dialect) {
    this.#d = dialect;
    const s = dialect.orderStatuses;
    this.#statuses = new Map([
      ['received', s.received],
      ['in_production', s.inProduction],
      ['shipped', s.shipped],
      ['cancelled', s.cancelled],
    ]);
    this.#kinds = new Map([
      ['order.created', dialect.eventKinds.orderCreated],
      ['order.cancelled', dialect.eventKinds.orderCancelled],
    ]);
  }

  /** The success answer of `op`. */
  answer(op: OperationName, body: Json): Json {
    const money = this.#money(body);
    switch (op) {
      case 'account':
        return this.#account(money);
      case 'catalogProducts':
        return this.#list(money, (p) => this.#product(p));
      case 'catalogProduct':
        return this.#product(money);
      case 'quoteCreate':
      case 'quoteRead':
        return this.#quote(money);
      case 'orderList':
        return this.#list(money, (o) => this.#order(o));
      case 'orderCreate':
      case 'orderRead':
      case 'orderByExternalId':
      case 'orderCancel':
        return this.#order(money);
      case 'shipments':
        return this.#list(money, (s) => s);
      case 'webhookEndpointCreate':
      case 'webhookEndpointRead':
        return this.#endpoint(money);
      case 'webhookEndpointList':
        return this.#list(money, (e) => this.#endpoint(e));
      case 'eventList':
        return this.#list(money, (e) => this.#event(e));
      case 'eventRead':
        return this.#event(money);
      default:
        return money;
    }
  }

  /** The id of a created object, for its `Location`. */
  static idOf(body: Json): string | undefined {
    const id = isObject(body) ? body.id : undefined;
    return typeof id === 'string' ? id : undefined;
  }

  /**
   * Every `{amount, currency}` of the answer in the dialect's money format of
   * its place: the member holding it says which (a total unless it is a
   * price or the maximum order value).
   */
  #money(value: Json, place: MoneyPlace = 'totals'): Json {
    if (Array.isArray(value)) return value.map((item) => this.#money(item, place));
    if (!isObject(value)) return value;
    const keys = Object.keys(value);
    if (keys.length === 2 && Number.isInteger(value.amount) && typeof value.currency === 'string') {
      return this.#formatMoney(value.amount as number, value.currency, place);
    }
    for (const key of keys) value[key] = this.#money(value[key], MONEY_MEMBERS[key] ?? place);
    return value;
  }

  #formatMoney(cents: number, currency: string, place: MoneyPlace): Json {
    const { format, amount, currency: currencyAt } = moneyAt(this.#d.money, place);
    if (format === 'cents') return cents;
    if (format === 'decimal') {
      const sign = cents < 0 ? '-' : '';
      const abs = Math.abs(cents);
      return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
    }
    const out: JsonObject = {};
    set(out, amount, cents);
    set(out, currencyAt, currency);
    return out;
  }

  /** Moves each `[from, to]` of `object` (reference pointer → dialect pointer), all taken before any is set. */
  #move(object: Json, moves: readonly (readonly [string, string, ((v: Json) => Json)?])[]): Json {
    if (!isObject(object)) return object;
    const taken = moves.map(([from]) => take(object, from));
    moves.forEach(([, to, change], i) => {
      const value = taken[i];
      if (value !== undefined) set(object, to, change ? change(value) : value);
    });
    return object;
  }

  #list(body: Json, item: (value: Json) => Json): Json {
    if (!isObject(body) || !Array.isArray(body.data)) return body;
    const { items, hasMore, nextCursor } = this.#d.list;
    const data = body.data as Json[];
    const last = data.at(-1);
    const cursor = isObject(last) ? (last.id ?? last.sku) : undefined;
    const out: JsonObject = {};
    set(out, items, data.map(item));
    if (hasMore !== null) set(out, hasMore, body.has_more);
    if (nextCursor !== null) set(out, nextCursor, body.has_more === true ? cursor : null);
    return out;
  }

  #account(body: Json): Json {
    const f = this.#d.accountFields;
    return this.#move(body, [
      ['/livemode', f.livemode],
      ['/billing_method', f.billingMethod],
      ['/scopes', f.scopes],
      ['/limits/max_order_value', f.maxOrderValue],
      ['/limits/max_orders_per_day', f.maxOrdersPerDay],
    ]);
  }

  #product(body: Json): Json {
    const p = this.#d.answers.product;
    return this.#move(body, [
      ['/sku', p.sku],
      ['/unit_price', p.unitPrice],
      ['/min_quantity', p.minQuantity],
      ['/ships_by_freight', p.shipsByFreight],
    ]);
  }

  /** A quote: its id and total where the dialect shows them, its lines and address as its body put them. */
  #quote(body: Json): Json {
    return this.#move(body, [
      ['/id', this.#d.answers.quote.id],
      ['/total', this.#d.totals.quote],
      ...this.#linesAndAddress(this.#d.quoteBody, this.#d.quoteBody.address),
    ]);
  }

  /** An order: its id, status, lines and total where the dialect shows them, the address as its body put it. */
  #order(body: Json): Json {
    const o = this.#d.answers.order;
    return this.#move(body, [
      ['/id', o.id],
      ['/status', o.status, (s) => this.#statuses.get(s) ?? s],
      ['/total', this.#d.totals.order],
      ...this.#linesAndAddress(
        { items: o.lines, sku: o.lineSku, quantity: o.lineQuantity },
        this.#d.orderBody.address,
      ),
    ]);
  }

  /** Moves of `items[]` (each line's `sku`, `quantity`) and `shipping_address` to the given places. */
  #linesAndAddress(
    lines: Pick<BodyShape, 'items' | 'sku' | 'quantity'>,
    address: BodyShape['address'],
  ) {
    const line = (value: Json) =>
      this.#move(value, [
        ['/sku', lines.sku],
        ['/quantity', lines.quantity],
      ]);
    return [
      ['/items', lines.items, (all: Json) => (Array.isArray(all) ? all.map(line) : all)],
      ...ADDRESS_FIELDS.map((f) => [`/shipping_address/${f}`, address[f]] as const),
    ] as const;
  }

  #endpoint(body: Json): Json {
    const shape = this.#d.webhookEndpointBody;
    const kinds = (list: Json) =>
      Array.isArray(list) ? list.map((kind) => this.#kinds.get(kind) ?? kind) : list;
    if (shape.events === null && isObject(body)) take(body, '/events');
    return this.#move(body, [
      ['/id', this.#d.answers.webhookEndpoint.id],
      ['/url', shape.url],
      ...(shape.events === null ? [] : [['/events', shape.events, kinds] as const]),
    ]);
  }

  #event(body: Json): Json {
    const e = this.#d.answers.event;
    const object = get(body, '/data/object');
    if (isObject(object) && object.object === 'order') this.#order(object);
    return this.#move(body, [
      ['/id', e.id],
      ['/type', e.type, (kind) => this.#kinds.get(kind) ?? kind],
    ]);
  }
}
