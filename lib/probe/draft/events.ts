import { valueAt } from '../../evidence/json-pointer.js';
import { pathOf } from '../../target/dialect.js';
import { envelopeOf, memberOf, members } from '../infer.js';
import type { Answer } from '../probe-session.js';
import { orStart, type Steps } from './shared.js';

/**
 * The kind of the newest event about the order, other than `not`: read from
 * the event list after the order was placed (orderCreated) and after it was
 * cancelled (orderCancelled). Answers the kind found.
 */
export async function eventKind(
  s: Steps,
  orderId: string,
  not: string | undefined,
): Promise<string | undefined> {
  const { d, draft } = s;
  const kind = not === undefined ? 'orderCreated' : 'orderCancelled';
  const res = await readEvents(s);
  const items = valueAt(res.json, d.list.items);
  if (res.status < 200 || res.status >= 300 || !Array.isArray(items)) {
    draft.todos.push(
      `dialect.eventKinds.${kind}: ${res.request} answered ${res.status}${Array.isArray(items) ? '' : ` without a list at ${d.list.items}`}`,
    );
    return undefined;
  }
  const about = items.filter((event) => JSON.stringify(event).includes(JSON.stringify(orderId)));
  const types = typesOf(s, about);
  const fresh = [...types].filter((t) => t !== not);
  if (fresh.length === 1 && fresh[0] !== undefined) {
    d.eventKinds[kind] = fresh[0];
    s.got(`eventKinds.${kind}`);
    return fresh[0];
  }
  draft.todos.push(
    `dialect.eventKinds.${kind}: the event list shows ${fresh.length === 0 ? 'no new event' : `several new kinds (${fresh.join(', ')})`} about the probe's order`,
  );
  return undefined;
}

/**
 * The event list, read with the profile's method or else the other usual one
 * (POST). Marks what it shows inferred: the method, the status, and the list
 * envelope when none was seen yet (so that its items can be read).
 */
async function readEvents(s: Steps): Promise<Answer> {
  const { d, session, token, draft } = s;
  let res = await session.send(
    { method: d.operations.eventList.method, path: pathOf(d, 'events') },
    token,
  );
  // The document leaves the method open (section 4): the other usual one.
  if ((res.status === 404 || res.status === 405) && d.operations.eventList.method === 'GET') {
    const other = await session.send({ method: 'POST', path: pathOf(d, 'events') }, token);
    if (other.status >= 200 && other.status < 300) {
      res = other;
      d.operations.eventList = { ...d.operations.eventList, method: 'POST' };
      s.got('operations.eventList.method');
    }
  }
  if (res.status >= 200 && res.status < 300 && d.operations.eventList.status === res.status)
    s.got('operations.eventList.status');
  // No envelope seen yet (the catalog was elsewhere): the event list shows it.
  if (
    res.status >= 200 &&
    res.status < 300 &&
    !Array.isArray(valueAt(res.json, d.list.items)) &&
    !draft.inferred.includes('list.items')
  ) {
    const envelope = envelopeOf(res.json);
    const arrays = members(res.json, 1).filter(([, v]) => Array.isArray(v));
    if ('value' in envelope) {
      d.list = { ...d.list, ...envelope.value };
      s.got('list.items', 'list.hasMore', 'list.nextCursor');
    } else if (arrays.length === 1 && arrays[0]) {
      // The items at least, to read the events; the paging stays a TODO.
      d.list = { ...d.list, items: arrays[0][0] };
      s.got('list.items');
    }
  }
  return res;
}

/**
 * The kinds the order's events show; on the way, where an event shows its
 * kind and id (answers.event.type, answers.event.id).
 */
function typesOf(s: Steps, about: unknown[]): Set<string> {
  const { d } = s;
  const types = new Set<string>();
  for (const event of about) {
    const type = orStart(
      memberOf(
        event,
        /^(type|kind|topic|event|event_type|name)$/i,
        (v) => typeof v === 'string',
        'dialect.answers.event.type',
      ),
      event,
      d.answers.event.type,
    );
    if ('value' in type) {
      d.answers.event.type = type.value;
      s.got('answers.event.type');
      types.add(String(valueAt(event, type.value)));
    }
    const id = orStart(
      memberOf(
        event,
        /^(id|[a-z]+_id|uid|uuid)$/,
        (v) => typeof v === 'string',
        'dialect.answers.event.id',
      ),
      event,
      d.answers.event.id,
    );
    if ('value' in id) {
      d.answers.event.id = id.value;
      s.got('answers.event.id');
    }
  }
  return types;
}
