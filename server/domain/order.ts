import type { Mode } from './modes.js';

/** Contract §2 order status. */
export type OrderStatus = 'received' | 'in_production' | 'shipped' | 'cancelled';

/** One priced line of an order or quote; money in integer cents. */
export interface PricedItem {
  sku: string;
  quantity: number;
  unit_price: number;
  amount: number;
}

/** Contract §2 order body `shipping_address`. */
export interface ShippingAddress {
  name: string;
  line1: string;
  line2?: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}

/** An order as stored. Times are on the account clock. */
export interface Order {
  seq: number;
  id: string;
  accountId: string;
  mode: Mode;
  keyId: string;
  externalId: string;
  status: OrderStatus;
  items: PricedItem[];
  /** §4 rule 5: lines plus shipping (contract §2: the reference charges none unless AppOptions.shippingCents). */
  total: number;
  shippingAddress: ShippingAddress;
  createdAt: number;
  cancellableUntil: number;
  updatedAt: number;
}
