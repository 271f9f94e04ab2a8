import { escapeToken, valueAt } from '../evidence/json-pointer.js';
import type { Dialect, ErrorPointers, MoneyFormat, OperationName } from '../target/dialect.js';
import { NotVerifiable } from '../violations/harness-error.js';

/**
 * Reading answers through the dialect. The API document fixes an object's
 * identifier but not its name, and shows no list envelope, money, state names
 * or pointer form: the profile says where each is. When an answer does not
 * hold a fact where the profile says, a check cannot judge what rests on it:
 * it ends `not_verifiable` naming the profile field that would let it run
 * (`dialectGap`), never `failed` and never `error`: where the document says
 * "not shown", the target's choice is legal.
 */

/** The objects whose identifier the suite reads (`dialect.answers.<kind>.id`). */
export type AnswerKind = 'order' | 'quote' | 'webhookEndpoint' | 'event';

const KIND_NAMES: Record<AnswerKind, string> = {
  order: 'order',
  quote: 'quote',
  webhookEndpoint: 'webhook endpoint',
  event: 'event',
};

/**
 * The one way a check says that a dialect fact is missing: `not_verifiable`,
 * naming the profile field (`dialect.answers.order.id`) that would let it run.
 */
export function dialectGap(what: string, field: string, exchange?: number): NotVerifiable {
  const evidence = exchange === undefined ? '' : ` (evidence #${exchange})`;
  return new NotVerifiable(
    `${what}${evidence}; the check needs it there: set ${field} in the profile if the target shows it elsewhere`,
  );
}

