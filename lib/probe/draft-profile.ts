import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { cheapestLine, orderBodyOf } from '../check/order-body.js';
import type { Product } from '../control/types.js';
import { type Dialect, pathOf } from '../target/dialect.js';
import { PROBE_ADDRESS, probeKey } from './dialect-probe.js';
import {
  accountFieldsOf,
  docsUrlOf,
  envelopeOf,
  type Inferred,
  keyPrefixOf,
  memberOf,
  moneyOf,
} from './infer.js';
import { errorPointers, fitsMoney, moneyFormatOf } from './judge.js';
import { valueAt } from './pointer.js';
import { type Answer, type ProbeConfig, ProbeSession } from './probe-session.js';
import { productsIn } from './products.js';

/**
 * Issue 11, point 4: a first profile from a live server. The target is
 * probed with the key or control API the run was given (the dialect probe's
 * way to a key), starting from the profile the run has (the reference
 * dialect by default). What the answers show is inferred; what they leave
 * open is a TODO, and keeps the starting profile's value.
 */
export interface Draft {
  /** The dialect as inferred: the starting one with every inferred value in place. */
  dialect: Dialect;
  /** Which dialect fields were inferred from an answer (`keyPrefix`, `list`, `accountFields.livemode`…). */
  inferred: string[];
  /** What could not be inferred, one sentence each, naming the profile field. */
  todos: string[];
  /** Paths that answered (not 404), and those that answered 404. */
  answered: string[];
  missing: string[];
  requests: number;
}

type PathName = keyof Dialect['paths'];

/** The list paths whose method the API document does not show (section 4), by their operation. */
const METHOD_OPEN: Partial<Record<PathName, keyof Dialect['operations']>> = {
  webhookEndpoints: 'webhookEndpointList',
  events: 'eventList',
};

export async function draftDialect(config: ProbeConfig, dispatcher?: Dispatcher): Promise<Draft> {
  const session = new ProbeSession(config, dispatcher);
  const dialect = structuredClone(config.dialect);
  const draft: Draft = { dialect, inferred: [], todos: [], answered: [], missing: [], requests: 0 };
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    await steps(session, draft, cleanups);
  } catch (error) {
    draft.todos.push(
      `the probe stopped early (${error instanceof Error ? error.message : String(error)}): what follows it was not inferred`,
    );
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    await session.close();
  }
  draft.requests = session.sent;
  const clean = (text: string) => session.redactor.redact(text);
  draft.todos = draft.todos.map(clean);
  return draft;
}

