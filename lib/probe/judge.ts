import { entryPointer } from '../check/answers.js';
import { valueAt } from '../evidence/json-pointer.js';
import {
  type Dialect,
  type ErrorPointers,
  MONEY_PLACES,
  type MoneyFormat,
  type MoneyFormats,
  type MoneyPlace,
  moneyAt,
  type OrderBodyShape,
} from '../target/dialect.js';
import { escapeRegExp } from '../text/escape-regexp.js';
import { membersNear } from './pointer.js';

/**
 * The dialect probe's judgements, one per thing it reads: pure functions of
 * an answer and the profile's dialect. Each finding names the profile field
 * that would have to change and what the target answered. They judge only
 * what a correct target in the profile's dialect cannot answer otherwise:
 * a refusal for the key, a limit or a failing server is no mismatch.
 */
export interface Mismatch {
  /** The profile field, as written in a profile: `dialect.orderBody.items`. */
  field: string;
  /** What the target answered, in words; never a secret (answers are redacted before). */
  said: string;
}

/** One terminal line per mismatch. */
export function mismatchLine(m: Mismatch): string {
  return `dialect mismatch: ${m.field}: ${m.said}`;
}

/**
 * `GET /account`: every account field where the profile says (the maximum
 * order value's money format is judged with the other places: judgeMoney).
 * The names are the dialect's, what the account shows is the document's
 * (section 2, the limits in the object `limits`): a field missing where the
 * profile says is a mismatch only where the answer shows it under another
 * name (`elsewhere`, found by name and type) or, for a limit, under another
 * name inside `limits`. An account without the object `limits`, or showing
 * nothing that looks like the field, breaks the document, not the profile: a
 * note, and the READ checks judge it.
 */
export function judgeAccount(
  body: unknown,
  dialect: Dialect,
  request: string,
  elsewhere: Partial<Record<keyof Dialect['accountFields'], string>> = {},
): { mismatches: Mismatch[]; notes: string[] } {
  const found: { mismatches: Mismatch[]; notes: string[] } = { mismatches: [], notes: [] };
  const limits = valueAt(body, '/limits');
  const noLimits = typeof limits !== 'object' || limits === null || Array.isArray(limits);
  for (const [name, pointer] of Object.entries(dialect.accountFields)) {
    if (valueAt(body, pointer) !== undefined) continue;
    const field = name as keyof Dialect['accountFields'];
    const limit = field === 'maxOrderValue' || field === 'maxOrdersPerDay';
    const other = elsewhere[field];
    if (limit && noLimits) {
      if (field === 'maxOrderValue')
        found.notes.push(
          `${request} shows no object limits, where the API document puts the order limits (section 2): no dialect matter, the checks judge it`,
        );
    } else if (limit || other !== undefined) {
      found.mismatches.push({
        field: `dialect.accountFields.${name}`,
        said: `${request} shows nothing at ${pointer}${other === undefined ? '' : `, and something like it at ${other}`} (${membersNear(body, pointer)})`,
      });
    } else {
      found.notes.push(
        `${request} shows nothing at ${pointer} (dialect.accountFields.${name}) and no member like it: no dialect matter the probe can tell, the checks judge it (${membersNear(body, pointer)})`,
      );
    }
  }
  return found;
}

/** A list answer: the items array and the has-more flag where the profile says. */
export function judgeList(body: unknown, dialect: Dialect, request: string): Mismatch[] {
  const found: Mismatch[] = [];
  const { items, hasMore } = dialect.list;
  if (!Array.isArray(valueAt(body, items))) {
    found.push({
      field: 'dialect.list.items',
      said: `${request} has no array at ${items} (${membersNear(body, items)})`,
    });
  }
  if (hasMore !== null && typeof valueAt(body, hasMore) !== 'boolean') {
    found.push({
      field: 'dialect.list.hasMore',
      said: `${request} has no true or false at ${hasMore} (${describeAt(body, hasMore)})`,
    });
  }
  return found;
}

/**
 * A first order creation that succeeded: its status, id, state and a total
 * where the profile says (its money format: judgeMoney).
 */
