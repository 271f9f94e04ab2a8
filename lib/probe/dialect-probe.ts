import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { cheapestLine, orderBodyOf, quoteBodyOf } from '../check/order-body.js';
import type { Key, RequestSpec } from '../client/types.js';
import type { Product } from '../control/types.js';
import type { Exchange } from '../evidence/exchange.js';
import { pointerOf, valueAt } from '../evidence/json-pointer.js';
import { isDocumentPath, type PathName, pathOf } from '../target/dialect.js';
import type { DialectSeen, RunConfig } from '../target/run-config.js';
import { accountFieldsOf } from './infer.js';
import {
  judgeAccount,
  judgeCreatedOrder,
  judgeList,
  judgeMoney,
  judgeOrder,
  judgeRefusedBody,
  type Mismatch,
  type MoneySeen,
  preview,
} from './judge.js';
import { membersNear } from './pointer.js';
import { type Answer, type ProbeConfig, ProbeSession } from './probe-session.js';
import { productsIn } from './products.js';

/**
 * Before any check, does the target speak the profile's dialect? A few
 * requests in the run's own account (a fresh control account and key, as a
 * check file gets them; else the partner's test key) read the account and the
 * catalog (a page and a product), place one order of the profile's shape,
 * read it back and by its external id, quote it and read the quote, cancel
 * it, and read one list: every path the checks need an answer from before
 * they can judge. Money is judged at each place seen (the maximum order
 * value, a price, a total).
 *
 * The probe stops the run (exit 2) only for a difference in what the API
 * document leaves open ("not shown"): an answer that contradicts the profile
 * there is one line naming the profile field, instead of sixty `error`
 * results. An answer that breaks what the document fixes (a 404 at a path of
 * its endpoint table, a valid order refused with a code the document gives no
 * body problem) is no profile matter: it is a note, the run goes on, and the
 * checks fail it on the rule it breaks. So is what the probe cannot judge (a
 * refused key, a limit, a failing server). Requests that need only the token
 * go out together, each branch with findings of its own, said in one order
 * whatever answers first.
 */
export interface DialectProbe {
  mismatches: Mismatch[];
  /** Why the probe looked at less than it could, or what it saw break the document; never a mismatch. */
  notes: string[];
  /**
   * What the profile shapes and the target was seen to take (an order of the
   * profile's body placed, a quote of its quote body made): a later refusal
   * of a valid request of that shape is the target's, never the profile's.
   */
  seen: DialectSeen[];
  /** The probe's exchanges, redacted where they were recorded. */
  evidence: Exchange[];
  /** Requests sent (API and control). */
  requests: number;
  /** The partner key's requests among them, for the checks' pacer (RunConfig.partnerProbeSent). */
  partnerSent: { kind: 'read' | 'write' | 'token'; at: number }[];
  durationMs: number;
}

/**
 * What a probe that did not stop the run hands the checks: the partner key's
 * requests, for their pacer, and what the target was seen to take.
 */
export function carryProbe(config: RunConfig, probe: DialectProbe): void {
  if (probe.partnerSent.length) config.partnerProbeSent = probe.partnerSent;
  config.dialectSeen = probe.seen;
}

/** A valid US address (API document section 4, rule 3): the probe's order ships nowhere. */
export const PROBE_ADDRESS = {
  name: 'Dialect Probe',
  line1: '1 Main Street',
  city: 'Springfield',
  state: 'IL',
  postal_code: '62701',
  country: 'US',
};

