import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

/** Contract §2 shipments: `GET /orders/{id}/shipments`. */
export interface Shipment {
  seq: number;
  id: string;
  orderId: string;
  carrier: string;
  trackingNumber: string;
  shippedAt: number;
}

/** Contract §2 invoice: `GET /orders/{id}/invoice`, 404 until one exists. */
export interface Invoice {
  id: string;
  orderId: string;
  total: number;
  status: 'open' | 'paid';
  createdAt: number;
}

/** A shipment as both storage engines keep it. */
export interface ShipmentRow {
  seq: number;
  id: string;
  order_id: string;
  carrier: string;
  tracking_number: string;
  shipped_at: number;
}

/** An invoice as both storage engines keep it. */
export interface InvoiceRow {
  id: string;
  order_id: string;
  total: number;
  status: string;
  created_at: number;
}

export function shipmentFromRow(row: ShipmentRow): Shipment {
  return {
    seq: row.seq,
    id: row.id,
    orderId: row.order_id,
    carrier: row.carrier,
    trackingNumber: row.tracking_number,
    shippedAt: row.shipped_at,
  };
}

export function invoiceFromRow(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    orderId: row.order_id,
    total: row.total,
    status: row.status as Invoice['status'],
    createdAt: row.created_at,
  };
}

export class FulfilmentStore {
  readonly #insertShipment: Statement<[string, string, string, string, number]>;
  readonly #shipments: Statement<[string, number, number], ShipmentRow>;
  readonly #shipmentSeq: Statement<[string, string], { seq: number }>;
  readonly #insertInvoice: Statement<[string, string, number, string, number]>;
  readonly #invoice: Statement<[string], InvoiceRow>;

  constructor(db: Db) {
    this.#insertShipment = db.prepare(
      'INSERT INTO shipments (id, order_id, carrier, tracking_number, shipped_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.#shipments = db.prepare(
      'SELECT * FROM shipments WHERE order_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
    );
    this.#shipmentSeq = db.prepare('SELECT seq FROM shipments WHERE order_id = ? AND id = ?');
    this.#insertInvoice = db.prepare(
      'INSERT INTO invoices (id, order_id, total, status, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.#invoice = db.prepare('SELECT * FROM invoices WHERE order_id = ?');
  }

  addShipment(shipment: Omit<Shipment, 'seq'>): void {
    this.#insertShipment.run(
      shipment.id,
      shipment.orderId,
      shipment.carrier,
      shipment.trackingNumber,
      shipment.shippedAt,
    );
  }

  shipments(orderId: string, beforeSeq: number, limit: number): Shipment[] {
    return this.#shipments.all(orderId, beforeSeq, limit).map(shipmentFromRow);
  }

  shipmentSeq(orderId: string, id: string): number | undefined {
    return this.#shipmentSeq.get(orderId, id)?.seq;
  }

  addInvoice(invoice: Invoice): void {
    this.#insertInvoice.run(
      invoice.id,
      invoice.orderId,
      invoice.total,
      invoice.status,
      invoice.createdAt,
    );
  }

  invoice(orderId: string): Invoice | undefined {
    const row = this.#invoice.get(orderId);
    if (!row) return undefined;
    return invoiceFromRow(row);
  }
}
