import { randomUUID } from 'node:crypto';
import { cheapestLine, orderBodyOf } from '../../check/order-body.js';
import type { Product } from '../../control/types.js';
import { valueAt } from '../../evidence/json-pointer.js';
import { pathOf, pathTemplate } from '../../target/dialect.js';
import { ADDRESS, type Steps } from './shared.js';

/** The shipments of the probe's order: the profile's path, else the common ones beside the order's. */
export async function shipmentsPath(s: Steps, orderId: string): Promise<void> {
  const { d, session, token } = s;
  const orderPath = pathTemplate(d, 'order');
  const tried = new Set<string>();
  for (const template of [
    d.paths.shipments,
    `${orderPath}/shipments`,
    '/shipments?order_id={id}',
    '/shipments?order={id}',
    `${orderPath}/deliveries`,
    `${orderPath}/fulfillments`,
  ]) {
    if (tried.has(template)) continue;
    tried.add(template);
    const res = await session.send(
      { method: 'GET', path: template.replaceAll('{id}', encodeURIComponent(orderId)) },
      token,
    );
    if (res.status === 404 || res.status === 405) continue;
    if (res.status >= 200 && res.status < 300 && Array.isArray(valueAt(res.json, d.list.items))) {
      d.paths.shipments = template;
      s.draft.answered.push('shipments');
      s.got('paths.shipments', 'operations.shipments.status');
      return;
    }
  }
  s.draft.missing.push('shipments');
  s.draft.todos.push(
    `dialect.paths.shipments: none of ${[...tried].join(', ')} answered a list for the probe's order: write the target's path`,
  );
}

/** Cancels the probe's order: the cancel's status, and the state it shows after. */
export async function cancel(s: Steps, orderId: string): Promise<boolean> {
  const { d, session, token, draft } = s;
  const res = await session.send(
    { method: d.operations.orderCancel.method, path: pathOf(d, 'orderCancel', { id: orderId }) },
    token,
  );
  if (!s.answered('orderCancel', res)) return false;
  if (res.status < 200 || res.status >= 300) {
    draft.todos.push(
      `dialect.operations.orderCancel.status, orderStatuses.cancelled: ${res.request} answered ${res.status} to the cancel of the probe's fresh order`,
    );
    return false;
  }
  d.operations.orderCancel = { ...d.operations.orderCancel, status: res.status };
  s.got('operations.orderCancel.status');
  const read = await session.send(
    { method: d.operations.orderRead.method, path: pathOf(d, 'order', { id: orderId }) },
    token,
  );
  const state = valueAt(read.json, d.answers.order.status);
  if (typeof state === 'string' && state !== d.orderStatuses.received) {
    d.orderStatuses.cancelled = state;
    s.got('orderStatuses.cancelled');
  } else
    draft.todos.push(
      `dialect.orderStatuses.cancelled: after the cancel, ${read.request} shows ${JSON.stringify(state)} at ${d.answers.order.status}`,
    );
  return true;
}

/**
 * The states after `received` but `cancelled`: a second order of the fitted
 * shape, moved by the control API into production and shipped, read after
 * each move.
 */
export async function laterStates(
  s: Steps,
  key: { accountId?: string },
  products: readonly Product[],
): Promise<void> {
  const { d, session, token, draft } = s;
  const { capabilities } = session.config;
  if (
    key.accountId === undefined ||
    !capabilities.includes('production') ||
    !capabilities.includes('shipping')
  ) {
    draft.todos.push(
      'dialect.orderStatuses.inProduction, shipped: the control API does not move orders (capabilities production and shipping)',
    );
    return;
  }
  const res = await session.send(
    {
      method: d.operations.orderCreate.method,
      path: pathOf(d, 'orders'),
      json: orderBodyOf(d.orderBody, {
        externalId: `draft-${randomUUID()}`,
        items: [cheapestLine(products)],
        address: ADDRESS,
      }),
      headers: { 'idempotency-key': `ct-draft-${randomUUID()}` },
    },
    token,
  );
  const id = valueAt(res.json, d.answers.order.id);
  if (res.status < 200 || res.status >= 300 || typeof id !== 'string') {
    draft.todos.push(
      `dialect.orderStatuses.inProduction, shipped: a second order got ${res.status}, so the later states were not seen`,
    );
    return;
  }
  for (const [state, move] of [
    ['inProduction', () => session.control.startProduction(key.accountId as string, id)],
    ['shipped', () => session.control.ship(key.accountId as string, id)],
  ] as const) {
    await move();
    const read = await session.send(
      { method: d.operations.orderRead.method, path: pathOf(d, 'order', { id }) },
      token,
    );
    const name = valueAt(read.json, d.answers.order.status);
    if (typeof name === 'string' && !Object.values(d.orderStatuses).slice(0, 1).includes(name)) {
      d.orderStatuses[state] = name;
      s.got(`orderStatuses.${state}`);
    } else
      draft.todos.push(
        `dialect.orderStatuses.${state}: after the control API's move, ${read.request} shows ${JSON.stringify(name)} at ${d.answers.order.status}`,
      );
  }
}
