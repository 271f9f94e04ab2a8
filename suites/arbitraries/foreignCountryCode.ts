// The en_US entry point loads one locale; the package root loads them all (~30 MB a worker).
import { faker } from '@faker-js/faker/locale/en_US';
import fc from 'fast-check';

/**
 * ISO 3166-1 codes that are, or may be read as, the US: the US itself and
 * its territories with codes of their own. An order rule check breaks one
 * rule only, so these never stand for "outside the US".
 */
const US_OR_TERRITORY = new Set(['US', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM']);

/**
 * A country an order may not ship to (section 4, rule 3): an ISO 3166-1
 * alpha-2 code from faker, never the US or a US territory. Derived from an
 * integer seed so that shrinking and `--seed` replay are exact.
 */
export const foreignCountryCode: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 0x7fffffff })
  .map((seed) => {
    faker.seed(seed);
    for (;;) {
      const code = faker.location.countryCode('alpha-2');
      if (!US_OR_TERRITORY.has(code)) return code;
    }
  });
