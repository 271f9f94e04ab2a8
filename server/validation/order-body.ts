import { z } from 'zod';
import type { ShippingAddress } from '../domain/order.js';
import { ApiProblem } from '../problems/api-problem.js';
import { issuesToErrors } from './issues.js';

// No control characters and no lone surrogate halves (with the u flag, \p{Cs} matches only an
// unpaired one): such a string cannot be stored as UTF-8 and would come back changed.
const NO_CONTROL_CHARS = /^[^\p{Cc}\p{Cs}]*$/u;
const text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(NO_CONTROL_CHARS, 'must not contain control characters or unpaired surrogates');

/**
 * §4 rule 4: an order is fetched by `GET /orders/by-external-id/{external_id}`, so an id must
 * survive that path: `.` and `..` are dot segments that URL resolution removes (RFC 3986 §5.2.4).
 */
const externalId = text(64).refine((value) => value !== '.' && value !== '..', {
  message: 'must not be "." or "..": it could not be fetched by external id',
});

/** Contract §2 `shipping_address`: `{name, line1, line2?, city, state, postal_code, country}`. */
const AddressSchema = z.strictObject({
  name: text(200),
  line1: text(200),
  line2: z.string().max(200).regex(NO_CONTROL_CHARS).nullable().optional(),
  city: text(100),
  state: text(100),
  postal_code: text(20),
  country: text(64),
});

const ItemSchema = z.strictObject({
  sku: text(64),
  quantity: z.number().int().min(1).max(1_000_000),
});

/** Contract §2: 1..100 items. */
const ItemsSchema = z.array(ItemSchema).min(1).max(100);

/** Contract §2 order body; §4: unknown fields and missing required fields are 422. */
export const OrderBodySchema = z.strictObject({
  external_id: externalId,
  items: ItemsSchema,
  shipping_address: AddressSchema,
});

/** Contract §2 quote body `{items, shipping_address}`. */
export const QuoteBodySchema = z.strictObject({
  items: ItemsSchema,
  shipping_address: AddressSchema,
});

export type OrderBody = z.infer<typeof OrderBodySchema>;
export type ItemInput = z.infer<typeof ItemSchema>;

/** Parses a body with a schema; every issue becomes an `errors[]` entry of one 422. */
export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const errors = issuesToErrors(result.error.issues);
  throw new ApiProblem('validation_failed', 'The request body is not valid; see errors.', {
    errors,
  });
}

/** The stored address: `line2` only when given. */
export function toShippingAddress(input: OrderBody['shipping_address']): ShippingAddress {
  const { line2, ...rest } = input;
  return line2 === undefined || line2 === null || line2 === '' ? rest : { ...rest, line2 };
}