export async function probeDialect(
  config: ProbeConfig,
  dispatcher?: Dispatcher,
): Promise<DialectProbe> {
  const started = performance.now();
  const session = new ProbeSession(config, dispatcher);
  const mismatches: Mismatch[] = [];
  const notes: string[] = [];
  const seen = new Set<DialectSeen>();
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    await steps(session, { mismatches, notes, seen }, cleanups);
  } catch (error) {
    // The network or the control API: the checks will meet it too, and say so.
    notes.push(`stopped early: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    await session.close();
  }
  // What the probe says quotes answers: it goes through the redactor that saw every exchange.
  const clean = (text: string) => session.redactor.redact(text);
  return {
    mismatches: mismatches.map((m) => ({ field: m.field, said: clean(m.said) })),
    notes: notes.map(clean),
    seen: [...seen].sort(),
    evidence: session.recorder.take().evidence,
    requests: session.sent,
    partnerSent: session.partnerSent,
    durationMs: Math.round(performance.now() - started),
  };
}

/** What the whole probe found: its mismatches, notes and what the target took. */
interface Outcome {
  mismatches: Mismatch[];
  notes: string[];
  seen: Set<DialectSeen>;
}

async function steps(
  session: ProbeSession,
  { mismatches, notes, seen }: Outcome,
  cleanups: (() => Promise<unknown>)[],
): Promise<void> {
  const { dialect } = session.config;
  const keyed = await probeKey(session);
  if (!keyed) {
    // No key at all: the run's notices say so already; there is nothing to read.
    return;
  }
  const { key, products: accountProducts } = keyed;
  const prefix = key.accessKeyId.split('_')[0];
  if (key.accountId !== undefined && prefix !== dialect.keyPrefix) {
    // The control API's key: the target's own prefix, which the checks would read as a wrong key format.
    mismatches.push({
      field: 'dialect.keyPrefix',
      said: `the control API made a key with the prefix "${prefix}" (${prefix}_${key.mode}_ak_…), where the profile says "${dialect.keyPrefix}"`,
    });
  }
  const granted = await session.token(key);
  if ('refused' in granted && [404, 405].includes(granted.refused.status)) {
    notes.push(`${documentPathNote(granted.refused)}; every check needs a token`);
    return;
  }
  if ('refused' in granted) {
    notes.push(
      `no token (${describe(granted.refused)}): the TOKEN checks judge the token endpoint`,
    );
    return;
  }
  const { token } = granted;
  const call = (
    name: PathName,
    op: keyof typeof dialect.operations,
    params?: Record<string, string>,
  ) => ({
    method: dialect.operations[op].method,
    path: pathOf(dialect, name, params),
  });
  // What needs only the token goes out together (a target far away is not asked one round trip
  // after another): the account, the catalog, one order (of the control API's products, else the
  // catalog's) and one list. Each branch keeps its findings apart; they are said in this order.
  const [accountSaid, catalogSaid, orderSaid, listSaid] = [found(), found(), found(), found()];
  const catalog = readCatalog(session, token, accountProducts, catalogSaid);
  const placing = (async () =>
    placeOrder(session, key, token, accountProducts ?? (await catalog), orderSaid))();
  const first = await Promise.allSettled([
    readAccount(session, token, accountSaid),
    catalog,
    placing,
    readList(session, token, listSaid),
  ]);

  // After the order: read by its external id then cancelled (the checks cancel theirs there),
  // beside a quote of its body and the quote read back.
  const [byIdSaid, quoteSaid, cancelSaid] = [found(), found(), found()];
  const placed = first[2].status === 'fulfilled' ? first[2].value : undefined;
  const after: PromiseSettledResult<unknown>[] = [];
  if (placed) {
    let cancelled = false;
    if (key.accountId === undefined) {
      // Sandbox etiquette: the partner key's order is cancelled again, whatever happens.
      cleanups.push(async () => {
        if (!cancelled)
          await session.send(call('orderCancel', 'orderCancel', { id: placed.id }), token);
      });
    }
    const readThenCancel = async () => {
      const byExternalId = await session.send(
        call('orderByExternalId', 'orderByExternalId', { external_id: placed.externalId }),
        token,
      );
      judgeAnswer(byExternalId, 'orderByExternalId', byIdSaid);
      // Its own test order, cancelled: the cancel path answers.
      const cancel = await session.send(
        call('orderCancel', 'orderCancel', { id: placed.id }),
        token,
      );
      cancelled = cancel.status !== 404 && cancel.status !== 405;
      // The cancel's path and method are the document's: a 404 or 405 there is the target's.
      if (!cancelled) cancelSaid.notes.push(documentPathNote(cancel));
    };
    after.push(
      ...(await Promise.allSettled([
        readThenCancel(),
        probeQuote(session, token, placed.body, quoteSaid),
      ])),
    );
  }

  const said = [accountSaid, catalogSaid, orderSaid, byIdSaid, quoteSaid, cancelSaid];
  for (const branch of said) {
    mismatches.push(...branch.mismatches);
    notes.push(...branch.notes);
    for (const taken of branch.seen) seen.add(taken);
  }
  // Money at each place seen, judged together (one format, or one per place).
  const money = [...accountSaid.money, ...catalogSaid.money, ...orderSaid.money];
  mismatches.push(...judgeMoney(money, dialect.money));
  mismatches.push(...listSaid.mismatches);
  notes.push(...listSaid.notes);
  // A branch that failed (the network, the control API) stops the probe as a failed step did.
  const failed = [...first, ...after].find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** What one branch of the probe found, said in the probe's order once every branch is back. */
interface Findings {
  mismatches: Mismatch[];
  notes: string[];
  money: MoneySeen[];
  /** What the target took in the profile's shape. */
  seen: Set<DialectSeen>;
}

function found(): Findings {
  return { mismatches: [], notes: [], money: [], seen: new Set() };
}

/** The account: its fields, and its maximum order value (a money place). */
async function readAccount(session: ProbeSession, token: string, out: Findings): Promise<void> {
  const { dialect } = session.config;
  const account = await session.send(
    { method: dialect.operations.account.method, path: pathOf(dialect, 'account') },
    token,
  );
  if (!judgeAnswer(account, 'account', out)) return;
  const elsewhere = Object.fromEntries(
    Object.entries(accountFieldsOf(account.json)).flatMap(([field, found]) =>
      'value' in found ? [[field, found.value]] : [],
    ),
  );
  const judged = judgeAccount(account.json, dialect, said(account), elsewhere);
  out.mismatches.push(...judged.mismatches);
  out.notes.push(...judged.notes);
  const pointer = dialect.accountFields.maxOrderValue;
  const value = valueAt(account.json, pointer);
  if (value !== undefined)
    out.money.push({ place: 'maxOrderValue', value, where: `${said(account)} at ${pointer}` });
}

/** One page of the order list (its envelope), one order long. */
async function readList(session: ProbeSession, token: string, out: Findings): Promise<void> {
  const { dialect } = session.config;
  const list = await session.send(
    {
      method: dialect.operations.orderList.method,
      path: pathOf(dialect, 'orders'),
      query: { [dialect.list.limitParam]: '1' },
    },
    token,
  );
  if (list.status === 400 || list.status === 422) {
    out.mismatches.push({
      field: 'dialect.list.limitParam',
      said: `${said(list)} answered ${list.status} to the page size ?${dialect.list.limitParam}=1 (${describe(list)})`,
    });
  } else if (judgeAnswer(list, 'orders', out)) {
    out.mismatches.push(...judgeList(list.json, dialect, said(list)));
  }
}

/**
 * The catalog as the checks read it: one page of the list (its envelope) and
 * one product (its price, a money place). A 404 at either path is the
 * profile's path, never the target's failure. Answers the products to order
 * from: the control API's, else the list's.
 */
async function readCatalog(
  session: ProbeSession,
  token: string,
  accountProducts: readonly Product[] | undefined,
  out: Findings,
): Promise<readonly Product[] | undefined> {
  const { dialect } = session.config;
  const readPage = async (): Promise<readonly Product[] | undefined> => {
    const catalog = await session.send(
      {
        method: dialect.operations.catalogProducts.method,
        path: pathOf(dialect, 'catalogProducts'),
        query: { [dialect.list.limitParam]: String(dialect.list.maxLimit) },
      },
      token,
    );
    if (!judgeAnswer(catalog, 'catalogProducts', out)) return undefined;
    const envelope = judgeList(catalog.json, dialect, said(catalog));
    out.mismatches.push(...envelope);
    return envelope.length === 0 ? productsIn(catalog.json, dialect) : undefined;
  };
  const productSaid = found();
  const readProduct = async (sku: string): Promise<void> => {
    const product = await session.send(
      {
        method: dialect.operations.catalogProduct.method,
        path: pathOf(dialect, 'catalogProduct', { sku }),
      },
      token,
    );
    if (!judgeAnswer(product, 'catalogProduct', productSaid)) return;
    const pointer = dialect.answers.product.unitPrice;
    const value = valueAt(product.json, pointer);
    if (value === undefined)
      productSaid.mismatches.push({
        field: 'dialect.answers.product.unitPrice',
        said: `${said(product)} shows nothing at ${pointer} (${membersNear(product.json, pointer)})`,
      });
    else
      productSaid.money.push({ place: 'prices', value, where: `${said(product)} at ${pointer}` });
  };
  // With the control API's products, the product is read beside the list; else from the list.
  const known = accountProducts?.[0]?.sku;
  const [listed] = await Promise.all([
    readPage(),
    known === undefined ? undefined : readProduct(known),
  ]);
  const products = accountProducts ?? listed;
  const sku = products?.[0]?.sku;
  if (known === undefined && sku !== undefined) await readProduct(sku);
  out.mismatches.push(...productSaid.mismatches);
  out.notes.push(...productSaid.notes);
  out.money.push(...productSaid.money);
  return products;
}

/**
 * One quote of the profile's quote body, read back: a 422 to it is the
 * profile's quote body (`dialect.quoteBody`), unless it names a limit; a
 * quote made is the body seen taken. Its two paths are the document's: a 404
 * there is a note, the checks judge it (READ-10).
 */
async function probeQuote(
  session: ProbeSession,
  token: string,
  order: Record<string, unknown>,
  out: Findings,
): Promise<void> {
  const { dialect } = session.config;
  const created = await session.send(
    {
      method: dialect.operations.quoteCreate.method,
      path: pathOf(dialect, 'quotes'),
      json: quoteBodyOf(dialect, order),
    },
    token,
  );
  if (created.status === 422 && !refusedForLimit(created)) {
    out.mismatches.push(
      judgeRefusedBody(created.json, dialect, said(created), created.status, 'quoteBody'),
    );
    return;
  }
  if (!judgeAnswer(created, 'quotes', out)) return;
  out.seen.add('quoteBody');
  const id = idAt(created.json, dialect.answers.quote.id);
  if (id === undefined) {
    out.notes.push(
      `${said(created)} shows no quote id at ${dialect.answers.quote.id}: its read path was not probed`,
    );
    return;
  }
  const readAt = (quoteId: string): RequestSpec => ({
    method: dialect.operations.quoteRead.method,
    path: pathOf(dialect, 'quote', { id: quoteId }),
  });
  const read = await session.send(readAt(id), token);
  if (read.status === 404) {
    const elsewhere = await idElsewhere(
      session,
      token,
      created.json,
      dialect.answers.quote.id,
      readAt,
    );
    if (elsewhere) {
      out.mismatches.push(idMismatch('quote', read, elsewhere));
      return;
    }
  }
  judgeAnswer(read, 'quote', out);
}

/** A fresh account and test key through the control API, as a check file gets them; else the partner's test key. */
export async function probeKey(
  session: ProbeSession,
): Promise<{ key: Key; products?: readonly Product[] } | undefined> {
  const { capabilities, partnerKey } = session.config;
  if (capabilities.includes('accounts') && capabilities.includes('keys')) {
    const account = await session.control.createAccount({
      limits: { max_order_value: 10_000_000, max_orders_per_day: 10_000 },
    });
    const key = await session.control.createKey(account.id, { mode: 'test' });
    return { key, ...(account.settings.products ? { products: account.settings.products } : {}) };
  }
  if (!partnerKey) return undefined;
  return {
    key: {
      ...partnerKey,
      mode: partnerKey.accessKeyId.includes('_live_') ? 'live' : 'test',
      scopes: [],
    },
  };
}

/** Places one order of the profile's shape and reads it back; answers it when one was placed. */
async function placeOrder(
  session: ProbeSession,
  key: Key,
  token: string,
  products: readonly Product[] | undefined,
  out: Findings,
): Promise<{ id: string; externalId: string; body: Record<string, unknown> } | undefined> {
  const { dialect } = session.config;
  if (key.mode !== 'test') {
    out.notes.push('no order placed with a live key: the order body was not probed');
    return undefined;
  }
  // No catalog read: its mismatch is said already.
  if (!products) return undefined;
  let line: ReturnType<typeof cheapestLine>;
  try {
    line = cheapestLine(products);
  } catch {
    out.notes.push('no product to order without freight: the order body was not probed');
    return undefined;
  }
  const externalId = `probe-${randomUUID()}`;
  const body = orderBodyOf(dialect.orderBody, {
    externalId,
    items: [line],
    address: PROBE_ADDRESS,
  });
  const created = await session.send(
    {
      method: dialect.operations.orderCreate.method,
      path: pathOf(dialect, 'orders'),
      json: body,
      headers: { 'idempotency-key': `ct-probe-${randomUUID()}` },
    },
    token,
  );
  const request = said(created);
  if (created.status >= 200 && created.status < 300) {
    out.seen.add('orderBody');
    out.mismatches.push(...judgeCreatedOrder(created.status, created.json, dialect, request));
    const total = valueAt(created.json, dialect.totals.order);
    if (total !== undefined)
      out.money.push({
        place: 'totals',
        value: total,
        where: `${request} at ${dialect.totals.order}`,
      });
    let id = idAt(created.json, dialect.answers.order.id);
    if (id === undefined) return undefined;
    const readAt = (orderId: string): RequestSpec => ({
      method: dialect.operations.orderRead.method,
      path: pathOf(dialect, 'order', { id: orderId }),
    });
    const read = await session.send(readAt(id), token);
    if (read.status === 404) {
      const pointer = dialect.answers.order.id;
      const elsewhere = await idElsewhere(session, token, created.json, pointer, readAt);
      if (elsewhere) {
        out.mismatches.push(idMismatch('order', read, elsewhere));
        // The order's own id, so that its clean-up cancels it.
        id = elsewhere.id;
        return { id, externalId, body: body as Record<string, unknown> };
      }
    }
    if (judgeAnswer(read, 'order', out))
      out.mismatches.push(...judgeOrder(read.json, dialect, said(read)));
    return { id, externalId, body: body as Record<string, unknown> };
  }
  if (created.status === 404 || created.status === 405) {
    out.notes.push(documentPathNote(created));
    return undefined;
  }
  if (NOT_THE_BODY.has(created.status) || (created.status === 422 && refusedForLimit(created))) {
    out.notes.push(`its order was refused (${describe(created)}): the order body was not probed`);
    return undefined;
  }
  if (created.status === 422) {
    out.mismatches.push(
      judgeRefusedBody(created.json, dialect, request, created.status, 'orderBody'),
    );
    return undefined;
  }
  if (created.status >= 400 && created.status < 500) {
    // Section 4: a body the target cannot take is 422 validation_failed. Any other refusal of a
    // valid order is the target's, whatever the body's shape: the checks judge it.
    out.notes.push(
      `${request} answered ${describe(created)} to a valid order of the profile's shape, where the API document answers a body it cannot take with 422 validation_failed (section 4): no dialect matter, the checks judge it`,
    );
    return undefined;
  }
  out.notes.push(`its order got ${describe(created)}: the order body was not probed`);
  return undefined;
}

