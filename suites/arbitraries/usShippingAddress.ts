// The en_US entry point loads one locale; the package root loads them all (~30 MB a worker).
import { faker } from '@faker-js/faker/locale/en_US';
import fc from 'fast-check';
import type { UsAddress } from '../../lib/check/index.js';

/**
 * A US shipping address in the reference shape (contract section 2), with
 * realistic values from faker: with and without `line2`, five-digit ZIP and
 * ZIP+4 codes. Derived from an integer seed so that shrinking and `--seed`
 * replay are exact.
 */
export const usShippingAddress: fc.Arbitrary<UsAddress> = fc
  .record({
    seed: fc.integer({ min: 0, max: 0x7fffffff }),
    withLine2: fc.boolean(),
    zipPlus4: fc.boolean(),
  })
  .map(({ seed, withLine2, zipPlus4 }) => {
    faker.seed(seed);
    return {
      name: faker.person.fullName(),
      line1: faker.location.streetAddress(),
      ...(withLine2 ? { line2: faker.location.secondaryAddress() } : {}),
      city: faker.location.city(),
      state: faker.location.state({ abbreviated: true }),
      postal_code: faker.location.zipCode(zipPlus4 ? '#####-####' : '#####'),
      country: 'US',
    };
  });
