import {
  BY_EXTERNAL_ID_PATH,
  type ClientExchange,
  isOrderPost,
  pathOf,
} from '../../sandbox/exchange.js';
import {
  answered,
  canonical,
  externalIdOf,
  idempotencyKeyOf,
  identityOf,
  isRecord,
  jsonOf,
} from '../../sandbox/facts.js';
import { broken, honoured, type Judge, named, notExercised } from '../judge.js';
import type { Traffic } from '../traffic.js';

/** Orders and their keys (API document sections 4 and 7). */

const orders = (traffic: Traffic) => traffic.all.filter(isOrderPost);

export const keyOnEveryOrder: Judge = {
  ruleId: 'CLIENT-12',
  occasions: orders,
  judge(ex) {
    const key = idempotencyKeyOf(ex);
    if (key === undefined) return broken(`${named(ex)} had no Idempotency-Key`, ex.id);
    if (key.length === 0) return broken(`${named(ex)} had an empty Idempotency-Key`, ex.id);
    if (key.length > 255)
      return broken(
        `${named(ex)} had an Idempotency-Key of ${key.length} characters (at most 255)`,
        ex.id,
      );
    return honoured(`${named(ex)} had an Idempotency-Key of ${key.length} characters`, ex.id);
  },
};

export const keyPerOrder: Judge = {
  ruleId: 'CLIENT-13',
  // A chance once there is another order to keep apart from: an order after one with another external_id.
  occasions: (traffic) =>
    orders(traffic).filter((ex) => {
      const id = externalIdOf(ex);
      return (
        id !== undefined &&
        idempotencyKeyOf(ex) !== undefined &&
        orders(traffic).some(
          (e) => e.id < ex.id && externalIdOf(e) !== undefined && externalIdOf(e) !== id,
        )
      );
    }),
  judge(ex, traffic) {
    const key = idempotencyKeyOf(ex);
    const id = externalIdOf(ex);
    const other = orders(traffic).find(
      (e) =>
        e.id < ex.id &&
        idempotencyKeyOf(e) === key &&
        externalIdOf(e) !== undefined &&
        externalIdOf(e) !== id,
    );
    if (other)
      return broken(
        `${named(ex)} (external_id ${JSON.stringify(id)}) reused the Idempotency-Key of ${named(other)} (external_id ${JSON.stringify(externalIdOf(other))})`,
        ex.id,
        other.id,
      );
    return honoured(`${named(ex)} had an Idempotency-Key no other order had`, ex.id);
  },
};

export const newKeyAfterConflict: Judge = {
  ruleId: 'CLIENT-14',
  reacts: true,
  occasions: (traffic) => orders(traffic).filter((ex) => answered(ex, 409, 'idempotency_conflict')),
  judge(ex, traffic) {
    const body = canonical(ex.requestBody);
    const key = idempotencyKeyOf(ex);
    const again = traffic
      .after(ex)
      .find((e) => isOrderPost(e) && canonical(e.requestBody) === body);
    if (!again)
      return notExercised(
        `after 409 idempotency_conflict on ${named(ex)} that order was not sent again`,
        ex.id,
      );
    if (idempotencyKeyOf(again) === key)
      return broken(
        `after 409 idempotency_conflict on ${named(ex)}, ${named(again)} sent the same order with the same key`,
        ex.id,
        again.id,
      );
    return honoured(
      `after 409 idempotency_conflict on ${named(ex)}, ${named(again)} sent the order with a new key`,
      ex.id,
      again.id,
    );
  },
};

/** The first later order that is this one sent again (its external_id, or its body). */
function sentAgain(ex: ClientExchange, traffic: Traffic): ClientExchange | undefined {
  const identity = identityOf(ex);
  return traffic.after(ex).find((e) => isOrderPost(e) && identityOf(e) === identity);
}

export const sameKeyAfter500: Judge = {
  ruleId: 'CLIENT-15',
  reacts: true,
  occasions: (traffic) => orders(traffic).filter((ex) => answered(ex, 500, 'internal_error')),
  judge(ex, traffic) {
    const retry = sentAgain(ex, traffic);
    if (!retry)
      return broken(
        `after 500 internal_error on ${named(ex)} the order was never sent again`,
        ex.id,
      );
    if (idempotencyKeyOf(retry) !== idempotencyKeyOf(ex))
      return broken(
        `after 500 internal_error on ${named(ex)}, ${named(retry)} sent the order again with a new Idempotency-Key (it could be placed twice)`,
        ex.id,
        retry.id,
      );
    return honoured(
      `after 500 internal_error on ${named(ex)}, ${named(retry)} sent it again with the same Idempotency-Key`,
      ex.id,
      retry.id,
    );
  },
};

export const newKeyAfter402: Judge = {
  ruleId: 'CLIENT-16',
  reacts: true,
  occasions: (traffic) => orders(traffic).filter((ex) => ex.status === 402),
  judge(ex, traffic) {
    const retry = sentAgain(ex, traffic);
    if (!retry)
      return notExercised(
        `after the 402 on ${named(ex)} the order was not sent again (the remedy waits for a person to update the card)`,
        ex.id,
      );
    if (idempotencyKeyOf(retry) === idempotencyKeyOf(ex))
      return broken(
        `after the 402 on ${named(ex)}, ${named(retry)} sent the order again with the same Idempotency-Key`,
        ex.id,
        retry.id,
      );
    return honoured(
      `after the 402 on ${named(ex)}, ${named(retry)} sent the order again with a new Idempotency-Key`,
      ex.id,
      retry.id,
    );
  },
};

export const fetchAfterDuplicate: Judge = {
  ruleId: 'CLIENT-17',
  reacts: true,
  occasions: (traffic) =>
    orders(traffic).filter((ex) => answered(ex, 409, 'duplicate_external_id')),
  judge(ex, traffic) {
    const id = externalIdOf(ex);
    const fetch = traffic
      .after(ex)
      .find(
        (e) =>
          e.method === 'GET' &&
          id !== undefined &&
          pathOf(e.url).startsWith(BY_EXTERNAL_ID_PATH) &&
          safeDecode(pathOf(e.url).slice(BY_EXTERNAL_ID_PATH.length)) === id,
      );
    if (fetch)
      return honoured(
        `after 409 duplicate_external_id on ${named(ex)}, ${named(fetch)} fetched the order by its external id`,
        ex.id,
        fetch.id,
      );
    return broken(
      `after 409 duplicate_external_id on ${named(ex)} the client never fetched GET /orders/by-external-id/${id ?? '…'}`,
      ex.id,
    );
  },
};

export const externalIdOnEveryOrder: Judge = {
  ruleId: 'CLIENT-22',
  occasions: orders,
  judge(ex, traffic) {
    const body = jsonOf(ex.requestBody);
    const id = externalIdOf(ex);
    if (!isRecord(body) || id === undefined)
      return broken(`${named(ex)} had no external_id in its body`, ex.id);
    const placed = orders(traffic).find(
      (e) =>
        e.id < ex.id &&
        externalIdOf(e) === id &&
        e.status !== undefined &&
        e.status >= 200 &&
        e.status < 300 &&
        canonical(e.requestBody) !== canonical(ex.requestBody),
    );
    if (placed)
      return broken(
        `${named(ex)} used external_id ${JSON.stringify(id)} of the order ${named(placed)} placed, for a different order`,
        ex.id,
        placed.id,
      );
    return honoured(`${named(ex)} had external_id ${JSON.stringify(id)}`, ex.id);
  },
};

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
