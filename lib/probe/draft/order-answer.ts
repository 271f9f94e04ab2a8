import { valueAt } from '../../evidence/json-pointer.js';
import { type Inferred, memberOf, members, totalOf } from '../infer.js';
import { ADDRESS, orStart, type Steps } from './shared.js';

/** Where the order answer shows its id, state, total and lines. */
export function orderAnswer(
  s: Steps,
  order: unknown,
  line: { sku: string; quantity: number },
): void {
  const { d, draft } = s;
  const at = (
    field: string,
    guess: Inferred<string>,
    start: string,
    set: (pointer: string) => void,
  ) => {
    const found = orStart(guess, order, start);
    if ('todo' in found) draft.todos.push(found.todo);
    else {
      set(found.value);
      s.got(field);
    }
  };
  at(
    'answers.order.id',
    memberOf(
      order,
      // external_id is the document's own member, never the order's identifier.
      /^(?!external_id$)(id|[a-z]+_id|[a-z]+Id|ref|reference)$/,
      (v) => typeof v === 'string' || typeof v === 'number',
      'dialect.answers.order.id',
    ),
    d.answers.order.id,
    (p) => {
      d.answers.order.id = p;
    },
  );
  at('answers.order.status', statusOf(order), d.answers.order.status, (p) => {
    d.answers.order.status = p;
  });
  at('totals.order', totalOf(order, 'dialect.totals.order'), d.totals.order, (p) => {
    d.totals.order = p;
  });
  const total = valueAt(order, d.totals.order);
  if (total !== undefined)
    s.money.push({ place: 'totals', value: total, where: `the order answer at ${d.totals.order}` });
  const lines = linesOf(order, line);
  if ('todo' in lines) draft.todos.push(lines.todo);
  else {
    d.answers.order.lines = lines.value.lines;
    d.answers.order.lineSku = lines.value.sku;
    d.answers.order.lineQuantity = lines.value.quantity;
    s.got('answers.order.lines', 'answers.order.lineSku', 'answers.order.lineQuantity');
  }
  const state = valueAt(order, d.answers.order.status);
  if (typeof state === 'string') {
    d.orderStatuses.received = state;
    s.got('orderStatuses.received');
  }
}

/** The order's state: a string member named like one, at the top or one level down. */
function statusOf(order: unknown): Inferred<string> {
  // What the probe sent itself (the address's state) is not the order's state.
  const sent = new Set<unknown>(Object.values(ADDRESS));
  const strings = members(order, 2).filter(([, v]) => typeof v === 'string' && !sent.has(v));
  const exact = strings.filter(([p]) => /(^|\/)(status|state)$/i.test(p));
  if (exact.length === 1) return { value: (exact[0] as [string, unknown])[0] };
  const named = strings.filter(([p]) => /(status|state)$/i.test(p));
  if (named.length === 1) return { value: (named[0] as [string, unknown])[0] };
  return {
    todo: `dialect.answers.order.status: ${named.length === 0 ? 'no member of the answer looks like it' : `several members could be it (${named.map(([p]) => p).join(', ')})`}`,
  };
}

/**
 * The order answer's lines: the one array whose one entry shows the SKU and
 * the quantity the probe ordered, each at one member.
 */
function linesOf(
  order: unknown,
  line: { sku: string; quantity: number },
): Inferred<{ lines: string; sku: string; quantity: string }> {
  const arrays = members(order, 2).filter(
    ([, v]) => Array.isArray(v) && v.length === 1 && typeof v[0] === 'object' && v[0] !== null,
  );
  const fits = arrays.flatMap(([pointer, value]) => {
    const entry = (value as unknown[])[0];
    const skus = members(entry, 3).filter(([, v]) => v === line.sku);
    const quantities = members(entry, 3).filter(([, v]) => v === line.quantity);
    return skus.length === 1 && quantities.length === 1
      ? [
          {
            lines: pointer,
            sku: (skus[0] as [string, unknown])[0],
            quantity: (quantities[0] as [string, unknown])[0],
          },
        ]
      : [];
  });
  if (fits.length === 1 && fits[0]) return { value: fits[0] };
  return {
    todo: `dialect.answers.order.lines, lineSku, lineQuantity: ${fits.length === 0 ? 'no array of the order answer shows the line ordered (its SKU and quantity each once)' : `several arrays could be the lines (${fits.map((f) => f.lines).join(', ')})`}`,
  };
}