async function steps(
  session: ProbeSession,
  draft: Draft,
  cleanups: (() => Promise<unknown>)[],
): Promise<void> {
  const d = draft.dialect;
  const take = <T>(field: string, found: Inferred<T>, set: (value: T) => void): boolean => {
    if ('todo' in found) {
      draft.todos.push(found.todo);
      return false;
    }
    set(found.value);
    draft.inferred.push(field);
    return true;
  };
  const answered = (name: PathName, res: Answer): boolean => {
    const found = res.status !== 404 && res.status !== 405;
    const list = found ? draft.answered : draft.missing;
    if (!list.includes(name)) list.push(name);
    if (!found) {
      // Where the document leaves the method open, a 404 or 405 may be the method, not the path.
      const op = METHOD_OPEN[name];
      draft.todos.push(
        `dialect.paths.${name}: ${res.request} answered ${res.status}: write the target's path${op ? ` (or its method, dialect.operations.${op}.method)` : ''}`,
      );
    }
    return found;
  };

  // With no credentials the account answers 401: a problem whose type holds {docs_url}.
  const door = await session.send({ method: d.operations.account.method, path: d.paths.account });
  const docs = docsUrlOf(door.json);
  if ('value' in docs) {
    d.docsUrl = docs.value;
    draft.inferred.push('docsUrl');
  }

  const keyed = await probeKey(session);
  if (!keyed) {
    draft.todos.push(
      'everything behind a key: the run had no control API with accounts and keys and no partner key (PARTNER_ACCESS_KEY_ID / PARTNER_SECRET_KEY)',
    );
    if ('todo' in docs) draft.todos.push(docs.todo);
    return;
  }
  const { key } = keyed;
  const granted = await session.token(key);
  const token = 'token' in granted ? granted.token : undefined;
  take('keyPrefix', keyPrefixOf(key.accessKeyId, token), (prefix) => {
    d.keyPrefix = prefix;
  });
  if (token) draft.answered.push('token');
  else {
    draft.todos.push(
      `everything behind a token: ${'refused' in granted ? `${granted.refused.request} answered ${granted.refused.status}` : 'no token'}`,
    );
    return;
  }
  const get = (name: PathName, params?: Record<string, string>, query?: Record<string, string>) =>
    session.send(
      { method: 'GET', path: pathOf(d, name, params), ...(query ? { query } : {}) },
      token,
    );

  // The account: where each field is, and the money format of the maximum order value.
  const account = await get('account');
  if (answered('account', account) && account.status === 200) {
    const fields = accountFieldsOf(account.json);
    for (const [field, found] of Object.entries(fields)) {
      const start = d.accountFields[field as keyof Dialect['accountFields']];
      take(`accountFields.${field}`, orStart(found, account.json, start), (pointer) => {
        d.accountFields[field as keyof Dialect['accountFields']] = pointer;
      });
    }
    const maxValue = valueAt(account.json, d.accountFields.maxOrderValue);
    if (maxValue !== undefined)
      take(
        'money',
        moneyOf(maxValue, `GET /account at ${d.accountFields.maxOrderValue}`),
        (money) => {
          d.money = money;
        },
      );
    // Never keep the reference's money format silently.
    else
      draft.todos.push(
        `dialect.money: not seen (the maximum order value, whose format it is read from, was not found in ${account.request}); write the format of your totals and prices`,
      );
  } else if (account.status !== 404) {
    draft.todos.push(
      `dialect.accountFields, dialect.money: ${account.request} answered ${account.status}`,
    );
  }

  // A page of one product out of several: the list envelope.
  const page = await get('catalogProducts', undefined, { [d.list.limitParam]: '1' });
  if (answered('catalogProducts', page) && page.status === 200) {
    const startEnvelope =
      Array.isArray(valueAt(page.json, d.list.items)) &&
      (d.list.hasMore === null || typeof valueAt(page.json, d.list.hasMore) === 'boolean');
    const envelope = envelopeOf(page.json);
    // Names no rule of the probe knows, where the starting profile says: the profile's envelope stands.
    take(
      'list',
      'todo' in envelope && startEnvelope
        ? { value: { items: d.list.items, hasMore: d.list.hasMore, nextCursor: d.list.nextCursor } }
        : envelope,
      (envelope) => {
        d.list = { ...d.list, ...envelope };
      },
    );
  } else {
    // Never keep the reference's envelope silently.
    draft.todos.push(
      `dialect.list: not seen (${page.request} answered ${page.status}); write the envelope and paging of your lists${page.status === 404 ? '' : ` (a 4xx may be the page-size parameter, dialect.list.limitParam "${d.list.limitParam}")`}`,
    );
  }
  const products = keyed.products ?? (await catalog(session, d, token));
  const sku = products[0]?.sku;
  if (sku) answered('catalogProduct', await get('catalogProduct', { sku }));

  // One order of the starting profile's shape (test keys only).
  const placed = await placeOrder(session, draft, token, products, key.mode, answered);
  const orderId = placed?.id;
  if (placed && orderId) {
    answered(
      'orderByExternalId',
      await get('orderByExternalId', { external_id: placed.externalId }),
    );
    answered('order', await get('order', { id: orderId }));
    answered('shipments', await get('shipments', { id: orderId }));
    // Cancelled again at the end, whatever happens (sandbox etiquette); its path answers too.
    cleanups.push(async () =>
      answered(
        'orderCancel',
        await session.send(
          {
            method: d.operations.orderCancel.method,
            path: pathOf(d, 'orderCancel', { id: orderId }),
          },
          token,
        ),
      ),
    );
  }
  answered('orders', await get('orders', undefined, { [d.list.limitParam]: '1' }));
  // Lists whose method the document leaves open: the starting profile's method.
  for (const [name, op] of Object.entries(METHOD_OPEN) as [PathName, keyof Dialect['operations']][])
    answered(
      name,
      await session.send({ method: d.operations[op].method, path: pathOf(d, name) }, token),
    );
  draft.todos.push(
    'not inferred, the starting profile holds (the reference dialect without --profile): the quote body (dialect.quoteBody), the webhook endpoint body and event kinds (webhookEndpointBody, eventKinds), the order state names other than the first (orderStatuses), the form of errors[] pointers (errors), the methods and success statuses of the operations other than order creation (operations)',
  );
  draft.todos.push(
    'dialect.paths.quotes, quote, invoice, webhookEndpoint, event: not probed (they need objects or states the probe does not make, and a 404 for a missing object looks like one for a wrong path); check them',
  );
  if ('todo' in docs) {
    // Another problem, with the token: an order that does not exist.
    const missing = await get('order', { id: `draft-${randomUUID()}` });
    take('docsUrl', docsUrlOf(missing.json), (url) => {
      d.docsUrl = url;
    });
  }
}

