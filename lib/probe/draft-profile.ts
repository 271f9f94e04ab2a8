import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Dispatcher } from 'undici';
import { cheapestLine, orderBodyOf } from '../check/order-body.js';
import type { Product } from '../control/types.js';
import { valueAt } from '../evidence/json-pointer.js';
import {
  type Dialect,
  isDocumentPath,
  METHOD_NOT_SHOWN,
  MONEY_PLACES,
  type MoneyFormat,
  type MoneyFormats,
  type MoneyPlace,
  type OperationName,
  type OrderBodyShape,
  type PathName,
  pathOf,
  pathTemplate,
} from '../target/dialect.js';
import { PROBE_ADDRESS, probeKey } from './dialect-probe.js';
import {
  accountFieldsOf,
  docsUrlOf,
  envelopeOf,
  type Inferred,
  keyPrefixOf,
  memberOf,
  members,
  moneyOf,
  totalOf,
} from './infer.js';
import {
  type BodyField,
  endpointBodyFields,
  errorsFormOf,
  type Fitting,
  orderBodyFields,
  pointersIn,
  refit,
  startFitting,
} from './infer-body.js';
import { type Answer, type ProbeConfig, ProbeSession } from './probe-session.js';
import { productsIn } from './products.js';

/**
 * Issue 11, point 4: a first profile from a live server. The target is
 * probed with the key or control API the run was given (the dialect probe's
 * way to a key), starting from the profile the run has (the reference
 * dialect by default). What the answers show is inferred; what they leave
 * open is a TODO, and keeps the starting profile's value. Issue 26, point 6:
 * the probe's own orders (placed, quoted, cancelled, moved by the control
 * API) and a webhook endpoint (made and deleted) show the bodies, their
 * answers, statuses and names; every field not inferred is named in the
 * last TODO.
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

/** The list paths whose method the API document does not show (section 4), by their operation. */
const METHOD_OPEN: Partial<Record<PathName, OperationName>> = {
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
  // Every field the answers did not settle is named (issue 26, point 6): never a silent guess.
  const left = notInferred(draft.dialect, draft.inferred);
  if (left.length > 0)
    draft.todos.push(
      `not inferred, kept as written (the starting profile's, else the reference dialect's): ${left.map((f) => `dialect.${f}`).join(', ')}`,
    );
  draft.requests = session.sent;
  const clean = (text: string) => session.redactor.redact(text);
  draft.todos = draft.todos.map(clean);
  return draft;
}

/** What `take` and the steps share. */
interface Steps {
  session: ProbeSession;
  draft: Draft;
  d: Dialect;
  token: string;
  /** Marks fields inferred (dialect field paths, prefixes of leaves). */
  got: (...fields: string[]) => void;
  answered: (name: PathName, res: Answer) => boolean;
  money: { place: MoneyPlace; value: unknown; where: string }[];
}

