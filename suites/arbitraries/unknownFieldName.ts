// The en_US entry point loads one locale; the package root loads them all (~30 MB a worker).
import { faker } from '@faker-js/faker/locale/en_US';
import fc from 'fast-check';

/** Every field the reference order body knows, at any level (contract section 2). */
const KNOWN = new Set([
  'external_id',
  'items',
  'shipping_address',
  'sku',
  'quantity',
  'name',
  'line1',
  'line2',
  'city',
  'state',
  'postal_code',
  'country',
]);

/**
 * A field name no order body knows (section 4: unknown fields give 422), in
 * the snake_case a client might plausibly send: "gift_message", "coupon_code",
 * "priority". Derived from an integer seed for exact shrinking and replay.
 */
export const unknownFieldName: fc.Arbitrary<string> = fc
  .record({ seed: fc.integer({ min: 0, max: 0x7fffffff }), words: fc.integer({ min: 1, max: 3 }) })
  .map(({ seed, words }) => {
    faker.seed(seed);
    for (;;) {
      const name = Array.from({ length: words }, () => faker.word.noun())
        .join('_')
        .toLowerCase()
        .replace(/[^a-z_]/g, '');
      if (name && !KNOWN.has(name)) return name;
      words = 1;
    }
  });
