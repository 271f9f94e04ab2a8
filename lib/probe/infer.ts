import { pointerOf, valueAt } from '../evidence/json-pointer.js';
import type { AccountFields, MoneyFormat } from '../target/dialect.js';
import { moneyFormatOf } from './judge.js';

/**
 * What a draft profile infers from live answers: pure functions, each
 * answering what it found or, where the answer leaves it open, why (a TODO
 * for the user). They guess from names and types only where exactly one
 * member fits, never by picking among several.
 */
export type Inferred<T> = { value: T } | { todo: string };

/** Every member of an object, depth first, with its pointer (arrays are leaves). */
export function members(body: unknown, depth = 3, at: string[] = []): [string, unknown][] {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || depth === 0) return [];
  return Object.entries(body).flatMap(([name, value]): [string, unknown][] => [
    [pointerOf([...at, name]), value],
    ...members(value, depth - 1, [...at, name]),
  ]);
}

/** The key prefix of an Access Key ID (`odp_test_ak_…`) or an access token (`odp_at_…`). */
export function keyPrefixOf(...credentials: (string | undefined)[]): Inferred<string> {
  const found = new Set<string>();
  for (const credential of credentials) {
    const match = /^([a-z][a-z0-9]{1,15})_(?:(?:test|live)_[a-z]{2}|at)_/.exec(credential ?? '');
    if (match?.[1]) found.add(match[1]);
  }
  if (found.size === 1) return { value: [...found][0] as string };
  return {
    todo:
      found.size === 0
        ? 'dialect.keyPrefix: neither the Access Key ID nor the access token has the shape <prefix>_test_…, <prefix>_at_…'
        : `dialect.keyPrefix: the key and the token show different prefixes (${[...found].join(', ')})`,
  };
}

/** `{docs_url}` of a problem `type` (`{docs_url}/errors#error-<code>`, target contract section 2). */
export function docsUrlOf(problem: unknown): Inferred<string> {
  const type = valueAt(problem, '/type');
  const match =
    typeof type === 'string' ? /^(https?:\/\/\S+?)\/errors#error-[\w-]+$/.exec(type) : null;
  if (match?.[1]) return { value: match[1] };
  return {
    todo: `docsUrl: the problem's type ${type === undefined ? 'is missing' : JSON.stringify(type)} is not {docs_url}/errors#error-<code>`,
  };
}

const ACCOUNT_NAMES: Record<keyof AccountFields, { name: RegExp; fits: (v: unknown) => boolean }> =
  {
    livemode: { name: /live/i, fits: (v) => typeof v === 'boolean' },
    billingMethod: { name: /billing|payment/i, fits: (v) => typeof v === 'string' },
    scopes: {
      name: /scope/i,
      fits: (v) => Array.isArray(v) || typeof v === 'string',
    },
    maxOrderValue: {
      name: /^\/limits\/.*(value|amount|total)/i,
      fits: (v) => v !== null && typeof v !== 'boolean' && typeof v !== 'undefined',
    },
    maxOrdersPerDay: {
      name: /^\/limits\/.*(day|daily)/i,
      fits: (v) => typeof v === 'number' && Number.isInteger(v),
    },
  };