async function steps(
  session: ProbeSession,
  draft: Draft,
  cleanups: (() => Promise<unknown>)[],
): Promise<void> {
  const d = draft.dialect;
  const got = (...fields: string[]) => {
    for (const f of fields) if (!draft.inferred.includes(f)) draft.inferred.push(f);
  };
  const take = <T>(field: string, found: Inferred<T>, set: (value: T) => void): boolean => {
    if ('todo' in found) {
      draft.todos.push(found.todo);
      return false;
    }
    set(found.value);
    got(field);
    return true;
  };
  const answered = (name: PathName, res: Answer): boolean => {
    const found = res.status !== 404 && res.status !== 405;
    const list = found ? draft.answered : draft.missing;
    if (!list.includes(name)) list.push(name);
    // A path the document fixes is no profile field: only the dialect's are drafted.
    if (found && !isDocumentPath(name)) got(`paths.${name}`);
    else if (!found && isDocumentPath(name)) {
      // Where the document leaves the method open, a 404 or 405 may be the method.
      const op = METHOD_OPEN[name];
      draft.todos.push(
        op
          ? `dialect.operations.${op}.method: ${res.request} answered ${res.status}: write the target's method (the path is the API document's)`
          : `${res.request} answered ${res.status} at a path the API document fixes (section 4): no profile field moves it, and the checks will fail a target that does not serve it there`,
      );
    } else if (!found)
      draft.todos.push(
        `dialect.paths.${name}: ${res.request} answered ${res.status}: write the target's path`,
      );
    return found;
  };

  // With no credentials the account answers 401: a problem whose type holds {docs_url}.
  const door = await session.send({
    method: d.operations.account.method,
    path: pathOf(d, 'account'),
  });
  const docs = docsUrlOf(door.json);
  if ('value' in docs) {
    d.docsUrl = docs.value;
    got('docsUrl');
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
  if (token) {
    draft.answered.push('token');
    got('operations.token.status');
  } else {
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
  const s: Steps = { session, draft, d, token, got, answered, money: [] };

  // The account: where each field is; the maximum order value is a money place.
  const account = await get('account');
  if (answered('account', account) && account.status === 200) {
    got('operations.account.status');
    const fields = accountFieldsOf(account.json);
    for (const [field, found] of Object.entries(fields)) {
      const start = d.accountFields[field as keyof Dialect['accountFields']];
      take(`accountFields.${field}`, orStart(found, account.json, start), (pointer) => {
        d.accountFields[field as keyof Dialect['accountFields']] = pointer;
      });
    }
    const maxValue = valueAt(account.json, d.accountFields.maxOrderValue);
    if (maxValue !== undefined)
      s.money.push({
        place: 'maxOrderValue',
        value: maxValue,
        where: `GET /account at ${d.accountFields.maxOrderValue}`,
      });
  } else if (account.status !== 404) {
    draft.todos.push(
      `dialect.accountFields, dialect.money: ${account.request} answered ${account.status}`,
    );
  }

  // A page of one product out of several: the list envelope. A 4xx to the page size: the
  // envelope from a page without it (the parameter stays a TODO).
  let page = await get('catalogProducts', undefined, { [d.list.limitParam]: '1' });
  // Not at the profile's path: the usual ones (the product beside its list).
  for (const list of CATALOG_PATHS) {
    if (page.status !== 404 || list === d.paths.catalogProducts) continue;
    const other = await session.send(
      { method: 'GET', path: list, query: { [d.list.limitParam]: '1' } },
      token,
    );
    if (other.status === 404 || other.status === 405) continue;
    d.paths.catalogProducts = list;
    d.paths.catalogProduct = `${list}/{sku}`;
    page = other;
    break;
  }
  if (page.status === 400 || page.status === 422) {
    draft.todos.push(
      `dialect.list.limitParam: ${page.request} answered ${page.status} to the page size "${d.list.limitParam}": write the target's page-size parameter`,
    );
    page = await get('catalogProducts');
  }
  if (answered('catalogProducts', page) && page.status === 200) {
    got('operations.catalogProducts.status');
    const startEnvelope =
      Array.isArray(valueAt(page.json, d.list.items)) &&
      (d.list.hasMore === null || typeof valueAt(page.json, d.list.hasMore) === 'boolean');
    const envelope = envelopeOf(page.json);
    // Names no rule of the probe knows, where the starting profile says: the profile's envelope stands.
    const took = take(
      'list.items',
      'todo' in envelope && startEnvelope
        ? { value: { items: d.list.items, hasMore: d.list.hasMore, nextCursor: d.list.nextCursor } }
        : envelope,
      (envelope) => {
        d.list = { ...d.list, ...envelope };
        got('list.hasMore', 'list.nextCursor');
      },
    );
    // One item asked, one shown: the page-size parameter is the target's.
    const shown = valueAt(page.json, d.list.items);
    if (took && Array.isArray(shown) && shown.length === 1) got('list.limitParam');
  } else {
    // Never keep the reference's envelope silently.
    draft.todos.push(
      `dialect.list: not seen (${page.request} answered ${page.status}); write the envelope and paging of your lists${page.status === 404 ? '' : ` (a 4xx may be the page-size parameter, dialect.list.limitParam "${d.list.limitParam}")`}`,
    );
  }
  const products = keyed.products ?? (await catalog(session, d, token));
  const sku = products[0]?.sku;
  if (sku) {
    const product = await get('catalogProduct', { sku });
    if (answered('catalogProduct', product) && product.status === 200) {
      got('operations.catalogProduct.status');
      const price = valueAt(product.json, d.answers.product.unitPrice);
      if (price !== undefined) {
        got('answers.product.unitPrice');
        s.money.push({
          place: 'prices',
          value: price,
          where: `${product.request} at ${d.answers.product.unitPrice}`,
        });
      }
      if (valueAt(product.json, d.answers.product.sku) === sku) got('answers.product.sku');
    }
  }

  // One order of the starting profile's shape (test keys only), its body fitted to the 422s.
  const placed = await placeOrder(s, products, key.mode);
  const orderId = placed?.id;
  let cancelled = false;
  if (placed && orderId) {
    // Cancelled again at the end, whatever happens (sandbox etiquette).
    cleanups.push(async () => {
      if (!cancelled)
        await session.send(
          {
            method: d.operations.orderCancel.method,
            path: pathOf(d, 'orderCancel', { id: orderId }),
          },
          token,
        );
    });
    if (
      answered(
        'orderByExternalId',
        await get('orderByExternalId', { external_id: placed.externalId }),
      )
    )
      got('operations.orderByExternalId.status');
    if (answered('order', await get('order', { id: orderId }))) got('operations.orderRead.status');
    await shipmentsPath(s, orderId);
    await quote(s, placed.body);
    const created = await eventKind(s, orderId, undefined);
    cancelled = await cancel(s, orderId);
    if (cancelled && created) await eventKind(s, orderId, created);
    await webhookEndpoint(s);
    await laterStates(s, key, products);
  } else {
    draft.todos.push(
      "dialect.orderStatuses, eventKinds, webhookEndpointBody, quoteBody, answers.quote: not seen (they are read from the probe's own order, which was not placed)",
    );
  }
  if (answered('orders', await get('orders', undefined, { [d.list.limitParam]: '1' })))
    got('operations.orderList.status');
  // Lists whose method the document leaves open: the starting profile's method.
  for (const [name, op] of Object.entries(METHOD_OPEN) as [PathName, OperationName][])
    if (
      answered(
        name,
        await session.send({ method: d.operations[op].method, path: pathOf(d, name) }, token),
      )
    )
      got(`operations.${op}`);
  moneyPlaces(s);
  if ('todo' in docs) {
    // Another problem, with the token: an order that does not exist.
    const missing = await get('order', { id: `draft-${randomUUID()}` });
    take('docsUrl', docsUrlOf(missing.json), (url) => {
      d.docsUrl = url;
    });
  }
}

/**
 * The money format of each place seen (the maximum order value, a price, a
 * total): the totals' format (else the first seen) for every place, and each
 * place that shows another stated apart. A place never seen follows it, named
 * in the final TODO.
 */
function moneyPlaces(s: Steps): void {
  const { d, draft } = s;
  const formats = new Map<MoneyPlace, MoneyFormat>();
  for (const { place, value, where } of s.money) {
    const found = moneyOf(value, where);
    if ('todo' in found)
      draft.todos.push(found.todo.replace('dialect.money:', `dialect.money.${place}:`));
    else formats.set(place, found.value);
  }
  const every = formats.get('totals') ?? formats.get('prices') ?? formats.get('maxOrderValue');
  if (every === undefined) {
    draft.todos.push(
      'dialect.money: not seen (no maximum order value, price or total was found where the profile says); write the format of your totals and prices',
    );
    return;
  }
  const money: MoneyFormats = { ...every };
  for (const place of MONEY_PLACES) {
    const own = formats.get(place);
    if (own === undefined) {
      draft.todos.push(
        `dialect.money.${place}: not seen; written as the format of every place (${every.format})`,
      );
      continue;
    }
    s.got(`money.${place}`);
    const differs = Object.fromEntries(
      (['format', 'amount', 'currency'] as const)
        .filter((m) => own[m] !== every[m] && (own.format === 'object' || m === 'format'))
        .map((m) => [m, own[m]]),
    );
    if (Object.keys(differs).length > 0) money[place] = differs;
  }
  d.money = money;
  s.got('money.format', 'money.amount', 'money.currency');
}

/** The shipments of the probe's order: the profile's path, else the common ones beside the order's. */
async function shipmentsPath(s: Steps, orderId: string): Promise<void> {
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

/** Sends a body at `path`, fitting it to the 422s; answers the accepted answer, or why not. */
async function fitBody(
  s: Steps,
  what: string,
  fields: BodyField[],
  send: (fitting: Fitting) => Promise<Answer>,
): Promise<{ res: Answer; fitting: Fitting } | { todo: string; res?: Answer; values?: string[] }> {
  const fitting = startFitting(fields);
  const errorsSeen = s.draft.inferred.includes('errors.member');
  let last: Answer | undefined;
  for (let round = 0; round < 24; round++) {
    const res = await send(fitting);
    last = res;
    if (res.status !== 422) return { res, fitting };
    const form = errorsFormOf(res.json, s.d.errors);
    if (form && !errorsSeen) {
      s.d.errors = form.value;
      s.got('errors.member');
      if (form.decided) s.got('errors.form');
    } else if (form?.decided && !s.draft.inferred.includes('errors.form')) {
      s.d.errors = form.value;
      s.got('errors.form');
    }
    const pointers = pointersIn(res.json, s.d.errors);
    if (pointers.length === 0)
      return {
        todo: `${what}: ${res.request} answered 422 with no errors[] pointer the probe could read: write where the target wants each field`,
        res,
      };
    const { bad, stuck, values } = refit(fitting, pointers);
    if (bad.length === 0)
      return {
        todo: `${what}: ${res.request} answered 422 with errors[] at ${pointers.join(', ')}, none about where a field is${values.length ? ` (${values.join(', ')}: values inside a list, such as event kinds the target names otherwise)` : ''}`,
        res,
        values,
      };
    if (stuck.length > 0)
      return {
        todo: `${what}: ${res.request} answered 422 with errors[] at ${pointers.join(', ')}, and the probe has no place left to try for ${stuck.join(', ')}: write where the target wants them`,
        res,
      };
  }
  return { todo: `${what}: no body the target took in 24 tries (last: ${last?.status})` };
}

const ADDRESS = { ...PROBE_ADDRESS, line2: 'Suite 1' };

/** Where a catalog commonly is below `/catalog` (section 4), when not where the profile says. */
const CATALOG_PATHS = ['/catalog/products', '/catalog/items', '/catalog'];

async function placeOrder(
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

/** The shape a fitting describes, over `base`. */
function shapeOf(fitting: Fitting, base: OrderBodyShape): OrderBodyShape {
  const at = (name: string) => fitting.fields.find((f) => f.name === name)?.place;
  const address = { ...base.address };
  for (const f of Object.keys(address) as (keyof OrderBodyShape['address'])[])
    address[f] = at(`address.${f}`) ?? address[f];
  return {
    items: at('items') ?? base.items,
    sku: at('sku') ?? base.sku,
    quantity: at('quantity') ?? base.quantity,
    address,
  };
}

/**
 * An order under the product's minimum quantity (section 7: a 422 whose
 * errors[] point at the line's quantity): the pointer's form shows an index,
 * which tells `dot` from `bracket`. Nothing is placed unless the target takes
 * it, and then it is cancelled at once.
 */
async function decideErrorsForm(s: Steps, line: { sku: string; quantity: number }): Promise<void> {
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

/** Where the order answer shows its id, state, total and lines. */
function orderAnswer(s: Steps, order: unknown, line: { sku: string; quantity: number }): void {
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

/** A quote of the order's lines and address: its body fitted to the 422s, its id and total. */
async function quote(s: Steps, orderBody: Record<string, unknown>): Promise<void> {
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

/**
 * The kind of the newest event about the order, other than `not`: read from
 * the event list after the order was placed (orderCreated) and after it was
 * cancelled (orderCancelled). Answers the kind found.
 */
async function eventKind(
  s: Steps,
  orderId: string,
  not: string | undefined,
): Promise<string | undefined> {
  const { d, session, token, draft } = s;
  const kind = not === undefined ? 'orderCreated' : 'orderCancelled';
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
  const items = valueAt(res.json, d.list.items);
  if (res.status < 200 || res.status >= 300 || !Array.isArray(items)) {
    draft.todos.push(
      `dialect.eventKinds.${kind}: ${res.request} answered ${res.status}${Array.isArray(items) ? '' : ` without a list at ${d.list.items}`}`,
    );
    return undefined;
  }
  const about = items.filter((event) => JSON.stringify(event).includes(JSON.stringify(orderId)));
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

/** Cancels the probe's order: the cancel's status, and the state it shows after. */
async function cancel(s: Steps, orderId: string): Promise<boolean> {
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
 * A webhook endpoint for the two event kinds: its body fitted to the 422s
 * (without the list of kinds when the target takes none), created with the
 * profile's method or the other usual one, then deleted.
 */
async function webhookEndpoint(s: Steps): Promise<void> {
  const { d, session, token, draft } = s;
  const kinds = [d.eventKinds.orderCreated, d.eventKinds.orderCancelled];
  const url = 'https://draft-profile.example.com/hooks';
  for (const method of unique([
    d.operations.webhookEndpointCreate.method,
    'POST',
    'PUT',
    'PATCH',
  ] as const)) {
    let events = d.webhookEndpointBody.events;
    let listRefused: string | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const fitted = await fitBody(
        s,
        'dialect.webhookEndpointBody',
        endpointBodyFields({ url: d.webhookEndpointBody.url, events }),
        (fitting) => {
          const body: Record<string, unknown> = {};
          for (const f of fitting.fields) putAt(body, f.place, f.name === 'url' ? url : kinds);
          return session.send({ method, path: pathOf(d, 'webhookEndpoints'), json: body }, token);
        },
      );
      const res = fitted.res;
      if (res && (res.status === 404 || res.status === 405)) break;
      if ('todo' in fitted) {
        // The list of kinds refused wherever it goes (not its values): perhaps the target takes none.
        if (events !== null && !fitted.values?.length && /\bevents\b/.test(fitted.todo)) {
          events = null;
          listRefused = fitted.todo;
          continue;
        }
        draft.todos.push(fitted.todo);
        return;
      }
      if (fitted.res.status < 200 || fitted.res.status >= 300) {
        draft.todos.push(
          `dialect.webhookEndpointBody: ${fitted.res.request} answered ${fitted.res.status}`,
        );
        return;
      }
      const at = (name: string) => fitted.fitting.fields.find((f) => f.name === name)?.place;
      d.webhookEndpointBody = {
        url: at('url') ?? d.webhookEndpointBody.url,
        events: at('events') ?? null,
      };
      // Taken without a list after the list was refused wherever the probe put it: the target may
      // take none, or one where no name the probe knows says (a guess either way, so said).
      if (listRefused && d.webhookEndpointBody.events === null)
        draft.todos.push(
          `dialect.webhookEndpointBody.events: written as null (the target took the endpoint without a list of kinds) after the list was refused (${listRefused}); if the target takes a list elsewhere, write where`,
        );
      d.operations.webhookEndpointCreate = { method, status: fitted.res.status };
      s.got('webhookEndpointBody', 'operations.webhookEndpointCreate');
      const id = orStart(
        memberOf(
          fitted.res.json,
          /^(id|[a-z]+_id|uid)$/,
          (v) => typeof v === 'string',
          'dialect.answers.webhookEndpoint.id',
        ),
        fitted.res.json,
        d.answers.webhookEndpoint.id,
      );
      if ('todo' in id) {
        draft.todos.push(id.todo);
        return;
      }
      d.answers.webhookEndpoint.id = id.value;
      s.got('answers.webhookEndpoint.id');
      const endpointId = String(valueAt(fitted.res.json, id.value));
      for (const del of unique([
        d.operations.webhookEndpointDelete.method,
        'DELETE',
        'POST',
      ] as const)) {
        const gone = await session.send(
          { method: del, path: pathOf(d, 'webhookEndpoint', { id: endpointId }) },
          token,
        );
        if (gone.status === 404 || gone.status === 405) continue;
        if (gone.status >= 200 && gone.status < 300) {
          d.operations.webhookEndpointDelete = { method: del, status: gone.status };
          s.got('operations.webhookEndpointDelete', 'paths.webhookEndpoint');
        }
        return;
      }
      draft.todos.push(
        `dialect.paths.webhookEndpoint, operations.webhookEndpointDelete: the endpoint made was not deleted at ${pathOf(d, 'webhookEndpoint', { id: endpointId })} (DELETE, POST)`,
      );
      return;
    }
  }
  draft.todos.push(
    `dialect.operations.webhookEndpointCreate.method: ${pathOf(d, 'webhookEndpoints')} (the API document's path) answered 404 or 405 to POST, PUT and PATCH`,
  );
}

/**
 * The states after `received` but `cancelled`: a second order of the fitted
 * shape, moved by the control API into production and shipped, read after
 * each move.
 */
async function laterStates(
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

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function putAt(body: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = body;
  for (const token of tokens.slice(0, -1)) {
    const next = node[token];
    node[token] = typeof next === 'object' && next !== null ? next : {};
    node = node[token] as Record<string, unknown>;
  }
  node[tokens.at(-1) ?? ''] = value;
}

/** The leaves of a dialect not under any inferred field: each named in the final TODO. */
export function notInferred(dialect: Dialect, inferred: readonly string[]): string[] {
  const covered = (field: string) => inferred.some((i) => field === i || field.startsWith(`${i}.`));
  return leavesOf(dialect).filter(
    (field) =>
      !covered(field) &&
      // Fixed by the API document, never a dialect choice: the methods it shows.
      !(
        /^operations\.\w+\.method$/.test(field) &&
        !METHOD_NOT_SHOWN.includes(field.split('.')[1] as OperationName)
      ) &&
      // One fact with operations.orderCreate.status.
      !(field === 'orderCreatedStatus' && covered('operations.orderCreate.status')) &&
      field !== 'docsUrl',
  );
}

function leavesOf(value: unknown, at = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [at];
  return Object.entries(value).flatMap(([k, v]) => leavesOf(v, at === '' ? k : `${at}.${k}`));
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
      path: pathOf(d, 'catalogProducts'),
      query: { [d.list.limitParam]: String(d.list.maxLimit) },
    },
    token,
  );
  return res.status === 200 ? productsIn(res.json, d) : [];
}
