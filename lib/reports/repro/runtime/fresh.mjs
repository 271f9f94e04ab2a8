// Values a replay makes up, in the shape of the run's: the client's own (an Idempotency-Key, an
// external_id), fresh on every replay, and credentials the check made up on purpose (a forged
// token, a wrong secret). Both forms of a reproduction make them here.
import { randomInt, randomUUID } from 'node:crypto';

/** A value made by the client in the run (an Idempotency-Key, an external_id): fresh, same shape. */
export function fresh(shape) {
  if (
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(shape.replace(/0/g, 'a'))
  )
    return randomUUID();
  return shape.replace(/0/g, () => String(randomInt(10)));
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A credential the check made up (a forged token), made up again in the same shape. */
export function madeUp(prefix, shape) {
  return (
    prefix +
    shape.replace(/[aA0]/g, (c) =>
      c === '0'
        ? String(randomInt(10))
        : c === 'a'
          ? LETTERS[randomInt(26)]
          : LETTERS[randomInt(26)].toUpperCase(),
    )
  );
}
