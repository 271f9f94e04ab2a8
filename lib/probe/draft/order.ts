import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { cheapestLine, orderBodyOf } from '../../check/order-body.js';
import type { Product } from '../../control/types.js';
import { valueAt } from '../../evidence/json-pointer.js';
import { pathOf } from '../../target/dialect.js';
import { orderBodyFields } from '../infer-body.js';
import { decideErrorsForm } from './errors-form.js';
import { fitBody, shapeOf } from './fit-body.js';
import { orderAnswer } from './order-answer.js';
import { ADDRESS, get, type Steps } from './shared.js';

/**
 * The probe's order: the starting profile's shape (test keys only), its body
 * fitted to the 422s, then its answer read and the errors[] form decided.
 * Answers its id, external id and body when one was placed.
 */
export async function placeOrder(
  s: Steps,
  products: readonly Product[],
  mode: 'test' | 'live',
): Promise<{ id: string; externalId: string; body: Record<string, unknown> } | undefined> {
  const { d, session, token, draft } = s;
  if (mode !== 'test') {
    draft.todos.push(
      'dialect.orderBody, orderCreatedStatus, totals.order, answers.order: the key is a live key, so no order was placed',
    );
    return undefined;
  }
  let line: ReturnType<typeof cheapestLine>;
  try {
    line = cheapestLine(products);
  } catch {
    draft.todos.push(
      'dialect.orderBody and the order answers: no product to order was found (catalog read where the profile says)',
    );
    return undefined;
  }
  let externalId = '';
  let body: Record<string, unknown> = {};
  const fitted = await fitBody(s, 'dialect.orderBody', orderBodyFields(d.orderBody), (fitting) => {
    externalId = `draft-${randomUUID()}`;
    body = orderBodyOf(shapeOf(fitting, d.orderBody), {
      externalId,
      items: [line],
      address: ADDRESS,
    }) as Record<string, unknown>;
    return session.send(
      {
        method: d.operations.orderCreate.method,
        path: pathOf(d, 'orders'),
        json: body,
        headers: { 'idempotency-key': `ct-draft-${randomUUID()}` },
      },
      token,
    );
  });
  if ('todo' in fitted) {
    if (fitted.res && !s.answered('orders', fitted.res)) return undefined;
    draft.todos.push(fitted.todo);
    return undefined;
  }
  const { res, fitting } = fitted;
  if (!s.answered('orders', res)) return undefined;
  if (res.status < 200 || res.status >= 300 || res.status === 204) {
    // A 204 shows no order, and a profile cannot say 204 for it (the checks read the answer).
    draft.todos.push(
      `dialect.orderBody and the order answers: ${res.request} answered ${res.status}, so they were not seen`,
    );
    return undefined;
  }
  // A quote body that was the order body's stays so (the quote's own fitting starts there).
  const quoteFollows = isDeepStrictEqual(d.quoteBody, d.orderBody);
  d.orderBody = shapeOf(fitting, d.orderBody);
  if (quoteFollows) d.quoteBody = structuredClone(d.orderBody);
  s.got('orderBody', 'orderCreatedStatus', 'operations.orderCreate.status');
  d.operations.orderCreate = { ...d.operations.orderCreate, status: res.status };
  if (!draft.inferred.includes('errors.form')) await decideErrorsForm(s, line);
  const order = res.json;
  orderAnswer(s, order, line);
  const id = valueAt(order, d.answers.order.id);
  return typeof id === 'string' || typeof id === 'number'
    ? {
        id: String(id),
        externalId,
        body,
      }
    : undefined;
}

/** The probe's order read back by its external id and by its id. */
export async function readOrderBack(
  s: Steps,
  placed: { id: string; externalId: string },
): Promise<void> {
  if (
    s.answered(
      'orderByExternalId',
      await get(s, 'orderByExternalId', { external_id: placed.externalId }),
    )
  )
    s.got('operations.orderByExternalId.status');
  if (s.answered('order', await get(s, 'order', { id: placed.id })))
    s.got('operations.orderRead.status');
}
