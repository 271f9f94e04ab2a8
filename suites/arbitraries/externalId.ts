// The en_US entry point loads one locale; the package root loads them all (~30 MB a worker).
import { faker } from '@faker-js/faker/locale/en_US';
import fc from 'fast-check';

/** How shops number their orders. */
const STYLES = ['shop-name', 'hash-number', 'prefixed', 'uuid', 'dotted'] as const;

/**
 * A realistic `external_id` stem as stores write them ("#1042", "SO-2024-00917",
 * a UUID, ...). External ids are unique per account for ever (section 4), so a
 * check makes it unique with `uniqueExternalId(stem)` before sending it.
 */
export const externalId: fc.Arbitrary<string> = fc
  .record({ seed: fc.integer({ min: 0, max: 0x7fffffff }), style: fc.constantFrom(...STYLES) })
  .map(({ seed, style }) => {
    faker.seed(seed);
    switch (style) {
      case 'shop-name':
        return `${faker.company.buzzNoun().replace(/\W+/g, '-')}-${faker.string.numeric(5)}`;
      case 'hash-number':
        return `#${faker.number.int({ min: 1000, max: 999_999 })}`;
      case 'prefixed':
        return `SO-${faker.date.past().getUTCFullYear()}-${faker.string.numeric(5)}`;
      case 'uuid':
        return faker.string.uuid();
      default:
        return `${faker.string.alpha({ length: 3, casing: 'upper' })}.${faker.string.alphanumeric(8)}`;
    }
  });