export function judgeCreatedOrder(
  status: number,
  body: unknown,
  dialect: Dialect,
  request: string,
): Mismatch[] {
  const found: Mismatch[] = [];
  const expected = dialect.operations.orderCreate.status;
  if (status !== expected) {
    found.push({
      field: 'dialect.orderCreatedStatus',
      said: `${request} answered ${status} to a first creation; the profile says ${expected}`,
    });
  }
  found.push(...judgeOrder(body, dialect, request));
  const total = valueAt(body, dialect.totals.order);
  if (total === undefined) {
    found.push({
      field: 'dialect.totals.order',
      said: `${request} shows nothing at ${dialect.totals.order} (${membersNear(body, dialect.totals.order)})`,
    });
  }
  return found;
}

/** An order answer: its id and its state, one of the profile's state names. */
export function judgeOrder(body: unknown, dialect: Dialect, request: string): Mismatch[] {
  const found: Mismatch[] = [];
  const { id, status } = dialect.answers.order;
  const idValue = valueAt(body, id);
  if (typeof idValue !== 'string' && typeof idValue !== 'number') {
    found.push({
      field: 'dialect.answers.order.id',
      said: `${request} shows no id at ${id} (${describeAt(body, id)})`,
    });
  }
  const state = valueAt(body, status);
  if (state === undefined) {
    found.push({
      field: 'dialect.answers.order.status',
      said: `${request} shows nothing at ${status} (${membersNear(body, status)})`,
    });
  } else if (!Object.values(dialect.orderStatuses).includes(state as string)) {
    found.push({
      field: 'dialect.orderStatuses',
      said: `${request} shows the state ${preview(state)} at ${status}; the profile names ${Object.values(
        dialect.orderStatuses,
      )
        .map((s) => JSON.stringify(s))
        .join(', ')}`,
    });
  }
  return found;
}

/**
 * A 422 to the order (or the quote) the profile describes: the target wants
 * another body. Names the body fields its `errors[]` point at (or the whole
 * body when it points elsewhere) and quotes every pointer.
 */
export function judgeRefusedBody(
  body: unknown,
  dialect: Dialect,
  request: string,
  status: number,
  section: 'orderBody' | 'quoteBody',
): Mismatch {
  const shape = dialect[section];
  const pointers = errorPointers(body, dialect.errors);
  const fields = implicatedFields(pointers, shape);
  const code = valueAt(body, '/code');
  const what = section === 'orderBody' ? 'an order' : 'a quote';
  const said = `${request} answered ${status}${typeof code === 'string' ? ` ${code}` : ''} to ${what} of the profile's shape (${bodyOutline(shape, fields)}), with ${
    pointers.length
      ? `errors[] at ${pointers.join(', ')}`
      : `no errors[] ${dialect.errors.member} (${entriesOutline(body) ?? describeAt(body, '/detail')})`
  }`;
  return {
    field: fields.length
      ? fields.map((f) => `dialect.${section}.${f}`).join(', ')
      : `dialect.${section}`,
    said,
  };
}

/**
 * What the entries of `errors[]` hold when none has the profile's member: the
 * member names and the first string values, so that a pointer under another
 * name (`dialect.errors.member`) shows at once.
 */
function entriesOutline(body: unknown): string | undefined {
  const errors = valueAt(body, '/errors');
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const members = new Set<string>();
  for (const entry of errors)
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry))
      for (const key of Object.keys(entry)) members.add(key);
  if (members.size === 0) return undefined;
  const first = errors[0] as Record<string, unknown>;
  return `its ${errors.length} errors[] entries have the members ${[...members].join(', ')}, the first ${preview(first)}: if one of them points at the field, it is dialect.errors.member`;
}

/** The `errors[]` pointers of a problem, turned into JSON pointers from the profile's form. */
function errorPointers(body: unknown, form: ErrorPointers): string[] {
  const errors = valueAt(body, '/errors');
  if (!Array.isArray(errors)) return [];
  // One conversion of the profile's pointer form, the one the checks use.
  return errors.flatMap((entry) => {
    const pointer = entryPointer(form, entry);
    return pointer === undefined ? [] : [pointer];
  });
}

/** The order body fields an error pointer concerns: the field itself, inside it, or around it. */
function implicatedFields(pointers: readonly string[], shape: OrderBodyShape): string[] {
  const found = new Set<string>();
  const line = new RegExp(`^${escapeRegExp(shape.items)}/\\d+(/.*)?$`);
  for (const p of pointers) {
    if (p === '') continue;
    const inLine = line.exec(p);
    if (inLine) {
      const rest = inLine[1] ?? '';
      if (rest === shape.sku || rest.startsWith(`${shape.sku}/`)) found.add('sku');
      else if (rest === shape.quantity || rest.startsWith(`${shape.quantity}/`))
        found.add('quantity');
      else found.add('items');
      continue;
    }
    if (related(p, shape.items)) found.add('items');
    for (const [field, at] of Object.entries(shape.address))
      if (related(p, at)) found.add(`address.${field}`);
  }
  return [...found];
}

