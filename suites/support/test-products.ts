import type { Product } from '../../lib/check/index.js';

/**
 * The product list the suite gives the accounts it makes, so that prices and
 * minimums are known exactly. Like the contract's default list (section 3) it
 * has a freight product and one with a minimum above 1, so every order rule
 * of section 4 can be broken with it.
 */
export const TEST_PRODUCTS: readonly Product[] = Object.freeze([
  {
    sku: 'CT-TEE-BLK-M',
    name: 'Organic cotton tee, black, M',
    unit_price: 1800,
    min_quantity: 1,
    ships_by_freight: false,
  },
  {
    sku: 'CT-MUG-11',
    name: 'Enamel mug, 11 oz',
    unit_price: 1100,
    min_quantity: 1,
    ships_by_freight: false,
  },
  {
    sku: 'CT-TOTE',
    name: 'Canvas tote bag',
    unit_price: 1350,
    min_quantity: 1,
    ships_by_freight: false,
  },
  {
    sku: 'CT-STICKER',
    name: 'Die-cut sticker',
    unit_price: 125,
    min_quantity: 25,
    ships_by_freight: false,
  },
  {
    sku: 'CT-HOODIE-L',
    name: 'Fleece hoodie, L',
    unit_price: 4200,
    min_quantity: 1,
    ships_by_freight: false,
  },
  {
    sku: 'CT-PALLET-DISPLAY',
    name: 'Retail display stand (pallet)',
    unit_price: 38000,
    min_quantity: 1,
    ships_by_freight: true,
  },
]);

/** Limits generous enough that only checks of the limits themselves ever reach them. */
export const GENEROUS_LIMITS = {
  max_order_value: 50_000_000,
  max_orders_per_day: 100_000,
} as const;
