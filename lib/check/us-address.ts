import type { Faker } from '@faker-js/faker';

/** A shipping address in the reference shape (target contract, section 2). */
export interface UsAddress {
  name: string;
  line1: string;
  line2?: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}

/**
 * A realistic US address from faker (the API document, section 4, rule 3:
 * orders ship to the United States only). `faker` carries the run's seed,
 * so `--seed` replays the same addresses.
 */
export function usAddress(faker: Faker): UsAddress {
  return {
    name: faker.person.fullName(),
    line1: faker.location.streetAddress(),
    city: faker.location.city(),
    state: faker.location.state({ abbreviated: true }),
    postal_code: faker.location.zipCode('#####'),
    country: 'US',
  };
}
