import { newId } from '../../domain/ids.js';
import type { Mode } from '../../domain/modes.js';
import type { Order, OrderStatus } from '../../domain/order.js';
import { utcDay } from '../../domain/time.js';
import {
  type Charge,
  type ChargeRow,
  chargeColumns,
  chargeFromRow,
  type NewCharge,
} from '../charges.js';
import { type EventRow, type EventType, eventFromRow, type StoredEvent } from '../events.js';
import {
  type Invoice,
  type InvoiceRow,
  invoiceFromRow,
  type Shipment,
  type ShipmentRow,
  shipmentFromRow,
} from '../fulfilment.js';
import { type OrderRow, orderColumns, orderFromRow } from '../orders.js';
import type { Quote } from '../quotes.js';
import type { Charges, Events, Fulfilment, Orders, Quotes, WebhookEndpoints } from '../store.js';
import { type EndpointRow, endpointFromRow, type WebhookEndpoint } from '../webhook-endpoints.js';
import { type PgDb, sql } from './pg-db.js';

/** Orders, events, quotes, webhook endpoints, shipments, invoices and charges on PostgreSQL (as store/*.ts on SQLite). */

const ORDER_INSERT = sql(
  `INSERT INTO orders (id, account_id, mode, key_id, external_id, status, items, total,
     shipping_address, created_at, day, cancellable_until, updated_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING seq`,
);
const ORDER_BUMP_DAY = sql(
  `INSERT INTO daily_order_counts (account_id, mode, day, orders) VALUES ($1, $2, $3, 1)
   ON CONFLICT (account_id, mode, day) DO UPDATE SET orders = daily_order_counts.orders + 1`,
);
const ORDER_BY_ID = sql('SELECT * FROM orders WHERE account_id = $1 AND mode = $2 AND id = $3');
const ORDER_BY_ID_ANY_MODE = sql('SELECT * FROM orders WHERE account_id = $1 AND id = $2');
const ORDER_BY_EXTERNAL_ID = sql(
  'SELECT * FROM orders WHERE account_id = $1 AND mode = $2 AND external_id = $3',
);
const ORDER_PAGE = sql(
  `SELECT * FROM orders WHERE account_id = $1 AND mode = $2 AND seq < $3
   ORDER BY seq DESC LIMIT $4`,
);
const ORDER_COUNT_DAY = sql(
  'SELECT orders FROM daily_order_counts WHERE account_id = $1 AND mode = $2 AND day = $3',
);
const PROBATION_USAGE = sql('SELECT orders, total FROM probation_usage WHERE key_id = $1');
const PROBATION_BUMP = sql(
  `INSERT INTO probation_usage (key_id, orders, total) VALUES ($1, 1, $2)
   ON CONFLICT (key_id) DO UPDATE SET orders = probation_usage.orders + 1,
     total = probation_usage.total + EXCLUDED.total`,
);
const ORDER_STATUS = sql('UPDATE orders SET status = $1, updated_at = $2 WHERE id = $3');

export function pgOrders(db: PgDb): Orders {
  const one = async (statement: typeof ORDER_BY_ID, values: unknown[]) => {
    const row = await db.first<OrderRow>(statement, values);
    return row && orderFromRow(row);
  };
  return {
    async insert(order: Omit<Order, 'seq'>): Promise<Order> {
      const day = utcDay(order.createdAt);
      await db.rows(ORDER_BUMP_DAY, [order.accountId, order.mode, day]);
      const row = await db.first<{ seq: number }>(ORDER_INSERT, orderColumns(order, day));
      return { ...order, seq: row?.seq ?? 0 };
    },
    get: (accountId: string, mode: Mode, id: string) => one(ORDER_BY_ID, [accountId, mode, id]),
    getInAnyMode: (accountId: string, id: string) => one(ORDER_BY_ID_ANY_MODE, [accountId, id]),
    getByExternalId: (accountId: string, mode: Mode, externalId: string) =>
      one(ORDER_BY_EXTERNAL_ID, [accountId, mode, externalId]),
    async page(accountId: string, mode: Mode, beforeSeq: number, limit: number): Promise<Order[]> {
      return (await db.rows<OrderRow>(ORDER_PAGE, [accountId, mode, beforeSeq, limit])).map(
        orderFromRow,
      );
    },
    async countOnDay(accountId: string, mode: Mode, day: string): Promise<number> {
      return (
        (await db.first<{ orders: number }>(ORDER_COUNT_DAY, [accountId, mode, day]))?.orders ?? 0
      );
    },
    async probationUsage(keyId: string): Promise<{ count: number; total: number }> {
      const row = await db.first<{ orders: number; total: number }>(PROBATION_USAGE, [keyId]);
      return { count: row?.orders ?? 0, total: row?.total ?? 0 };
    },
    async countForProbation(keyId: string, total: number): Promise<void> {
      await db.rows(PROBATION_BUMP, [keyId, total]);
    },
    async setStatus(order: Order, status: OrderStatus, at: number): Promise<Order> {
      await db.rows(ORDER_STATUS, [status, at, order.id]);
      return { ...order, status, updatedAt: at };
    },
  };
}

