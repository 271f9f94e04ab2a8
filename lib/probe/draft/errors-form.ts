import { randomUUID } from 'node:crypto';
import { orderBodyOf } from '../../check/order-body.js';
import { valueAt } from '../../evidence/json-pointer.js';
import { pathOf } from '../../target/dialect.js';
import { errorsFormOf } from '../infer-body.js';
import { ADDRESS, type Steps } from './shared.js';

/**
 * An order under the product's minimum quantity (section 7: a 422 whose
 * errors[] point at the line's quantity): the pointer's form shows an index,
 * which tells `dot` from `bracket`. Nothing is placed unless the target takes
 * it, and then it is cancelled at once.
 */
export async function decideErrorsForm(
  s: Steps,
  line: { sku: string; quantity: number },
): Promise<void> {
  const { d, session, token } = s;
  const res = await session.send(
    {
      method: d.operations.orderCreate.method,
      path: pathOf(d, 'orders'),
      json: orderBodyOf(d.orderBody, {
        externalId: `draft-${randomUUID()}`,
        items: [{ sku: line.sku, quantity: 0 }],
        address: ADDRESS,
      }),
      headers: { 'idempotency-key': `ct-draft-${randomUUID()}` },
    },
    token,
  );
  if (res.status === 422) {
    const form = errorsFormOf(res.json, s.d.errors);
    if (form) {
      d.errors = form.value;
      s.got('errors.member');
      if (form.decided) s.got('errors.form');
    }
  } else if (res.status >= 200 && res.status < 300) {
    const id = valueAt(res.json, d.answers.order.id);
    if (typeof id === 'string')
      await session.send(
        { method: d.operations.orderCancel.method, path: pathOf(d, 'orderCancel', { id }) },
        token,
      );
  }
  if (!s.draft.inferred.includes('errors.form'))
    s.draft.todos.push(
      `dialect.errors.form: the errors[] pointers seen (${d.errors.member}) show no array index, so "dot" and "bracket" read alike; kept "${d.errors.form}"`,
    );
}
