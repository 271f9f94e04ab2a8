import { isDeepStrictEqual } from 'node:util';
import { orderBodyOf } from '../../check/order-body.js';
import { valueAt } from '../../evidence/json-pointer.js';
import { pathOf } from '../../target/dialect.js';
import { memberOf, totalOf } from '../infer.js';
import { orderBodyFields } from '../infer-body.js';
import { fitBody, shapeOf } from './fit-body.js';
import { ADDRESS, orStart, type Steps } from './shared.js';

/** A quote of the order's lines and address: its body fitted to the 422s, its id and total. */
export async function quote(s: Steps, orderBody: Record<string, unknown>): Promise<void> {
  const { d, session, token, draft } = s;
  const { external_id: _, ...start } = orderBody;
  const [line] = (valueAt(orderBody, d.orderBody.items) as { sku?: unknown }[] | undefined) ?? [];
  const sku = valueAt(line, d.orderBody.sku);
  const quantity = valueAt(line, d.orderBody.quantity);
  const fitted = await fitBody(s, 'dialect.quoteBody', orderBodyFields(d.quoteBody), (fitting) =>
    session.send(
      {
        method: d.operations.quoteCreate.method,
        path: pathOf(d, 'quotes'),
        json: isDeepStrictEqual(shapeOf(fitting, d.quoteBody), d.orderBody)
          ? start
          : (() => {
              const { external_id: __, ...body } = orderBodyOf(shapeOf(fitting, d.quoteBody), {
                externalId: 'x',
                items: [{ sku: String(sku), quantity: Number(quantity) }],
                address: ADDRESS,
              });
              return body;
            })(),
      },
      token,
    ),
  );
  if ('todo' in fitted) {
    if (!fitted.res || s.answered('quotes', fitted.res)) draft.todos.push(fitted.todo);
    return;
  }
  const { res, fitting } = fitted;
  if (!s.answered('quotes', res)) return;
  if (res.status < 200 || res.status >= 300) {
    draft.todos.push(`dialect.quoteBody, answers.quote: ${res.request} answered ${res.status}`);
    return;
  }
  d.quoteBody = shapeOf(fitting, d.quoteBody);
  d.operations.quoteCreate = { ...d.operations.quoteCreate, status: res.status };
  s.got('quoteBody', 'operations.quoteCreate.status');
  const id = orStart(
    memberOf(
      res.json,
      /^(id|[a-z]+_id|[a-z]+Id|ref|reference)$/,
      (v) => typeof v === 'string' || typeof v === 'number',
      'dialect.answers.quote.id',
    ),
    res.json,
    d.answers.quote.id,
  );
  if ('todo' in id) draft.todos.push(id.todo);
  else {
    d.answers.quote.id = id.value;
    s.got('answers.quote.id');
    const read = await session.send(
      {
        method: d.operations.quoteRead.method,
        path: pathOf(d, 'quote', { id: String(valueAt(res.json, id.value)) }),
      },
      token,
    );
    if (s.answered('quote', read)) s.got('operations.quoteRead.status');
  }
  const total = orStart(totalOf(res.json, 'dialect.totals.quote'), res.json, d.totals.quote);
  if ('todo' in total) draft.todos.push(total.todo);
  else {
    d.totals.quote = total.value;
    s.got('totals.quote');
  }
}