const EVENT_INSERT = sql(
  'INSERT INTO events (id, account_id, mode, type, created_at, object) VALUES ($1, $2, $3, $4, $5, $6)',
);
const EVENT_BY_ID = sql(
  'SELECT seq, id, mode, type, created_at, object FROM events WHERE account_id = $1 AND mode = $2 AND id = $3',
);
const EVENT_PAGE = sql(
  `SELECT seq, id, mode, type, created_at, object FROM events
   WHERE account_id = $1 AND mode = $2 AND seq < $3 ORDER BY seq DESC LIMIT $4`,
);
const EVENT_PAGE_OF_TYPE = sql(
  `SELECT seq, id, mode, type, created_at, object FROM events
   WHERE account_id = $1 AND mode = $2 AND type = $3 AND seq < $4 ORDER BY seq DESC LIMIT $5`,
);

export function pgEvents(db: PgDb): Events {
  return {
    async record(
      accountId: string,
      mode: Mode,
      type: EventType,
      at: number,
      object: unknown,
    ): Promise<void> {
      await db.rows(EVENT_INSERT, [
        newId('evt'),
        accountId,
        mode,
        type,
        at,
        JSON.stringify(object),
      ]);
    },
    async get(accountId: string, mode: Mode, id: string): Promise<StoredEvent | undefined> {
      const row = await db.first<EventRow>(EVENT_BY_ID, [accountId, mode, id]);
      return row && eventFromRow(row);
    },
    async page(
      accountId: string,
      mode: Mode,
      type: string | undefined,
      beforeSeq: number,
      limit: number,
    ): Promise<StoredEvent[]> {
      const rows =
        type === undefined
          ? await db.rows<EventRow>(EVENT_PAGE, [accountId, mode, beforeSeq, limit])
          : await db.rows<EventRow>(EVENT_PAGE_OF_TYPE, [accountId, mode, type, beforeSeq, limit]);
      return rows.map(eventFromRow);
    },
  };
}

const QUOTE_INSERT = sql(
  'INSERT INTO quotes (id, account_id, mode, body, created_at) VALUES ($1, $2, $3, $4, $5)',
);
const QUOTE_BY_ID = sql(
  'SELECT id, mode, body FROM quotes WHERE account_id = $1 AND mode = $2 AND id = $3',
);

export function pgQuotes(db: PgDb): Quotes {
  return {
    async insert(accountId: string, quote: Quote): Promise<void> {
      const { id, mode, ...body } = quote;
      await db.rows(QUOTE_INSERT, [id, accountId, mode, JSON.stringify(body), quote.createdAt]);
    },
    async get(accountId: string, mode: Mode, id: string): Promise<Quote | undefined> {
      const row = await db.first<{ id: string; mode: string; body: string }>(QUOTE_BY_ID, [
        accountId,
        mode,
        id,
      ]);
      if (!row) return undefined;
      return {
        id: row.id,
        mode: row.mode as Mode,
        ...(JSON.parse(row.body) as Omit<Quote, 'id' | 'mode'>),
      };
    },
  };
}

const ENDPOINT_COLUMNS = 'seq, id, mode, url, events, created_at';
const ENDPOINT_INSERT = sql(
  'INSERT INTO webhook_endpoints (id, account_id, mode, url, events, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING seq',
);
const ENDPOINT_BY_ID = sql(
  `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
   WHERE account_id = $1 AND mode = $2 AND id = $3 AND deleted_at IS NULL`,
);
const ENDPOINT_PAGE = sql(
  `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
   WHERE account_id = $1 AND mode = $2 AND deleted_at IS NULL AND seq < $3
   ORDER BY seq DESC LIMIT $4`,
);
const ENDPOINT_COUNT = sql(
  'SELECT count(*) AS n FROM webhook_endpoints WHERE account_id = $1 AND mode = $2 AND deleted_at IS NULL',
);
const ENDPOINT_DELETE = sql('UPDATE webhook_endpoints SET deleted_at = $1 WHERE id = $2');

