import { entryPointer } from '../check/answers.js';
import { valueAt } from '../evidence/json-pointer.js';
import type { ErrorPointers } from '../target/dialect.js';
import { escapeRegExp } from '../text/escape-regexp.js';

/**
 * For a profile drafted from a live server: where it wants each field of a request body,
 * from the `errors[]` pointers of its 422s. A body is sent with each field in
 * a place; the 422 points at the places it does not know (ours: that field
 * is wrong) and at the places it misses (theirs: some field belongs there).
 * `refit` pairs the wrong fields with the missing places, by name when a
 * name fits (the common alternatives below), by elimination when one is left
 * of each, else by trying one per round; a field with nothing left to try is
 * stuck (a TODO, never a guess). Pure: the draft sends, `refit` decides.
 */
export interface BodyField {
  /** As the profile names it: `items`, `sku`, `address.city`, `url`. */
  name: string;
  /** Its place now: into the body, or into one line for `line` fields. */
  place: string;
  /** A field of one line of the `items` array (`sku`, `quantity`). */
  line: boolean;
  /** Names it is commonly given, best first. */
  hints: readonly string[];
  /** Fields that usually share one object (the address): moved together. */
  grouped: boolean;
  /** The server may well not miss it (`address.line2`): never paired by elimination. */
  optional: boolean;
  /**
   * An array whose entries the server judges (`items`, `events`): a pointer
   * inside it is about a value (a line's field, an unknown kind), not its place.
   */
  valued: boolean;
}

const ADDRESS_HINTS: Record<string, readonly string[]> = {
  name: [
    'name',
    'recipient',
    'full_name',
    'recipient_name',
    'attention',
    'contact_name',
    'contact',
  ],
  line1: ['line1', 'street', 'address1', 'address_line1', 'street1', 'line_1', 'street_address'],
  line2: [
    'line2',
    'street2',
    'address2',
    'address_line2',
    'line_2',
    'unit',
    'suite',
    'apartment',
    'street_extra',
    'extra',
  ],
  city: ['city', 'town', 'locality'],
  state: ['state', 'region', 'province', 'state_code', 'county'],
  postal_code: ['postal_code', 'zip', 'zip_code', 'postcode', 'postal'],
  country: ['country', 'country_code', 'nation'],
};

/** Where the address object commonly is. */
const ADDRESS_CONTAINERS = [
  'shipping_address',
  'ship_to',
  'address',
  'shipping',
  'delivery',
  'destination',
  'delivery_address',
  'recipient',
] as const;

const HINTS: Record<string, readonly string[]> = {
  items: [
    'items',
    'lines',
    'line_items',
    'order_lines',
    'entries',
    'products',
    'positions',
    'cart',
  ],
  sku: ['sku', 'product_sku', 'sku_code', 'product_code', 'code', 'item', 'product', 'product_id'],
  quantity: ['quantity', 'qty', 'units', 'count'],
  url: ['url', 'endpoint', 'uri', 'target_url', 'callback_url', 'webhook_url', 'endpoint_url'],
  events: ['events', 'event_types', 'enabled_events', 'types', 'kinds', 'topics', 'subscriptions'],
};

/** The fields of an order (or quote) body in the shape given, for `refit`. */
export function orderBodyFields(shape: {
  items: string;
  sku: string;
  quantity: string;
  address: Record<string, string>;
}): BodyField[] {
  return [
    field('items', shape.items, false),
    field('sku', shape.sku, true),
    field('quantity', shape.quantity, true),
    ...Object.entries(shape.address).map(
      ([name, place]): BodyField => ({
        name: `address.${name}`,
        place,
        line: false,
        hints: ADDRESS_HINTS[name] ?? [name],
        grouped: true,
        optional: name === 'line2',
        valued: false,
      }),
    ),
  ];
}

/** A field of the webhook endpoint body. */
export function endpointBodyFields(shape: { url: string; events: string | null }): BodyField[] {
  return [
    field('url', shape.url, false),
    ...(shape.events === null ? [] : [field('events', shape.events, false)]),
  ];
}

function field(name: string, place: string, line: boolean): BodyField {
  return {
    name,
    place,
    line,
    hints: HINTS[name] ?? [name],
    grouped: false,
    optional: false,
    valued: name === 'items' || name === 'events',
  };
}

/** The fields, in place, and the history that keeps `refit` from trying a place twice. */
export interface Fitting {
  fields: BodyField[];
  /** Places tried per field (the first included). */
  tried: Map<string, Set<string>>;
  /** Address containers tried. */
  containers: Set<string>;
}

export function startFitting(fields: BodyField[]): Fitting {
  return {
    fields: fields.map((f) => ({ ...f })),
    tried: new Map(fields.map((f) => [f.name, new Set([f.place])])),
    containers: new Set([containerOf(fields.filter((f) => f.grouped).map((f) => f.place))]),
  };
}

/**
 * One round: the 422's pointers (JSON pointers) against the fields' places.
 * Moves each wrong field to its likeliest place; answers which fields were
 * wrong and which have nothing left to try.
 */
