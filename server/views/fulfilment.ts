import { money } from '../domain/money.js';
import { rfc3339 } from '../domain/time.js';
import type { Invoice, Shipment } from '../store/fulfilment.js';

export function shipmentView(shipment: Shipment) {
  return {
    id: shipment.id,
    object: 'shipment' as const,
    order_id: shipment.orderId,
    carrier: shipment.carrier,
    tracking_number: shipment.trackingNumber,
    shipped_at: rfc3339(shipment.shippedAt),
  };
}

export function invoiceView(invoice: Invoice) {
  return {
    id: invoice.id,
    object: 'invoice' as const,
    order_id: invoice.orderId,
    total: money(invoice.total),
    status: invoice.status,
    created_at: rfc3339(invoice.createdAt),
  };
}
