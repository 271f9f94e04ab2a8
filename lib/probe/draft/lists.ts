import { type OperationName, type PathName, pathOf } from '../../target/dialect.js';
import { get, METHOD_OPEN, type Steps } from './shared.js';

/** The order list (one order long), and the lists whose method the document leaves open. */
export async function lists(s: Steps): Promise<void> {
  const { d, session, token } = s;
  if (s.answered('orders', await get(s, 'orders', undefined, { [d.list.limitParam]: '1' })))
    s.got('operations.orderList.status');
  // Lists whose method the document leaves open: the starting profile's method.
  for (const [name, op] of Object.entries(METHOD_OPEN) as [PathName, OperationName][])
    if (
      s.answered(
        name,
        await session.send({ method: d.operations[op].method, path: pathOf(d, name) }, token),
      )
    )
      s.got(`operations.${op}`);
}
