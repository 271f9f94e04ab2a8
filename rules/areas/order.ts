import { areaRules } from '../schema.js';

/** Placing orders: API document section 4 ("POST /orders", "Rules for the order body"), 7 and 8. */
export const rules = areaRules([
  {
    id: 'ORDER-01',
    level: 'MUST',
    title:
      'MUST refuse an order body not sent as JSON with 415 unsupported_media_type, placing nothing',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Header Content-Type: application/json. Otherwise 415 unsupported_media_type.',
    },
  },
  {
    id: 'ORDER-02',
    level: 'SHOULD',
    title: 'SHOULD accept Content-Type application/json with a charset parameter (RFC 8259)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Bodies are JSON (Content-Type: application/json) except the token request.',
      rfc: 'RFC 8259 §11',
    },
  },
  {
    id: 'ORDER-03',
    level: 'MUST',
    title:
      'MUST refuse an order without external_id with 422 validation_failed and an errors[] entry',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote:
        'Body: must contain external_id, unique per account. Unknown fields and missing required fields give 422 validation_failed.',
    },
  },
  {
    id: 'ORDER-04',
    level: 'MUST',
    title:
      'MUST refuse an order missing any other required field with 422 validation_failed and an errors[] entry',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Unknown fields and missing required fields give 422 validation_failed.',
    },
  },
  {
    id: 'ORDER-05',
    level: 'MUST',
    title:
      'MUST refuse an order with an unknown field with 422 validation_failed and an errors[] entry',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Unknown fields and missing required fields give 422 validation_failed.',
    },
  },
  {
    id: 'ORDER-06',
    level: 'MUST',
    title:
      "MUST refuse a SKU not on the account's product list with 422 validation_failed and an errors[] entry",
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: [
        "Every SKU must be on the account's product list.",
        'Breaking any rule gives 422 validation_failed.',
      ],
    },
  },
  {
    id: 'ORDER-07',
    level: 'MUST',
    title:
      "MUST refuse a quantity under the product's minimum with 422 validation_failed and an errors[] entry",
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: [
        "Each quantity must meet the product's minimum.",
        'Breaking any rule gives 422 validation_failed.',
      ],
    },
  },
  {
    id: 'ORDER-08',
    level: 'MUST',
    title:
      'MUST refuse a shipping address outside the US with 422 validation_failed and an errors[] entry',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: ['The address must be in the US.', 'Breaking any rule gives 422 validation_failed.'],
    },
  },
  {
    id: 'ORDER-09',
    level: 'MUST',
    title: 'MUST refuse a freight-shipped product with 422 validation_failed and an errors[] entry',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'Freight-shipped products are refused.',
        'Breaking any rule gives 422 validation_failed.',
      ],
    },
  },
  {
    id: 'ORDER-10',
    level: 'MUST',
    title:
      "MUST refuse an order over the account's maximum order value with 422 validation_failed naming the limit",
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: [
        "The order must not exceed the account's maximum order value or maximum orders per day.",
        'Breaking any rule gives 422 validation_failed.',
      ],
    },
  },
  {
    id: 'ORDER-11',
    level: 'MUST',
    title: "MUST accept an order whose total equals the account's maximum order value",
    section: '4',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '4',
      quote:
        "The order must not exceed the account's maximum order value or maximum orders per day.",
    },
  },
  {
    id: 'ORDER-12',
    level: 'MUST',
    title:
      'MUST refuse the order beyond the maximum orders per day with 422 validation_failed naming the limit',
    section: '4',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '4',
      quote: [
        "The order must not exceed the account's maximum order value or maximum orders per day.",
        'Breaking any rule gives 422 validation_failed.',
      ],
    },
  },
  {
    id: 'ORDER-13',
    level: 'MUST',
    title: 'MUST count cancelled orders toward the maximum orders per day',
    section: '4',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '4',
      quote:
        "The order must not exceed the account's maximum order value or maximum orders per day.",
      reading: 'Cancelled orders still count toward orders per day and probation.',
    },
  },
  {
    id: 'ORDER-14',
    level: 'MUST',
    title:
      "MUST count orders per day per mode: live orders leave the test mode's allowance untouched",
    section: '4',
    needs: ['accounts', 'keys', 'live_orders'],
    source: {
      doc: 'api',
      section: '4',
      quote:
        "The order must not exceed the account's maximum order value or maximum orders per day.",
      reading: 'Orders per day count per mode; probation counts per live key.',
    },
  },
  {
    id: 'ORDER-15',
    level: 'DIALECT',
    title: "DIALECT count orders per day by the UTC calendar day of the account's clock",
    section: 'C2',
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'contract',
      section: '2',
      quote: "day for orders-per-day | the UTC calendar day of the account's clock",
    },
  },
  {
    id: 'ORDER-16',
    level: 'MUST',
    title: 'MUST accept valid orders of any shape (generated items, quantities and US addresses)',
    section: '4',
    source: { doc: 'api', section: '4', quote: 'POST | /orders | orders:write | Place an order.' },
  },
  {
    id: 'ORDER-17',
    level: 'MUST',
    title:
      'MUST refuse any order breaking exactly one rule with 422 validation_failed and an errors[] entry',
    section: '4',
    source: { doc: 'api', section: '4', quote: 'Breaking any rule gives 422 validation_failed.' },
  },
  {
    id: 'ORDER-18',
    level: 'DIALECT',
    title: 'DIALECT point each field error at the field with a JSON Pointer into the request body',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'errors[] entries | {detail, pointer}; pointer is a JSON Pointer (RFC 6901) into the request body',
    },
  },
  {
    id: 'ORDER-19',
    level: 'MUST',
    title:
      'MUST refuse a second order with a used external_id with 409 duplicate_external_id, placing nothing; another account may use it',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote:
        'A second order with an external_id already used in the account gives 409 duplicate_external_id.',
    },
  },
  {
    id: 'ORDER-20',
    level: 'MUST',
    title: 'MUST answer GET /orders/by-external-id/{external_id} with the existing order',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'The existing order is fetched with GET /orders/by-external-id/{external_id}.',
    },
  },
  {
    id: 'ORDER-21',
    level: 'SHOULD',
    title: 'SHOULD refuse fields the client may not set (id, status, total) in an order body',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Unknown fields and missing required fields give 422 validation_failed.',
    },
  },
  {
    id: 'ORDER-22',
    level: 'DIALECT',
    title: 'DIALECT answer a first successful creation with 201 and the order',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'first creation | 201 with the order; replay 200 with the same order and Idempotent-Replayed: true',
    },
  },
  {
    id: 'ORDER-23',
    level: 'DIALECT',
    title: 'DIALECT answer orders in the reference shape, status received, livemode of the key',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'order | {id, external_id, status, items, total, shipping_address, created_at, cancellable_until, livemode}; status one of received, in_production, shipped, cancelled',
    },
  },
  {
    id: 'ORDER-24',
    level: 'DIALECT',
    title: 'DIALECT total an order at the sum of unit price times quantity, in USD cents',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote: [
        'Money is an object {"amount": <integer cents>, "currency": "USD"}.',
        'the reference charges no shipping, so its subtotal equals its total.',
      ],
    },
  },
  {
    id: 'ORDER-25',
    level: 'DIALECT',
    title:
      'DIALECT accept external_id of 1 to 64 characters and 1 to 100 items, and refuse beyond with 422',
    section: 'C2',
    source: { doc: 'contract', section: '2', quote: 'external_id 1..64 characters; 1..100 items' },
  },
  {
    id: 'ORDER-26',
    level: 'MUST',
    title:
      'MUST point a field error at its field: the errors[] entry names the missing, unknown or refused field',
    section: '2',
    source: {
      doc: 'api',
      section: '2',
      quote: 'Each has detail. Field errors also carry a pointer to the field.',
    },
  },
  {
    id: 'ORDER-27',
    level: 'MUST',
    title:
      'MUST refuse a body not sent as JSON with 415 unsupported_media_type on POST /quotes and on webhook endpoint creation',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Bodies are JSON (Content-Type: application/json) except the token request.',
    },
  },
  {
    id: 'ORDER-28',
    level: 'MUST',
    title:
      "MUST give the orders-per-day allowance back on a new day: a day's last order allowed, then another 48 hours later",
    section: '4',
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '4',
      quote:
        "The order must not exceed the account's maximum order value or maximum orders per day.",
    },
  },
]);