export function refit(
  fitting: Fitting,
  pointers: readonly string[],
): { bad: string[]; stuck: string[]; values: string[] } {
  const items = fitting.fields.find((f) => f.name === 'items');
  const lineRoot = items ? `${items.place}/0` : undefined;
  const normal = pointers.map((p) =>
    items
      ? p.replace(new RegExp(`^${escapeRegExp(items.place)}/\\d+(?=/|$)`), `${items.place}/0`)
      : p,
  );
  const abs = (f: BodyField) => (f.line ? `${lineRoot}${f.place}` : f.place);
  const concerns = (f: BodyField, p: string) => {
    const at = abs(f);
    // A line field is judged only by pointers into the line (not by a refused array around it).
    if (f.line && !(lineRoot !== undefined && p.startsWith(`${lineRoot}/`))) return false;
    if (p === at || at.startsWith(`${p}/`)) return true;
    // Inside an array of values: the values' errors, not the array's place.
    return !f.valued && p.startsWith(`${at}/`);
  };
  const insideValues = (p: string) =>
    fitting.fields.some((f) => f.valued && f.name !== 'items' && p.startsWith(`${abs(f)}/`));
  const judged = fitting.fields.filter((f) => normal.some((p) => concerns(f, p)));
  const missing = normal.filter(
    (p) =>
      !fitting.fields.some((f) => concerns(f, p)) &&
      !(lineRoot && p === lineRoot) &&
      !insideValues(p),
  );
  const inLine = (p: string) => lineRoot !== undefined && p.startsWith(`${lineRoot}/`);
  // Places missed and none of ours refused (the target ignores what it does not know): the
  // fields whose names fit the missed places are the suspects.
  const bad =
    judged.length > 0
      ? judged
      : fitting.fields.filter((f) =>
          missing.some(
            (p) =>
              inLine(p) === f.line &&
              score(f, inLine(p) ? p.slice((lineRoot ?? '').length) : p) > 0 &&
              !fitting.tried.get(f.name)?.has(inLine(p) ? p.slice((lineRoot ?? '').length) : p),
          ),
        );
  const pools = {
    line: missing.filter(inLine).map((p) => p.slice((lineRoot ?? '').length)),
    body: missing.filter((p) => !inLine(p)),
  };
  const used = new Set<string>();
  const open = new Set(bad.map((f) => f.name));
  const move = (f: BodyField, place: string) => {
    f.place = place;
    fitting.tried.get(f.name)?.add(place);
    open.delete(f.name);
  };
  const untried = (f: BodyField, p: string) => !used.has(p) && !fitting.tried.get(f.name)?.has(p);

  // 1. A whole address object refused: a new container for every grouped field, unless the
  //    missing places name the fields one by one (a flat address).
  const grouped = bad.filter((f) => f.grouped);
  const container = containerOf(fitting.fields.filter((f) => f.grouped).map((f) => f.place));
  if (grouped.length > 0 && container !== '' && normal.includes(container)) {
    const byName = pools.body.filter((p) => grouped.some((f) => score(f, p) > 0));
    const nonItems = pools.body.filter((p) => !items || score(items, p) === 0);
    if (byName.length < 2) {
      const next = nonItems.find((p) => !fitting.containers.has(p) && !used.has(p));
      const alternative = ADDRESS_CONTAINERS.map((c) => `/${c}`).find(
        (c) => !fitting.containers.has(c),
      );
      const to = next ?? alternative;
      if (to !== undefined) {
        fitting.containers.add(to);
        used.add(to);
        for (const f of grouped) move(f, `${to}/${lastToken(f.place)}`);
      }
    }
  }
  // 2. A field whose place the server wants deeper (`/product` where it misses `/product/code`).
  for (const f of bad) {
    if (!open.has(f.name) || f.valued) continue;
    const deeper = normal.find((p) => p.startsWith(`${abs(f)}/`));
    if (deeper === undefined) continue;
    const to = f.line ? deeper.slice((lineRoot ?? '').length) : deeper;
    if (untried(f, to)) move(f, to);
  }
  // 2. By name: the best-scoring missing place of each wrong field, unique.
  for (const f of bad) {
    if (!open.has(f.name)) continue;
    const pool = f.line ? pools.line : pools.body;
    const scored = pool
      .filter((p) => untried(f, p) && score(f, p) > 0)
      .sort((a, b) => score(f, b) - score(f, a));
    const best = scored[0];
    if (best === undefined) continue;
    // Another open field that scores this place higher takes it.
    const rival = bad.some(
      (g) => g !== f && open.has(g.name) && g.line === f.line && score(g, best) > score(f, best),
    );
    if (rival) continue;
    used.add(best);
    move(f, best);
  }
  // 3. A missing object where several grouped fields are still open: their container.
  const openGrouped = bad.filter((f) => f.grouped && open.has(f.name));
  const objectPlace = pools.body.find(
    (p) =>
      !used.has(p) &&
      openGrouped.length >= 2 &&
      !fitting.containers.has(p) &&
      openGrouped.every((f) => !fitting.tried.get(f.name)?.has(`${p}/${lastToken(f.place)}`)),
  );
  if (
    objectPlace !== undefined &&
    openGrouped.length >= 2 &&
    pools.body.filter((p) => !used.has(p)).length === 1
  ) {
    fitting.containers.add(objectPlace);
    used.add(objectPlace);
    for (const f of openGrouped) move(f, `${objectPlace}/${lastToken(f.place)}`);
  }
  // 4. By elimination: one open field (the optional ones aside) and one missing place left.
  for (const line of [true, false]) {
    const fields = bad.filter((f) => open.has(f.name) && f.line === line && !f.optional);
    const places = (line ? pools.line : pools.body).filter((p) => !used.has(p));
    const [only] = fields;
    const [place] = places;
    if (fields.length === 1 && places.length === 1 && only && place && untried(only, place)) {
      used.add(place);
      move(only, place);
    }
  }
  // 5. Still open: try the next missing place, then the common names in the field's own object.
  for (const f of bad) {
    if (!open.has(f.name)) continue;
    const pool = f.line ? pools.line : pools.body;
    const next = f.optional ? undefined : pool.find((p) => untried(f, p));
    // A grouped field goes where the others of its group now are.
    const settled = fitting.fields.filter((g) => g.grouped && g !== f && !open.has(g.name));
    const parent =
      f.grouped && settled.length > 0
        ? mostCommon(settled.map((g) => g.place.slice(0, g.place.lastIndexOf('/'))))
        : f.place.slice(0, f.place.lastIndexOf('/'));
    const named = f.hints.map((h) => `${parent}/${h}`).find((p) => untried(f, p));
    const to = next ?? named;
    if (to !== undefined) {
      used.add(to);
      move(f, to);
    }
  }
  return { bad: bad.map((f) => f.name), stuck: [...open], values: normal.filter(insideValues) };
}