/** An identifier as a path can hold it: a non-empty string, or an integer written out. */
function asId(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** The identifier an answer shows where the dialect says; undefined when there is none. */
export function idIn(dialect: Dialect, kind: AnswerKind, body: unknown): string | undefined {
  return asId(valueAt(body, dialect.answers[kind].id));
}

/**
 * The identifier of an object the target answered (an order placed, an
 * endpoint made): without one where the profile says, `not_verifiable`.
 */
export function requireId(
  dialect: Dialect,
  kind: AnswerKind,
  body: unknown,
  what: string,
  exchange?: number,
): string {
  const id = idIn(dialect, kind, body);
  if (id !== undefined) return id;
  const pointer = dialect.answers[kind].id;
  throw dialectGap(
    `${what} shows no ${KIND_NAMES[kind]} id at ${pointer}`,
    `dialect.answers.${kind}.id`,
    exchange,
  );
}

/** Whether a status is the success status the dialect gives the operation. */
export function succeeded(dialect: Dialect, operation: OperationName, status: number): boolean {
  return status === dialect.operations[operation].status;
}

/** The `external_id` of an order answer: fixed by the API document (section 4). */
export function externalIdIn(body: unknown): unknown {
  return (body as { external_id?: unknown } | null | undefined)?.external_id;
}

/**
 * Money in the profile's format, in cents; undefined when the value is not
 * money of that format. Only the profile's format is read: an integer could
 * be cents or dollars, and a MUST check must not guess.
 */
export function centsIn(money: MoneyFormat, value: unknown): number | undefined {
  switch (money.format) {
    case 'object': {
      const amount = valueAt(value, money.amount);
      return typeof value === 'object' && value !== null && Number.isSafeInteger(amount)
        ? (amount as number)
        : undefined;
    }
    case 'cents':
      return Number.isSafeInteger(value) ? (value as number) : undefined;
    case 'decimal':
      return typeof value === 'string' && /^-?\d+(\.\d{1,2})?$/.test(value)
        ? Math.round(Number(value) * 100)
        : undefined;
  }
}

/** Cents written in the profile's money format (for fixtures and expected values in reports). */
export function moneyOf(money: MoneyFormat, cents: number, currency = 'USD'): unknown {
  switch (money.format) {
    case 'object': {
      const value: Record<string, unknown> = {};
      setAt(value, money.amount, cents);
      setAt(value, money.currency, currency);
      return value;
    }
    case 'cents':
      return cents;
    case 'decimal':
      return (cents / 100).toFixed(2);
  }
}

function setAt(target: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointer.split('/').slice(1);
  let node = target;
  for (const token of tokens.slice(0, -1)) {
    node[token] ??= {};
    node = node[token] as Record<string, unknown>;
  }
  node[tokens.at(-1) ?? ''] = value;
}

/** One page of a list answer, read through `dialect.list`. */
export interface ListPage {
  items: unknown[];
  /** Whether another page follows. */
  more: boolean;
  /** What to send as `cursorParam` for the next page (undefined on the last page). */
  cursor?: string;
}

/**
 * A list answer read where `dialect.list` says; a missing envelope is a
 * `dialectGap` naming the list field. The cursor of the next page is
 * `nextCursor`, or (when the dialect has none) the last item's id at
 * `itemId` (a pointer into one item: `dialect.answers.<kind>.id`).
 */
export function listPage(
  dialect: Dialect,
  body: unknown,
  itemId: { pointer: string; field: string },
  exchange?: number,
): ListPage {
  const list = dialect.list;
  const items = valueAt(body, list.items);
  if (!Array.isArray(items)) {
    throw dialectGap(
      `the list answer has no array at ${list.items}`,
      'dialect.list.items',
      exchange,
    );
  }
  let more: boolean | undefined;
  if (list.hasMore !== null) {
    const flag = valueAt(body, list.hasMore);
    if (typeof flag !== 'boolean') {
      throw dialectGap(
        `the list answer has no boolean at ${list.hasMore}`,
        'dialect.list.hasMore',
        exchange,
      );
    }
    more = flag;
  }
  let cursor: string | undefined;
  if (list.nextCursor !== null) {
    const next = valueAt(body, list.nextCursor);
    cursor = typeof next === 'string' && next.length > 0 ? next : undefined;
    more ??= cursor !== undefined;
  } else if (more) {
    cursor = asId(valueAt(items.at(-1), itemId.pointer));
    if (cursor === undefined && items.length > 0) {
      throw dialectGap(
        `the last item of a list page shows no id at ${itemId.pointer} to page on`,
        itemId.field,
        exchange,
      );
    }
  }
  return { items, more: more === true, ...(cursor === undefined ? {} : { cursor }) };
}

/** The id pointer of the items of a list, and the profile field naming it. */
export function itemIdOf(dialect: Dialect, kind: AnswerKind): { pointer: string; field: string } {
  return { pointer: dialect.answers[kind].id, field: `dialect.answers.${kind}.id` };
}

/** The query of a list page: the page size (at most `maxLimit`) and the cursor, named as the dialect says. */
export function pageQuery(
  dialect: Dialect,
  options: { limit?: number; cursor?: string | undefined },
): Record<string, string> {
  const { limitParam, cursorParam, maxLimit } = dialect.list;
  return {
    ...(options.limit === undefined
      ? {}
      : { [limitParam]: String(Math.min(options.limit, maxLimit)) }),
    ...(options.cursor === undefined ? {} : { [cursorParam]: options.cursor }),
  };
}

/**
 * Where an `errors[]` entry points, as a JSON pointer (RFC 6901), read from the
 * member and in the form the dialect says; undefined when it points nowhere.
 */
export function entryPointer(errors: ErrorPointers, entry: unknown): string | undefined {
  const value = (entry as Record<string, unknown> | null | undefined)?.[errors.member];
  if (typeof value !== 'string') return undefined;
  switch (errors.form) {
    case 'json-pointer':
      return value;
    case 'dot':
      return value === '' ? '' : `/${value.split('.').map(escapeToken).join('/')}`;
    case 'bracket': {
      const tokens = value.match(/[^.[\]]+/g) ?? [];
      return tokens.length === 0 ? '' : `/${tokens.map(escapeToken).join('/')}`;
    }
  }
}

/** A JSON pointer written in the dialect's form (for expected values in reports). */
export function pointerInForm(errors: ErrorPointers, pointer: string): string {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  switch (errors.form) {
    case 'json-pointer':
      return pointer;
    case 'dot':
      return tokens.join('.');
    case 'bracket':
      return tokens.map((t, i) => (/^\d+$/.test(t) ? `[${t}]` : i === 0 ? t : `.${t}`)).join('');
  }
}
