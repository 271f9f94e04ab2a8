import { ADDRESS_FIELDS, type BodyShape, type Dialect } from './model.js';
import { get, isObject, type Json, take, tokens, toPointer } from './pointer.js';

/**
 * A request body of the dialect as the reference's, and the way back for
 * the pointers of a 422: the domain validates the reference body, and each
 * `errors[]` pointer it names is turned into the place the client used.
 */
export interface ReferenceBody {
  body: Json;
  /** A pointer into the reference body → the same place in the dialect's. */
  toDialect(pointer: string): string;
}

type JsonObject = Record<string, unknown>;

/**
 * Fields of the dialect's body that the reference does not know are carried
 * over into the nearest matching object of the reference body (the top, a
 * line, the address), so the domain refuses them as unknown fields (§4) and
 * their pointers lead back to where they were.
 */
class Leftovers {
  readonly #map = new Map<string, string>();
  #n = 0;

  /** Moves each member left in `rest` (at dialect pointer `from`) into `into` (at reference pointer `at`). */
  carry(
    rest: JsonObject,
    from: string,
    into: JsonObject,
    at: string,
    known: readonly string[],
    descend: (
      pointer: string,
    ) => { into: JsonObject; at: string; known: readonly string[] } | 'same' | undefined,
  ): void {
    for (const [key, value] of Object.entries(rest)) {
      const pointer = `${from}${toPointer([key])}`;
      const inner = isObject(value) ? descend(pointer) : undefined;
      if (inner === 'same') {
        this.carry(value as JsonObject, pointer, into, at, known, descend);
        continue;
      }
      if (inner !== undefined) {
        this.carry(value as JsonObject, pointer, inner.into, inner.at, inner.known, descend);
        continue;
      }
      const name =
        Object.hasOwn(into, key) || known.includes(key) ? `${key}_${++this.#n}_unknown` : key;
      into[name] = value;
      this.#map.set(`${at}${toPointer([name])}`, pointer);
    }
  }

  /** The dialect pointer of a carried field (or of something inside it). */
  lookup(pointer: string): string | undefined {
    for (const [ref, dialect] of this.#map) {
      if (pointer === ref) return dialect;
      if (pointer.startsWith(`${ref}/`)) return dialect + pointer.slice(ref.length);
    }
    return undefined;
  }
}

/** The longest common parent object of the address fields, `''` when they share none but the body. */
function addressContainer(shape: BodyShape): string {
  const parents = ADDRESS_FIELDS.map((f) => tokens(shape.address[f]).slice(0, -1));
  const first = parents[0] ?? [];
  let length = first.length;
  for (const parent of parents) {
    let i = 0;
    while (i < length && parent[i] === first[i]) i++;
    length = i;
  }
  return toPointer(first.slice(0, length));
}

/** True when `pointer` is an object on the way to one of `fields`. */
function holds(pointer: string, fields: readonly string[]): boolean {
  return fields.some((field) => field.startsWith(`${pointer}/`));
}