/** How well a place's name fits a field: 3 its first name, 2 another, 1 containing one. */
function score(f: BodyField, place: string): number {
  const name = lastToken(place).toLowerCase();
  if (name === f.hints[0]) return 3;
  if (f.hints.includes(name)) return 2;
  return f.hints.some((h) => h.length > 2 && name.includes(h)) ? 1 : 0;
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

function lastToken(pointer: string): string {
  return pointer.slice(pointer.lastIndexOf('/') + 1);
}

/** The longest common parent of the places: `''` when only the body. */
function containerOf(places: readonly string[]): string {
  const parents = places.map((p) => p.split('/').slice(1, -1));
  const first = parents[0] ?? [];
  let length = first.length;
  for (const parent of parents) {
    let i = 0;
    while (i < length && parent[i] === first[i]) i++;
    length = i;
  }
  return first
    .slice(0, length)
    .map((t) => `/${t}`)
    .join('');
}

/** The member names an `errors[]` entry never uses for a field pointer. */
const NOT_A_POINTER = new Set(['detail', 'message', 'title', 'code', 'type', 'status', 'reason']);

/**
 * How `errors[]` entries point at a field: the one member whose values look
 * like field paths, and their form. Bare or dotted names without an index
 * read the same in the `dot` and `bracket` forms: `decided` is false then.
 */
export function errorsFormOf(
  problem: unknown,
  start: ErrorPointers,
): { value: ErrorPointers; decided: boolean } | undefined {
  const entries = valueAt(problem, '/errors');
  if (!Array.isArray(entries) || entries.length === 0) return undefined;
  const members = new Map<string, string[]>();
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    for (const [name, value] of Object.entries(entry)) {
      if (NOT_A_POINTER.has(name) || typeof value !== 'string') continue;
      if (!/^(\/[^\s]*|[A-Za-z_][\w-]*([.[][\w\]-]*)*|)$/.test(value)) continue;
      members.set(name, [...(members.get(name) ?? []), value]);
    }
  }
  const member = members.has(start.member)
    ? start.member
    : members.size === 1
      ? [...members.keys()][0]
      : undefined;
  if (member === undefined) return undefined;
  const values = members.get(member) ?? [];
  if (values.some((v) => v.startsWith('/')))
    return { value: { member, form: 'json-pointer' }, decided: true };
  if (values.some((v) => /\[\d+\]/.test(v)))
    return { value: { member, form: 'bracket' }, decided: true };
  if (values.some((v) => /(^|\.)\d+(\.|$)/.test(v)))
    return { value: { member, form: 'dot' }, decided: true };
  const form = start.form === 'json-pointer' ? 'dot' : start.form;
  return { value: { member, form }, decided: false };
}

/** The entries' pointers, as JSON pointers, in the form given. */
export function pointersIn(problem: unknown, errors: ErrorPointers): string[] {
  const entries = valueAt(problem, '/errors');
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry) => {
    const pointer = entryPointer(errors, entry);
    return pointer === undefined ? [] : [pointer];
  });
}
