import type { Dispatcher } from 'undici';
import type { Key } from '../../client/types.js';
import type { Product } from '../../control/types.js';
import { pathOf } from '../../target/dialect.js';
import { probeKey } from '../dialect-probe.js';
import { type ProbeConfig, ProbeSession } from '../probe-session.js';
import { docsUrlAtTheDoor, docsUrlOfAProblem, tokenOf } from './access.js';
import { readAccount } from './account.js';
import { catalogPage, catalogProduct, productsToOrder } from './catalog.js';
import { type Draft, notInferred } from './draft.js';
import { eventKind } from './events.js';
import { cancel, laterStates, shipmentsPath } from './fulfilment.js';
import { lists } from './lists.js';
import { moneyPlaces } from './money.js';
import { placeOrder, readOrderBack } from './order.js';
import { quote } from './quote.js';
import { type Steps, startDrafting } from './shared.js';
import { webhookEndpoint } from './webhook-endpoint.js';

/**
 * `--draft-profile`: a first profile from a live server (the `Draft`, in
 * draft.ts). The steps below run in this order, each in its own file; every
 * request the probe sends is one of theirs. A step that throws ends the
 * probe: what follows it is named in a TODO, and what it made is cleaned up.
 */
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
  // Every field the answers did not settle is named: never a silent guess.
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

/** The probe's steps, in the order their requests go out. */
async function steps(
  session: ProbeSession,
  draft: Draft,
  cleanups: (() => Promise<unknown>)[],
): Promise<void> {
  const drafting = startDrafting(session, draft);
  const docs = await docsUrlAtTheDoor(drafting);
  const keyed = await probeKey(session);
  if (!keyed) {
    draft.todos.push(
      'everything behind a key: the run had no control API with accounts and keys and no partner key (PARTNER_ACCESS_KEY_ID / PARTNER_SECRET_KEY)',
    );
    if ('todo' in docs) draft.todos.push(docs.todo);
    return;
  }
  const token = await tokenOf(drafting, keyed.key);
  if (token === undefined) return;
  const s: Steps = { ...drafting, token, money: [] };
  await readAccount(s);
  await catalogPage(s);
  const products = keyed.products ?? (await productsToOrder(s));
  await catalogProduct(s, products);
  await theOrder(s, keyed.key, products, cleanups);
  await lists(s);
  moneyPlaces(s);
  if ('todo' in docs) await docsUrlOfAProblem(s);
}

/**
 * One order of the starting profile's shape (test keys only), its body
 * fitted to the 422s; then what it shows: its reads, shipments, a quote of
 * it, its events, its cancel; a webhook endpoint for those events, and the
 * later states of a second order.
 */
async function theOrder(
  s: Steps,
  key: Key,
  products: readonly Product[],
  cleanups: (() => Promise<unknown>)[],
): Promise<void> {
  const { d, session, token, draft } = s;
  const placed = await placeOrder(s, products, key.mode);
  const orderId = placed?.id;
  let cancelled = false;
  if (!placed || !orderId) {
    draft.todos.push(
      "dialect.orderStatuses, eventKinds, webhookEndpointBody, quoteBody, answers.quote: not seen (they are read from the probe's own order, which was not placed)",
    );
    return;
  }
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
  await readOrderBack(s, placed);
  await shipmentsPath(s, orderId);
  await quote(s, placed.body);
  const created = await eventKind(s, orderId, undefined);
  cancelled = await cancel(s, orderId);
  if (cancelled && created) await eventKind(s, orderId, created);
  await webhookEndpoint(s);
  await laterStates(s, key, products);
}