/** An order body (`withExternalId`) or a quote body of the dialect, as the reference's. */
export function orderBodyToReference(
  shape: BodyShape,
  withExternalId: boolean,
  input: Json,
): ReferenceBody {
  if (!isObject(input)) return { body: input, toDialect: (p) => p };
  const rest = structuredClone(input);
  const out: JsonObject = {};
  const leftovers = new Leftovers();
  if (withExternalId) {
    const externalId = take(rest, '/external_id');
    if (externalId !== undefined) out.external_id = externalId;
  }

  const items = take(rest, shape.items);
  if (Array.isArray(items)) {
    out.items = items.map((line: Json, index) => {
      if (!isObject(line)) return line;
      const lineRest = line;
      const refLine: JsonObject = {};
      const sku = take(lineRest, shape.sku);
      if (sku !== undefined) refLine.sku = sku;
      const quantity = take(lineRest, shape.quantity);
      if (quantity !== undefined) refLine.quantity = quantity;
      leftovers.carry(
        lineRest,
        `${shape.items}/${index}`,
        refLine,
        `/items/${index}`,
        ['sku', 'quantity'],
        (pointer) => {
          const inLine = pointer.slice(`${shape.items}/${index}`.length);
          return holds(inLine, [shape.sku, shape.quantity]) ? 'same' : undefined;
        },
      );
      return refLine;
    });
  } else if (items !== undefined) out.items = items;

  const container = addressContainer(shape);
  const held = container === '' ? undefined : get(rest, container);
  if (held !== undefined && !isObject(held)) {
    // Not an object where the address belongs: the domain says so, at the container.
    take(rest, container);
    out.shipping_address = held;
  } else if (container === '' || held !== undefined) {
    const address: JsonObject = {};
    for (const field of ADDRESS_FIELDS) {
      const value = take(rest, shape.address[field]);
      if (value !== undefined) address[field] = value;
    }
    out.shipping_address = address;
  }

  const addressFields = ADDRESS_FIELDS.map((f) => shape.address[f]);
  const refAddress = isObject(out.shipping_address) ? out.shipping_address : undefined;
  leftovers.carry(
    rest,
    '',
    out,
    '',
    withExternalId ? ['external_id', 'items', 'shipping_address'] : ['items', 'shipping_address'],
    (pointer) => {
      if (pointer === container && refAddress)
        return { into: refAddress, at: '/shipping_address', known: ADDRESS_FIELDS };
      return holds(pointer, [...addressFields, shape.items]) ? 'same' : undefined;
    },
  );

  const toDialect = (pointer: string): string => {
    const carried = leftovers.lookup(pointer);
    if (carried !== undefined) return carried;
    const [head, second, third, ...more] = tokens(pointer);
    const tail = (from: readonly string[]) => toPointer(from);
    if (head === 'items') {
      if (second === undefined) return shape.items;
      const line = `${shape.items}/${second}`;
      if (third === 'sku') return line + shape.sku + tail(more);
      if (third === 'quantity') return line + shape.quantity + tail(more);
      return line + tail(third === undefined ? [] : [third, ...more]);
    }
    if (head === 'shipping_address') {
      if (second === undefined) return container;
      const field = shape.address[second as (typeof ADDRESS_FIELDS)[number]];
      if (field !== undefined) return field + tail(third === undefined ? [] : [third, ...more]);
    }
    return pointer;
  };
  return { body: out, toDialect };
}

/** The event kinds of the dialect that are named otherwise than the reference's. */
function kindToReference(dialect: Dialect): (kind: unknown) => unknown {
  const map = new Map<unknown, string>();
  // A reference name this dialect calls otherwise is no kind of it.
  for (const reference of ['order.created', 'order.cancelled']) map.set(reference, `${reference}?`);
  map.set(dialect.eventKinds.orderCreated, 'order.created');
  map.set(dialect.eventKinds.orderCancelled, 'order.cancelled');
  return (kind) => map.get(kind) ?? kind;
}

/** A webhook endpoint creation body of the dialect, as the reference's `{url, events?}`. */
export function webhookBodyToReference(dialect: Dialect, input: Json): ReferenceBody {
  if (!isObject(input)) return { body: input, toDialect: (p) => p };
  const shape = dialect.webhookEndpointBody;
  const rest = structuredClone(input);
  const out: JsonObject = {};
  const leftovers = new Leftovers();
  const url = take(rest, shape.url);
  if (url !== undefined) out.url = url;
  if (shape.events !== null) {
    const events = take(rest, shape.events);
    const toReference = kindToReference(dialect);
    if (Array.isArray(events)) out.events = events.map(toReference);
    else if (events !== undefined) out.events = events;
  }
  const fields = [shape.url, ...(shape.events === null ? [] : [shape.events])];
  leftovers.carry(rest, '', out, '', ['url', 'events'], (pointer) =>
    holds(pointer, fields) ? 'same' : undefined,
  );
  return {
    body: out,
    toDialect: (pointer) => {
      const carried = leftovers.lookup(pointer);
      if (carried !== undefined) return carried;
      const [head, ...more] = tokens(pointer);
      if (head === 'url') return shape.url + toPointer(more);
      if (head === 'events' && shape.events !== null) return shape.events + toPointer(more);
      return pointer;
    },
  };
}
