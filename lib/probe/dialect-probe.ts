import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { cheapestLine, orderBodyOf } from '../check/order-body.js';
import type { Key } from '../client/types.js';
import type { Product } from '../control/types.js';
import type { Exchange } from '../evidence/exchange.js';
import { pathOf } from '../target/dialect.js';
import {
  judgeAccount,
  judgeCreatedOrder,
  judgeList,
  judgeOrder,
  judgeRefusedOrder,
  type Mismatch,
  preview,
} from './judge.js';
import { valueAt } from './pointer.js';
import { type Answer, type ProbeConfig, ProbeSession } from './probe-session.js';
import { productsIn } from './products.js';

/**
 * Issue 11, point 3: before any check, does the target speak the profile's
 * dialect? A few requests in the run's own account (a fresh control account
 * and key, as a check file gets them; else the partner's test key) read the
 * account, place one order of the profile's shape and read it back, and read
 * one list. A target that answers otherwise than the profile says gets one
 * line per mismatch, naming the profile field, and the run stops (exit 2)
 * instead of ending in sixty `error` results. What the probe cannot judge (a
 * refused key, a limit, a failing server) is a note: the checks judge it.
 */
export interface DialectProbe {
  mismatches: Mismatch[];
  /** Why the probe looked at less than it could; never a mismatch. */
  notes: string[];
  /** The probe's exchanges, redacted where they were recorded. */
  evidence: Exchange[];
  /** Requests sent (API and control). */
  requests: number;
  /** The partner key's requests among them, for the checks' pacer (RunConfig.partnerProbeSent). */
  partnerSent: { kind: 'read' | 'write' | 'token'; at: number }[];
  durationMs: number;
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
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    await steps(session, mismatches, notes, cleanups);
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
    evidence: session.recorder.take().evidence,
    requests: session.sent,
    partnerSent: session.partnerSent,
    durationMs: Math.round(performance.now() - started),
  };
}

async function steps(
  session: ProbeSession,
  mismatches: Mismatch[],
  notes: string[],
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
    mismatches.push(pathMismatch(granted.refused, 'token'));
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
    name: Parameters<typeof pathOf>[1],
    op: keyof typeof dialect.operations,
    params?: Record<string, string>,
  ) => ({
    method: dialect.operations[op].method,
    path: pathOf(dialect, name, params),
  });

  const accountReq = call('account', 'account');
  const account = await session.send(accountReq, token);
  if (!judgeAnswer(account, 'account', mismatches, notes)) {
    // Not read: nothing to judge.
  } else {
    mismatches.push(...judgeAccount(account.json, dialect, said(account)));
  }

  const orderPlaced = await placeOrder(session, key, token, accountProducts, mismatches, notes);
  if (orderPlaced && key.accountId === undefined) {
    // Sandbox etiquette: the partner key's order is cancelled again.
    cleanups.push(() =>
      session.send(call('orderCancel', 'orderCancel', { id: orderPlaced }), token),
    );
  }

  const list = await session.send(
    { ...call('orders', 'orderList'), query: { [dialect.list.limitParam]: '1' } },
    token,
  );
  if (list.status === 400 || list.status === 422) {
    mismatches.push({
      field: 'dialect.list.limitParam',
      said: `${said(list)} answered ${list.status} to the page size ?${dialect.list.limitParam}=1 (${describe(list)})`,
    });
  } else if (judgeAnswer(list, 'orders', mismatches, notes)) {
    mismatches.push(...judgeList(list.json, dialect, said(list)));
  }
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

/** Places one order of the profile's shape and reads it back; answers its id when one was placed. */
async function placeOrder(
  session: ProbeSession,
  key: Key,
  token: string,
  accountProducts: readonly Product[] | undefined,
  mismatches: Mismatch[],
  notes: string[],
): Promise<string | undefined> {
  const { dialect } = session.config;
  if (key.mode !== 'test') {
    notes.push('no order placed with a live key: the order body was not probed');
    return undefined;
  }
  let products = accountProducts;
  if (!products) {
    const catalog = await session.send(
      {
        method: dialect.operations.catalogProducts.method,
        path: dialect.paths.catalogProducts,
        query: { [dialect.list.limitParam]: String(dialect.list.maxLimit) },
      },
      token,
    );
    if (!judgeAnswer(catalog, 'catalogProducts', mismatches, notes)) return undefined;
    const listed = judgeList(catalog.json, dialect, said(catalog));
    mismatches.push(...listed);
    if (listed.length) return undefined;
    products = productsIn(catalog.json, dialect);
  }
  let line: ReturnType<typeof cheapestLine>;
  try {
    line = cheapestLine(products);
  } catch {
    notes.push('no product to order without freight: the order body was not probed');
    return undefined;
  }
  const body = orderBodyOf(dialect.orderBody, {
    externalId: `probe-${randomUUID()}`,
    items: [line],
    address: PROBE_ADDRESS,
  });
  const created = await session.send(
    {
      method: dialect.operations.orderCreate.method,
      path: dialect.paths.orders,
      json: body,
      headers: { 'idempotency-key': `ct-probe-${randomUUID()}` },
    },
    token,
  );
  const request = said(created);
  if (created.status >= 200 && created.status < 300) {
    mismatches.push(...judgeCreatedOrder(created.status, created.json, dialect, request));
    const id = idAt(created.json, dialect.answers.order.id);
    if (id === undefined) return undefined;
    const read = await session.send(
      { method: dialect.operations.orderRead.method, path: pathOf(dialect, 'order', { id }) },
      token,
    );
    if (judgeAnswer(read, 'order', mismatches, notes))
      mismatches.push(...judgeOrder(read.json, dialect, said(read)));
    return id;
  }
  if (created.status === 404 || created.status === 405) {
    mismatches.push(pathMismatch(created, 'orders'));
    return undefined;
  }
  if (NOT_THE_BODY.has(created.status) || (created.status === 422 && refusedForLimit(created))) {
    notes.push(`its order was refused (${describe(created)}): the order body was not probed`);
    return undefined;
  }
  if (created.status >= 400 && created.status < 500) {
    mismatches.push(judgeRefusedOrder(created.json, dialect, request, created.status));
    return undefined;
  }
  notes.push(`its order got ${describe(created)}: the order body was not probed`);
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
 * 200 (or the operation's status): read on. 404: the profile's path is
 * wrong, a mismatch. Anything else: a note, the checks judge it.
 */
function judgeAnswer(
  res: Answer,
  path: 'account' | 'orders' | 'order' | 'catalogProducts',
  mismatches: Mismatch[],
  notes: string[],
): boolean {
  if (res.status >= 200 && res.status < 300 && res.json !== undefined) return true;
  if (res.status === 404 || res.status === 405) mismatches.push(pathMismatch(res, path));
  else notes.push(`${said(res)} got ${describe(res)}: not judged`);
  return false;
}

function pathMismatch(res: Answer, path: string): Mismatch {
  return {
    field: `dialect.paths.${path}`,
    said: `${said(res)} answered ${res.status}${codeOf(res)}`,
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