/** Whether a value is money in the profile's format. */
function fitsMoney(value: unknown, money: MoneyFormat): boolean {
  return moneyFormatOf(value, money) === money.format;
}

/** Which money format a value shows (`object` with the given members), if any. */
export function moneyFormatOf(
  value: unknown,
  members: Pick<MoneyFormat, 'amount' | 'currency'>,
): MoneyFormat['format'] | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return 'cents';
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return 'decimal';
  if (
    typeof value === 'object' &&
    value !== null &&
    Number.isInteger(valueAt(value, members.amount)) &&
    typeof valueAt(value, members.currency) === 'string'
  )
    return 'object';
  return undefined;
}

/** Money the probe saw at one place: the value and where, in words. */
export interface MoneySeen {
  place: MoneyPlace;
  value: unknown;
  where: string;
}

/**
 * Money at every place the probe saw, each in the format the profile gives
 * its place (`dialect.money.<place>`, else `dialect.money`). When every place
 * seen is off the same way and the profile states no place apart, the
 * format of every place is wrong: one line naming `dialect.money`; otherwise
 * one line per place, naming it (`dialect.money.maxOrderValue.format`).
 */
export function judgeMoney(seen: readonly MoneySeen[], money: MoneyFormats): Mismatch[] {
  const off = seen.filter(({ place, value }) => !fitsMoney(value, moneyAt(money, place)));
  if (off.length === 0) return [];
  // How a value shows money: its format, else (an object of other members) its members.
  const shown = (value: unknown) =>
    moneyFormatOf(value, money) ??
    (typeof value === 'object' && value !== null
      ? `members ${Object.keys(value).sort().join()}`
      : preview(value));
  const placesStated = MONEY_PLACES.some((place) => money[place] !== undefined);
  const allAlike =
    !placesStated &&
    off.length === seen.length &&
    off.every(({ value }) => shown(value) === shown(off[0]?.value));
  if (allAlike) {
    const where = off.map(({ value, where }) => `${where} shows ${preview(value)}`).join('; ');
    return [
      {
        field: fieldOf(money, off[0]?.value, 'dialect.money'),
        said: `${where}, where the profile's money format "${money.format}" is ${wanted(money)}`,
      },
    ];
  }
  return off.map(({ place, value, where }) => {
    const format = moneyAt(money, place);
    return {
      field: fieldOf(format, value, `dialect.money.${place}`),
      said: `${where} shows ${preview(value)}, where the profile's money format for ${place} "${format.format}" is ${wanted(format)}${money[place] === undefined ? ' (it states no format of its own for this place: dialect.money holds)' : ''}`,
    };
  });
}

/** `<field>` when an object has other members than the profile's, else `<field>.format`. */
function fieldOf(format: MoneyFormat, value: unknown, field: string): string {
  return format.format === 'object' && typeof value === 'object' && value !== null
    ? field
    : `${field}.format`;
}

function wanted(money: MoneyFormat): string {
  return money.format === 'object'
    ? `an object with integer cents at ${money.amount} and a currency at ${money.currency}`
    : money.format === 'cents'
      ? 'an integer of cents'
      : 'a decimal string such as "12.34"';
}

function bodyOutline(shape: OrderBodyShape, fields: readonly string[]): string {
  const at = (field: string): string => {
    if (field === 'items' || field === 'sku' || field === 'quantity') return shape[field];
    return shape.address[field.slice('address.'.length) as keyof OrderBodyShape['address']];
  };
  const named = fields.length ? fields : ['items', 'sku', 'quantity', 'address.name'];
  return `the profile puts ${named.map((f) => `${f} at ${at(f)}`).join(', ')}`;
}

function related(pointer: string, field: string): boolean {
  return pointer === field || pointer.startsWith(`${field}/`) || field.startsWith(`${pointer}/`);
}

function describeAt(body: unknown, pointer: string): string {
  const value = valueAt(body, pointer);
  return value === undefined ? membersNear(body, pointer) : `it shows ${preview(value)}`;
}

/** A value as a short JSON text. */
export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