/**
 * A member no rule of the probe recognises, shown where the starting profile
 * (`--profile`) says: the profile's pointer stands, no TODO.
 */
function orStart(found: Inferred<string>, body: unknown, start: string): Inferred<string> {
  return 'todo' in found && valueAt(body, start) !== undefined ? { value: start } : found;
}

async function catalog(session: ProbeSession, d: Dialect, token: string) {
  const res = await session.send(
    {
      method: 'GET',
      path: d.paths.catalogProducts,
      query: { [d.list.limitParam]: String(d.list.maxLimit) },
    },
    token,
  );
  return res.status === 200 ? productsIn(res.json, d) : [];
}

async function placeOrder(
  session: ProbeSession,
  draft: Draft,
  token: string,
  products: readonly Product[],
  mode: 'test' | 'live',
  answered: (name: PathName, res: Answer) => boolean,
): Promise<{ id: string; externalId: string } | undefined> {
  const d = draft.dialect;
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
  const externalId = `draft-${randomUUID()}`;
  const res = await session.send(
    {
      method: d.operations.orderCreate.method,
      path: d.paths.orders,
      json: orderBodyOf(d.orderBody, {
        externalId,
        items: [line],
        address: PROBE_ADDRESS,
      }),
      headers: { 'idempotency-key': `ct-draft-${randomUUID()}` },
    },
    token,
  );
  if (!answered('orders', res)) return undefined;
  if (res.status === 422) {
    const pointers = errorPointers(res.json, d.errors);
    draft.todos.push(
      `dialect.orderBody: ${res.request} refused an order in the profile's shape with 422${pointers.length ? `, errors[] at ${pointers.join(', ')}` : ''}: write where the target wants the lines, SKU, quantity and each address field`,
    );
    return undefined;
  }
  if (res.status < 200 || res.status >= 300 || res.status === 204) {
    // A 204 shows no order, and a profile cannot say 204 for it (the checks read the answer).
    draft.todos.push(
      `dialect.orderBody and the order answers: ${res.request} answered ${res.status}, so they were not seen`,
    );
    return undefined;
  }
  draft.inferred.push('orderBody (the target took it)', 'orderCreatedStatus');
  d.operations.orderCreate = { ...d.operations.orderCreate, status: res.status };
  const order = res.json;
  const at = (field: string, guess: Inferred<string>, set: (pointer: string) => void) => {
    const start =
      field === 'totals.order'
        ? d.totals.order
        : field.endsWith('.id')
          ? d.answers.order.id
          : d.answers.order.status;
    const found = orStart(guess, order, start);
    if ('todo' in found) draft.todos.push(found.todo);
    else {
      set(found.value);
      draft.inferred.push(field);
    }
  };
  at(
    'answers.order.id',
    memberOf(
      order,
      // external_id is the document's own member, never the order's identifier.
      /^(?!external_id$)(id|[a-z]+_id|[a-z]+Id)$/,
      (v) => typeof v === 'string' || typeof v === 'number',
      'dialect.answers.order.id',
    ),
    (p) => {
      d.answers.order.id = p;
    },
  );
  at(
    'answers.order.status',
    memberOf(order, /status|state/i, (v) => typeof v === 'string', 'dialect.answers.order.status'),
    (p) => {
      d.answers.order.status = p;
    },
  );
  at(
    'totals.order',
    memberOf(
      order,
      /total/i,
      (v) => moneyFormatOf(v, d.money) !== undefined,
      'dialect.totals.order',
    ),
    (p) => {
      d.totals.order = p;
    },
  );
  const total = valueAt(order, d.totals.order);
  if (total !== undefined && !fitsMoney(total, d.money))
    draft.todos.push(
      `dialect.money: the order's total ${JSON.stringify(total)} and the account's maximum order value differ in format`,
    );
  const state = valueAt(order, d.answers.order.status);
  if (typeof state === 'string' && state !== d.orderStatuses.received) {
    d.orderStatuses.received = state;
    draft.inferred.push('orderStatuses.received');
  }
  const id = valueAt(order, d.answers.order.id);
  return typeof id === 'string' || typeof id === 'number'
    ? { id: String(id), externalId }
    : undefined;
}