/** Where `GET /account` shows each field: the one member whose name and type fit. */
export function accountFieldsOf(account: unknown): Record<keyof AccountFields, Inferred<string>> {
  const all = members(account);
  const out = {} as Record<keyof AccountFields, Inferred<string>>;
  for (const [field, { name, fits }] of Object.entries(ACCOUNT_NAMES) as [
    keyof AccountFields,
    (typeof ACCOUNT_NAMES)[keyof AccountFields],
  ][]) {
    const candidates = all.filter(
      ([pointer, value]) =>
        name.test(
          field.startsWith('max')
            ? pointer
            : // The member's name, and for the billing method its object's too (`/billing/method`).
              pointer
                .split('/')
                .slice(field === 'billingMethod' ? -2 : -1)
                .join('/'),
        ) && fits(value),
    );
    // A money object's own members (`/limits/max_order_value/amount`) are not candidates of their own.
    const outermost = candidates.filter(
      ([pointer]) => !candidates.some(([other]) => pointer.startsWith(`${other}/`)),
    );
    out[field] =
      outermost.length === 1
        ? { value: (outermost[0] as [string, unknown])[0] }
        : {
            todo: `dialect.accountFields.${field}: ${
              outermost.length === 0
                ? 'no member of GET /account looks like it'
                : `several members could be it (${outermost.map(([p]) => p).join(', ')})`
            }`,
          };
  }
  // The document puts both limits under `limits` (section 8): with two members there and the
  // orders-per-day one found, the other is the maximum order value, whatever its name.
  const limits = valueAt(account, '/limits');
  const perDay = out.maxOrdersPerDay;
  if ('todo' in out.maxOrderValue && 'value' in perDay && isObject(limits)) {
    const others = Object.keys(limits)
      .map((k) => `/limits/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`)
      .filter((p) => p !== perDay.value);
    if (Object.keys(limits).length === 2 && others.length === 1 && others[0])
      out.maxOrderValue = { value: others[0] };
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The money format of a value: an object's amount and currency members found by type. */
export function moneyOf(value: unknown, where: string): Inferred<MoneyFormat> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    const amounts = entries.filter(([, v]) => typeof v === 'number' && Number.isInteger(v));
    const codes = entries.filter(
      ([, v]) => typeof v === 'string' && /^[A-Z]{3}$/.test(v as string),
    );
    // A currency code named like one, or the only one there is.
    const named = codes.filter(([n]) => /cur|ccy/i.test(n));
    const currencies = named.length > 0 ? named : codes;
    if (amounts.length === 1 && currencies.length === 1) {
      return {
        value: {
          format: 'object',
          amount: pointerOf([(amounts[0] as [string, unknown])[0]]),
          currency: pointerOf([(currencies[0] as [string, unknown])[0]]),
        },
      };
    }
  }
  const format = moneyFormatOf(value, { amount: '/amount', currency: '/currency' });
  if (format === 'cents' || format === 'decimal') {
    return { value: { format, amount: '/amount', currency: '/currency' } };
  }
  return {
    todo: `dialect.money: ${where} shows ${JSON.stringify(value)?.slice(0, 60)}, which is no money format the suite knows (object, integer cents, decimal string)`,
  };
}

export interface Envelope {
  items: string;
  hasMore: string | null;
  nextCursor: string | null;
}

/**
 * A list answer's envelope, from a page of one item out of several: the one
 * array member holds the items, a boolean member says more follow, a string
 * member whose name speaks of a cursor or the next page carries the cursor.
 */
export function envelopeOf(list: unknown): Inferred<Envelope> {
  const top = members(list, 1);
  const arrays = top.filter(([, v]) => Array.isArray(v));
  if (arrays.length !== 1) {
    return {
      todo: `dialect.list.items: ${arrays.length === 0 ? 'the list answer has no array member' : `the list answer has several arrays (${arrays.map(([p]) => p).join(', ')})`}`,
    };
  }
  const booleans = top.filter(([p, v]) => typeof v === 'boolean' && /more/i.test(p));
  const cursors = top.filter(([p, v]) => typeof v === 'string' && /cursor|next/i.test(p));
  if (booleans.length > 1 || cursors.length > 1 || booleans.length + cursors.length === 0) {
    return {
      todo: `dialect.list.hasMore / nextCursor: the list answer shows ${
        booleans.length + cursors.length === 0
          ? 'no has-more flag and no next cursor'
          : `several candidates (${[...booleans, ...cursors].map(([p]) => p).join(', ')})`
      }`,
    };
  }
  return {
    value: {
      items: (arrays[0] as [string, unknown])[0],
      hasMore: booleans[0]?.[0] ?? null,
      nextCursor: cursors[0]?.[0] ?? null,
    },
  };
}

/**
 * Where an answer shows its total: the one member (top level or one down)
 * named like a total, not a subtotal, whose value is money.
 */
export function totalOf(body: unknown, field: string): Inferred<string> {
  const found = members(body, 2).filter(
    ([p, v]) =>
      /total/i.test(p.slice(p.lastIndexOf('/') + 1)) &&
      !/sub/i.test(p.slice(p.lastIndexOf('/') + 1)) &&
      'value' in moneyOf(v, ''),
  );
  // A money object's own members are not totals of their own.
  const outer = found.filter(([p]) => !found.some(([o]) => p.startsWith(`${o}/`)));
  if (outer.length === 1) return { value: (outer[0] as [string, unknown])[0] };
  return {
    todo: `${field}: ${outer.length === 0 ? 'no member of the answer looks like a total' : `several members could be it (${outer.map(([p]) => p).join(', ')})`}`,
  };
}

/** The one member of an answer whose name fits and whose value has the type. */
export function memberOf(
  body: unknown,
  names: RegExp,
  fits: (value: unknown) => boolean,
  field: string,
): Inferred<string> {
  const found = members(body, 1).filter(([p, v]) => names.test(p.slice(1)) && fits(v));
  if (found.length === 1) return { value: (found[0] as [string, unknown])[0] };
  return {
    todo: `${field}: ${found.length === 0 ? 'no member of the answer looks like it' : `several members could be it (${found.map(([p]) => p).join(', ')})`}`,
  };
}
