import type { Faker } from '@faker-js/faker';

/**
 * A faker of the same locale as `faker`, with a random state of its own:
 * for work in flight beside other work (a property's lanes, checks running
 * side by side), which must not reseed or draw from one shared instance.
 * Seeded alike, it draws the same values as `faker` would.
 */
export function fakerLike(faker: Faker): Faker {
  const FakerClass = faker.constructor as new (options: {
    locale: Faker['rawDefinitions'];
  }) => Faker;
  return new FakerClass({ locale: faker.rawDefinitions });
}
