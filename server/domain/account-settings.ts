import { z } from 'zod';
import { DEFAULT_RATE_LIMITS } from '../config/api.js';
import { DEFAULT_PRODUCTS, type Product } from './products.js';

/**
 * Contract §3 account settings, with their defaults. `name` and `rate_limits`
 * are additions of the reference (documented in server/README.md): a name
 * for `GET /account`, and per-class rate limits so that a benchmark account
 * can be made generous; they default to the API document's §8 values.
 */
const SERVICE_STATES = ['normal', 'read_only', 'unavailable'] as const;
const CARD_BEHAVIOURS = [
  'valid',
  'missing',
  'declined',
  'authentication_required',
  'failing',
] as const;

export interface AccountSettings {
  name: string;
  test_mode: boolean;
  live_access: boolean;
  suspended: boolean;
  incomplete: boolean;
  service: (typeof SERVICE_STATES)[number];
  billing: {
    method: 'invoice' | 'card';
    card: (typeof CARD_BEHAVIOURS)[number];
    decline_code: string;
  };
  limits: { max_order_value: number; max_orders_per_day: number };
  products: Product[];
  rate_limits: { read: number; write: number; token: number };
}

export function defaultSettings(): AccountSettings {
  return {
    name: 'Reference Partner',
    test_mode: true,
    live_access: false,
    suspended: false,
    incomplete: false,
    service: 'normal',
    billing: { method: 'invoice', card: 'valid', decline_code: 'insufficient_funds' },
    limits: { max_order_value: 100_000, max_orders_per_day: 50 },
    products: DEFAULT_PRODUCTS.map((product) => ({ ...product })),
    rate_limits: { ...DEFAULT_RATE_LIMITS },
  };
}

const cents = z.number().int().min(0).max(1_000_000_000);
const count = z.number().int().min(0).max(1_000_000_000);

const ProductSchema = z.strictObject({
  sku: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._-]+$/, 'sku may hold letters, digits, ".", "_" and "-"'),
  name: z.string().min(1).max(200).optional(),
  unit_price: cents,
  min_quantity: z.number().int().min(1).max(1_000_000).optional(),
  ships_by_freight: z.boolean().optional(),
});

/** Every setting optional: the body of `POST /accounts` and of `PATCH /accounts/{id}`. */
export const SettingsPatchSchema = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  test_mode: z.boolean().optional(),
  live_access: z.boolean().optional(),
  suspended: z.boolean().optional(),
  incomplete: z.boolean().optional(),
  service: z.enum(SERVICE_STATES).optional(),
  billing: z
    .strictObject({
      method: z.enum(['invoice', 'card']).optional(),
      card: z.enum(CARD_BEHAVIOURS).optional(),
      decline_code: z.string().min(1).max(100).optional(),
    })
    .optional(),
  limits: z
    .strictObject({ max_order_value: cents.optional(), max_orders_per_day: count.optional() })
    .optional(),
  products: z
    .array(ProductSchema)
    .max(1000)
    .refine((list) => new Set(list.map((p) => p.sku)).size === list.length, 'skus must be unique')
    .optional(),
  rate_limits: z
    .strictObject({
      read: count.min(1).optional(),
      write: count.min(1).optional(),
      token: count.min(1).optional(),
    })
    .optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/** Applies a patch: nested objects merge field by field; `products` replaces the list. */
export function applySettings(base: AccountSettings, patch: SettingsPatch): AccountSettings {
  const next: AccountSettings = {
    ...base,
    billing: { ...base.billing },
    limits: { ...base.limits },
    rate_limits: { ...base.rate_limits },
  };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.test_mode !== undefined) next.test_mode = patch.test_mode;
  if (patch.live_access !== undefined) next.live_access = patch.live_access;
  if (patch.suspended !== undefined) next.suspended = patch.suspended;
  if (patch.incomplete !== undefined) next.incomplete = patch.incomplete;
  if (patch.service !== undefined) next.service = patch.service;
  if (patch.billing?.method !== undefined) next.billing.method = patch.billing.method;
  if (patch.billing?.card !== undefined) next.billing.card = patch.billing.card;
  if (patch.billing?.decline_code !== undefined)
    next.billing.decline_code = patch.billing.decline_code;
  if (patch.limits?.max_order_value !== undefined) {
    next.limits.max_order_value = patch.limits.max_order_value;
  }
  if (patch.limits?.max_orders_per_day !== undefined) {
    next.limits.max_orders_per_day = patch.limits.max_orders_per_day;
  }
  if (patch.rate_limits?.read !== undefined) next.rate_limits.read = patch.rate_limits.read;
  if (patch.rate_limits?.write !== undefined) next.rate_limits.write = patch.rate_limits.write;
  if (patch.rate_limits?.token !== undefined) next.rate_limits.token = patch.rate_limits.token;
  if (patch.products !== undefined) {
    next.products = patch.products.map((p) => ({
      sku: p.sku,
      name: p.name ?? p.sku,
      unit_price: p.unit_price,
      min_quantity: p.min_quantity ?? 1,
      ships_by_freight: p.ships_by_freight ?? false,
    }));
  }
  return next;
}