export function pgWebhookEndpoints(db: PgDb): WebhookEndpoints {
  return {
    async insert(
      accountId: string,
      endpoint: Omit<WebhookEndpoint, 'seq'>,
    ): Promise<WebhookEndpoint> {
      const row = await db.first<{ seq: number }>(ENDPOINT_INSERT, [
        endpoint.id,
        accountId,
        endpoint.mode,
        endpoint.url,
        JSON.stringify(endpoint.events),
        endpoint.createdAt,
      ]);
      return { ...endpoint, seq: row?.seq ?? 0 };
    },
    async get(accountId: string, mode: Mode, id: string): Promise<WebhookEndpoint | undefined> {
      const row = await db.first<EndpointRow>(ENDPOINT_BY_ID, [accountId, mode, id]);
      return row && endpointFromRow(row);
    },
    async page(
      accountId: string,
      mode: Mode,
      beforeSeq: number,
      limit: number,
    ): Promise<WebhookEndpoint[]> {
      return (await db.rows<EndpointRow>(ENDPOINT_PAGE, [accountId, mode, beforeSeq, limit])).map(
        endpointFromRow,
      );
    },
    async countActive(accountId: string, mode: Mode): Promise<number> {
      return (await db.first<{ n: number }>(ENDPOINT_COUNT, [accountId, mode]))?.n ?? 0;
    },
    async delete(id: string, at: number): Promise<void> {
      await db.rows(ENDPOINT_DELETE, [at, id]);
    },
  };
}

const SHIPMENT_INSERT = sql(
  'INSERT INTO shipments (id, order_id, carrier, tracking_number, shipped_at) VALUES ($1, $2, $3, $4, $5)',
);
const SHIPMENTS = sql(
  'SELECT * FROM shipments WHERE order_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3',
);
const SHIPMENT_SEQ = sql('SELECT seq FROM shipments WHERE order_id = $1 AND id = $2');
const INVOICE_INSERT = sql(
  'INSERT INTO invoices (id, order_id, total, status, created_at) VALUES ($1, $2, $3, $4, $5)',
);
const INVOICE = sql('SELECT * FROM invoices WHERE order_id = $1');

export function pgFulfilment(db: PgDb): Fulfilment {
  return {
    async addShipment(shipment: Omit<Shipment, 'seq'>): Promise<void> {
      await db.rows(SHIPMENT_INSERT, [
        shipment.id,
        shipment.orderId,
        shipment.carrier,
        shipment.trackingNumber,
        shipment.shippedAt,
      ]);
    },
    async shipments(orderId: string, beforeSeq: number, limit: number): Promise<Shipment[]> {
      return (await db.rows<ShipmentRow>(SHIPMENTS, [orderId, beforeSeq, limit])).map(
        shipmentFromRow,
      );
    },
    async shipmentSeq(orderId: string, id: string): Promise<number | undefined> {
      return (await db.first<{ seq: number }>(SHIPMENT_SEQ, [orderId, id]))?.seq;
    },
    async addInvoice(invoice: Invoice): Promise<void> {
      await db.rows(INVOICE_INSERT, [
        invoice.id,
        invoice.orderId,
        invoice.total,
        invoice.status,
        invoice.createdAt,
      ]);
    },
    async invoice(orderId: string): Promise<Invoice | undefined> {
      const row = await db.first<InvoiceRow>(INVOICE, [orderId]);
      if (!row) return undefined;
      return invoiceFromRow(row);
    },
  };
}

const CHARGE_INSERT = sql(
  `INSERT INTO charges (id, account_id, mode, order_id, external_id, amount, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7)`,
);
const CHARGES_OF_ACCOUNT = sql(
  `SELECT seq, id, account_id, mode, order_id, external_id, amount, created_at
   FROM charges WHERE account_id = $1 ORDER BY seq`,
);

export function pgCharges(db: PgDb): Charges {
  return {
    async record(charge: NewCharge): Promise<void> {
      await db.rows(CHARGE_INSERT, chargeColumns(charge));
    },
    async ofAccount(accountId: string): Promise<Charge[]> {
      return (await db.rows<ChargeRow>(CHARGES_OF_ACCOUNT, [accountId])).map(chargeFromRow);
    },
  };
}
