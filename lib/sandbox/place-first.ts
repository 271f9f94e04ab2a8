import { randomUUID } from 'node:crypto';
import type { Key } from '../client/types.js';
import { HarnessError } from '../violations/harness-error.js';
import type { OwnRequest } from './answers.js';
import { type ClientExchange, ORDERS_PATH, TOKEN_PATH } from './exchange.js';
import { codeOf, isRecord, jsonOf } from './facts.js';

/**
 * The duplicate situation: the client's order is placed first with the
 * layer's own key (in the client's account), so that the client's own
 * request meets an order with its external_id. False when that could not be
 * done: the request then goes on as it came, and the situation waits for the
 * next new order. Says what it did in the exchange's notes.
 */
export async function placeFirst(
  own: OwnRequest,
  key: Key | undefined,
  ex: ClientExchange,
): Promise<boolean> {
  if (!key) throw new HarnessError('HARNESS_SETUP', 'the layer has no key of its own');
  const basic = Buffer.from(`${key.accessKeyId}:${key.secretKey}`).toString('base64');
  const token = await own({
    method: 'POST',
    path: TOKEN_PATH,
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const tokenBody = jsonOf(token.body);
  const accessToken = isRecord(tokenBody) ? tokenBody.access_token : undefined;
  if (typeof accessToken !== 'string') {
    throw new HarnessError('HARNESS_SETUP', `the layer's own token request got ${token.status}`);
  }
  const placed = await own({
    method: 'POST',
    path: ORDERS_PATH,
    headers: {
      authorization: `Bearer ${accessToken}`,
      'content-type': 'application/json',
      'idempotency-key': `sandbox-${randomUUID()}`,
    },
    body: ex.requestBody ?? '',
  });
  if (placed.status < 200 || placed.status >= 300) {
    const code = codeOf({ responseBody: placed.body });
    ex.notes.push(
      `the sandbox could not place this order first (${placed.status}${code ? ` ${code}` : ''}); the duplicate waits for another new order`,
    );
    return false;
  }
  const order = jsonOf(placed.body);
  const id = isRecord(order) && typeof order.id === 'string' ? ` ${order.id}` : '';
  ex.notes.push(`the sandbox placed this order${id} first, with a key of its own (situation)`);
  return true;
}