/**
 * Refusals of a valid order that say nothing about its body (API document
 * section 7): the key, payment, the account's state, the rate limit.
 */
const NOT_THE_BODY = new Set([401, 402, 403, 409, 429]);

/**
 * A 422 naming an account limit (section 7: "the message names the limit"):
 * the partner's sandbox spent for today, or its maximum order value below the
 * cheapest order. The body was fine.
 */
function refusedForLimit(res: Answer): boolean {
  return /per[\s_-]*day|daily|maximum|max[\s_-]*order|limit/i.test(res.text);
}

/**
 * 2xx: read on. A 404 or 405 at a path the profile sets: that path is
 * wrong, a mismatch. At a path the document fixes: the target's, a note the
 * checks judge. Anything else: a note, the checks judge it.
 */
function judgeAnswer(res: Answer, path: PathName, out: Findings): boolean {
  if (res.status >= 200 && res.status < 300 && res.json !== undefined) return true;
  if ((res.status === 404 || res.status === 405) && !isDocumentPath(path))
    out.mismatches.push(pathMismatch(res, path));
  else if (res.status === 404 || res.status === 405) out.notes.push(documentPathNote(res));
  else out.notes.push(`${said(res)} got ${describe(res)}: not judged`);
  return false;
}

function pathMismatch(res: Answer, path: string): Mismatch {
  return {
    field: `dialect.paths.${path}`,
    said: `${said(res)} answered ${res.status}${codeOf(res)}`,
  };
}

/** A 404 or 405 where the document fixes the method and path: no profile field can move them. */
function documentPathNote(res: Answer): string {
  return `${said(res)} answered ${res.status}${codeOf(res)} at a path the API document fixes (section 4): no dialect matter, the checks judge it`;
}

/**
 * A read of the object just made, at a path the document fixes, answered
 * 404: either the target does not serve its own object there (the checks
 * judge that) or its id is not where the profile says. Each other member
 * beside the profile's (and at the top) holding a string or an integer is
 * tried in the id's place, four at most: one that reads the object back is
 * where the target shows its id.
 */
async function idElsewhere(
  session: ProbeSession,
  token: string,
  created: unknown,
  pointer: string,
  readAt: (id: string) => RequestSpec,
): Promise<{ pointer: string; id: string; request: string } | undefined> {
  const parent = pointer.split('/').slice(1, -1);
  const candidates = new Map<string, string>();
  for (const at of [parent, []]) {
    const node = valueAt(created, pointerOf(at));
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    for (const [name, value] of Object.entries(node)) {
      const candidate = pointerOf([...at, name]);
      const id = idOf(value);
      if (candidate === pointer || candidate === '/external_id' || id === undefined) continue;
      if (!candidates.has(candidate)) candidates.set(candidate, id);
    }
  }
  for (const [candidate, id] of [...candidates].slice(0, 4)) {
    const read = await session.send(readAt(id), token);
    if (read.status >= 200 && read.status < 300)
      return { pointer: candidate, id, request: said(read) };
  }
  return undefined;
}

/** What could be an id in a path: a short string without spaces, or an integer. */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'string' && /^[^\s/?#]{1,200}$/.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

function idMismatch(
  kind: 'order' | 'quote',
  read: Answer,
  elsewhere: { pointer: string; request: string },
): Mismatch {
  return {
    field: `dialect.answers.${kind}.id`,
    said: `${said(read)} answered 404 for the ${kind} just made, and ${elsewhere.request} read it back: the target shows the ${kind}'s id at ${elsewhere.pointer}`,
  };
}

function idAt(body: unknown, pointer: string): string | undefined {
  const id = valueAt(body, pointer);
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** `POST /api/on-demand/v1/orders`, as sent. */
function said(res: Answer): string {
  return res.request;
}

function describe(res: Answer): string {
  return `HTTP ${res.status}${codeOf(res)}`;
}

function codeOf(res: Answer): string {
  const code = (res.json as { code?: unknown } | undefined)?.code;
  return typeof code === 'string'
    ? ` ${code}`
    : res.json === undefined
      ? ''
      : ` ${preview(res.json)}`;
}
