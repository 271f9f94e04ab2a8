import { TOKEN_TTL_SECONDS } from '../config/api.js';
import {
  ADDRESS_FIELDS,
  type AddressField,
  type BodyShape,
  type Dialect,
  type MoneyPlace,
  moneyAt,
} from '../dialect/model.js';
import { formatPointer } from '../dialect/pointer.js';
import { EVENT_TYPES } from '../store/events.js';
import { type Leaf, leaf, moved, objectOf, type Schema } from './leaves.js';
import { PROBLEM_SENTENCE } from './sentences.js';

/**
 * The profile field (docs/profiles.md, version 2) a member of a schema
 * shows, as `x-dialect-field`: a tool that drafts a profile from this
 * document (`--draft-profile-from`) reads it, and so can a person.
 */
export const field = (name: string): Schema => ({ 'x-dialect-field': name });

/** A reference to a component schema. */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

const string = (description?: string, extra: Schema = {}): Schema => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...extra,
});
const integer = (description?: string, extra: Schema = {}): Schema => ({
  type: 'integer',
  ...(description ? { description } : {}),
  ...extra,
});
const boolean = (description: string): Schema => ({ type: 'boolean', description });
const time = (description: string): Schema => string(description, { format: 'date-time' });

/** The component name of each money place. */
const MONEY_SCHEMAS: Readonly<Record<MoneyPlace, string>> = {
  totals: 'MoneyTotal',
  prices: 'MoneyPrice',
  maxOrderValue: 'MoneyMaxOrderValue',
};

const MONEY_WORDS: Readonly<Record<MoneyPlace, string>> = {
  totals: 'the total of an order, a quote and an invoice, and a quote subtotal and shipping',
  prices: "a catalog product's unit price, and the unit price and amount of an order's line",
  maxOrderValue: "the account's maximum order value (`GET /account`, under `limits`, §2 and §8)",
};

function moneySchema(dialect: Dialect, place: MoneyPlace): Schema {
  const { format, amount, currency } = moneyAt(dialect.money, place);
  const where = `Money at this place: ${MONEY_WORDS[place]}. The API document shows no money format (not shown); this dialect writes`;
  if (format === 'cents')
    return integer(`${where} an integer of US cents.`, field(`money.${place}`));
  if (format === 'decimal')
    return string(`${where} a decimal string of US dollars such as "12.34".`, {
      pattern: '^-?[0-9]+\\.[0-9]{2}$',
      ...field(`money.${place}`),
    });
  return {
    ...objectOf([
      leaf(amount, integer('Integer of cents.', field(`money.${place}.amount`))),
      leaf(
        currency,
        string('ISO 4217 currency code.', {
          examples: ['USD'],
          ...field(`money.${place}.currency`),
        }),
      ),
    ]),
    description: `${where} an object holding integer cents and a currency.`,
    ...field(`money.${place}`),
  };
}

const ADDRESS_WORDS: Readonly<Record<AddressField, [string, string]>> = {
  name: ['Recipient name', 'Ada Lovelace'],
  line1: ['Address line 1', '1 Main Street'],
  line2: ['Address line 2', 'Suite 100'],
  city: ['City', 'Springfield'],
  state: ['State', 'IL'],
  postal_code: ['Postal code', '62701'],
  country: ['Country', 'US'],
};

const MAX_LENGTH: Readonly<Record<AddressField, number>> = {
  name: 200,
  line1: 200,
  line2: 200,
  city: 100,
  state: 100,
  postal_code: 20,
  country: 64,
};

/** The shipping address leaves where a body of this shape puts them (`section`: the body's profile field). */
function addressLeaves(
  address: BodyShape['address'],
  request: boolean,
  section?: 'orderBody' | 'quoteBody',
): Leaf[] {
  return ADDRESS_FIELDS.map((name) => {
    const [title, example] = ADDRESS_WORDS[name];
    const base: Schema =
      name === 'line2'
        ? { type: request ? ['string', 'null'] : 'string', maxLength: MAX_LENGTH[name] }
        : { type: 'string', minLength: 1, maxLength: MAX_LENGTH[name] };
    const schema: Schema = {
      ...base,
      title,
      description:
        name === 'country'
          ? 'Orders are limited to addresses in the US (§1, §4 rule 3): any other country gives 422 `validation_failed`.'
          : `Shipping address: ${title.toLowerCase()}. The address fields are not shown in the API document; this is where this dialect puts them.`,
      examples: [example],
      ...(section ? field(`${section}.address.${name}`) : {}),
    };
    return leaf(address[name], schema, name !== 'line2');
  });
}

/** An order line as a body puts it (`sku`, `quantity`). */
function lineBodySchema(shape: BodyShape, section: 'orderBody' | 'quoteBody'): Schema {
  return objectOf(
    [
      leaf(
        shape.sku,
        string("SKU of a product on the account's product list (§4 rule 1).", {
          minLength: 1,
          maxLength: 64,
          ...field(`${section}.sku`),
        }),
      ),
      leaf(
        shape.quantity,
        integer("At least the product's minimum quantity (§4 rule 2).", {
          minimum: 1,
          maximum: 1_000_000,
          ...field(`${section}.quantity`),
        }),
      ),
    ],
    true,
  );
}

function bodySchema(
  shape: BodyShape,
  section: 'orderBody' | 'quoteBody',
  description: string,
): Schema {
  const withExternalId = section === 'orderBody';
  const leaves: Leaf[] = [
    leaf(
      shape.items,
      {
        type: 'array',
        description: 'The lines of the order: 1 to 100.',
        minItems: 1,
        maxItems: 100,
        items: lineBodySchema(shape, section),
        ...field(`${section}.items`),
      },
      true,
    ),
    ...addressLeaves(shape.address, true, section),
  ];
  if (withExternalId)
    leaves.unshift(
      leaf(
        '/external_id',
        string(
          'Unique per account (§2, §4). A second order with an external_id already used in the account gives 409 `duplicate_external_id`.',
          { minLength: 1, maxLength: 64 },
        ),
      ),
    );
  return objectOf(leaves, true, description);
}

/** A line of an order or quote answer: where the dialect shows `sku` and `quantity`, the reference's prices. */
function lineAnswerSchema(sku: string, quantity: string, fields?: [string, string]): Schema {
  return objectOf(
    moved(
      [
        leaf('/sku', string('SKU.', fields ? field(fields[0]) : {})),
        leaf('/quantity', integer('Quantity.', fields ? field(fields[1]) : {})),
        leaf('/unit_price', ref(MONEY_SCHEMAS.prices)),
        leaf('/amount', ref(MONEY_SCHEMAS.prices)),
      ],
      [
        ['/sku', sku],
        ['/quantity', quantity],
      ],
    ),
  );
}

const STATUS_NAMES = ['received', 'inProduction', 'shipped', 'cancelled'] as const;

/** The event kinds of the dialect: its names for the two the suite needs, the reference's for the rest. */
function eventKinds(dialect: Dialect): { values: string[]; names: string[] } {
  const kinds = dialect.eventKinds;
  const byReference: Record<string, [string, string]> = {
    'order.created': [kinds.orderCreated, 'orderCreated'],
    'order.cancelled': [kinds.orderCancelled, 'orderCancelled'],
  };
  const values: string[] = [];
  const names: string[] = [];
  for (const type of EVENT_TYPES) {
    const [value, name] = byReference[type] ?? [
      type,
      type
        .replace(/^order\.(\w)/, (_, c) => `order${c.toUpperCase()}`)
        .replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
    ];
    values.push(value);
    names.push(name);
  }
  return { values, names };
}

/** Every component schema of the dialect's OpenAPI document. */
export function componentSchemas(
  dialect: Dialect,
  docsUrl: string | undefined,
): Record<string, Schema> {
  const d = dialect;
  const o = d.answers.order;
  const kinds = eventKinds(d);
  const statuses = STATUS_NAMES.map((name) => d.orderStatuses[name]);

  const order = objectOf(
    moved(
      [
        leaf('/id', string('Identifier `{id}` of the order (§2).', field('answers.order.id'))),
        leaf('/object', string(undefined, { const: 'order' })),
        leaf(
          '/external_id',
          string("The partner's own id of the order, unique per account (§2, §4)."),
        ),
        leaf('/status', {
          type: 'string',
          description:
            'Order states and transitions are not shown in the API document; this dialect names the states it has.',
          enum: statuses,
          'x-enum-varnames': [...STATUS_NAMES],
          ...field('answers.order.status'),
        }),
        leaf('/items', { type: 'array', items: ref('OrderLine'), ...field('answers.order.lines') }),
        leaf('/total', { ...ref(MONEY_SCHEMAS.totals), ...field('totals.order') }),
        ...addressLeaves(
          Object.fromEntries(
            ADDRESS_FIELDS.map((f) => [f, `/shipping_address/${f}`]),
          ) as BodyShape['address'],
          false,
        ),
        leaf('/created_at', time('When the order was placed (RFC 3339, UTC).')),
        leaf('/cancellable_until', time('End of the 24-hour cancel window (§3, §8).')),
        leaf('/livemode', boolean('Whether the order belongs to live mode (§1).')),
      ],
      [
        ['/id', o.id],
        ['/status', o.status],
        ['/total', d.totals.order],
        ['/items', o.lines],
        ...ADDRESS_FIELDS.map((f) => [`/shipping_address/${f}`, d.orderBody.address[f]] as const),
      ],
    ),
  );

  const quote = objectOf(
    moved(
      [
        leaf('/id', string('Identifier `{id}` of the quote (§2).', field('answers.quote.id'))),
        leaf('/object', string(undefined, { const: 'quote' })),
        leaf('/items', { type: 'array', items: ref('QuoteLine') }),
        ...addressLeaves(
          Object.fromEntries(
            ADDRESS_FIELDS.map((f) => [f, `/shipping_address/${f}`]),
          ) as BodyShape['address'],
          false,
        ),
        leaf('/subtotal', ref(MONEY_SCHEMAS.totals)),
        leaf('/shipping', ref(MONEY_SCHEMAS.totals)),
        leaf('/total', { ...ref(MONEY_SCHEMAS.totals), ...field('totals.quote') }),
        leaf('/created_at', time('When the quote was made.')),
        leaf('/expires_at', time('When the quote expires.')),
        leaf('/livemode', boolean('Whether the quote belongs to live mode (§1).')),
      ],
      [
        ['/id', d.answers.quote.id],
        ['/total', d.totals.quote],
        ['/items', d.quoteBody.items],
        ...ADDRESS_FIELDS.map((f) => [`/shipping_address/${f}`, d.quoteBody.address[f]] as const),
      ],
    ),
  );

  const p = d.answers.product;
  const product = objectOf(
    moved(
      [
        leaf('/sku', string('SKU of the product.', field('answers.product.sku'))),
        leaf('/name', string('Name of the product.')),
        leaf('/unit_price', {
          ...ref(MONEY_SCHEMAS.prices),
          ...field('answers.product.unitPrice'),
        }),
        leaf(
          '/min_quantity',
          integer('Smallest quantity an order line may have (§4 rule 2).', {
            minimum: 1,
            ...field('answers.product.minQuantity'),
          }),
        ),
        leaf('/ships_by_freight', {
          ...boolean('Freight-shipped products are refused in orders (§1, §4 rule 4).'),
          ...field('answers.product.shipsByFreight'),
        }),
      ],
      [
        ['/sku', p.sku],
        ['/unit_price', p.unitPrice],
        ['/min_quantity', p.minQuantity],
        ['/ships_by_freight', p.shipsByFreight],
      ],
    ),
  );

  const f = d.accountFields;
  const account = objectOf(
    moved(
      [
        leaf('/id', string('Identifier of the partner account.')),
        leaf('/object', string(undefined, { const: 'account' })),
        leaf('/name', string('Name of the partner account.')),
        leaf('/livemode', {
          ...boolean('Whether the key is live (§2).'),
          ...field('accountFields.livemode'),
        }),
        leaf(
          '/billing_method',
          string('The billing method (§2).', {
            enum: ['invoice', 'card'],
            ...field('accountFields.billingMethod'),
          }),
        ),
        leaf('/limits/max_order_value', {
          ...ref(MONEY_SCHEMAS.maxOrderValue),
          ...field('accountFields.maxOrderValue'),
        }),
        leaf(
          '/limits/max_orders_per_day',
          integer('Maximum orders per day; over it: 422 `validation_failed` (§8).', {
            minimum: 0,
            ...field('accountFields.maxOrdersPerDay'),
          }),
        ),
        leaf('/scopes', {
          type: 'array',
          description: "The key's scopes (§2).",
          items: { type: 'string' },
          ...field('accountFields.scopes'),
        }),
      ],
      [
        ['/livemode', f.livemode],
        ['/billing_method', f.billingMethod],
        ['/scopes', f.scopes],
        ['/limits/max_order_value', f.maxOrderValue],
        ['/limits/max_orders_per_day', f.maxOrdersPerDay],
      ],
    ),
  );

  const hook = d.webhookEndpointBody;
  const kindSchema: Schema = {
    type: 'string',
    enum: kinds.values,
    'x-enum-varnames': kinds.names,
    ...field('eventKinds'),
    description:
      'Event kinds are not shown in the API document; these are the kinds this dialect has.',
  };
  const endpointEvents: Schema = {
    type: 'array',
    description: 'The event kinds sent to the endpoint; `*`: every kind.',
    items: { anyOf: [ref('EventKind'), { const: '*' }] },
  };
  const webhookEndpoint = objectOf(
    moved(
      [
        leaf(
          '/id',
          string('Identifier of the webhook endpoint.', field('answers.webhookEndpoint.id')),
        ),
        leaf('/object', string(undefined, { const: 'webhook_endpoint' })),
        leaf('/url', string('Where events are delivered.', { format: 'uri' })),
        ...(hook.events === null ? [] : [leaf('/events', endpointEvents)]),
        leaf('/created_at', time('When the endpoint was made.')),
        leaf('/livemode', boolean('Whether the endpoint belongs to live mode (§1).')),
      ],
      [
        ['/id', d.answers.webhookEndpoint.id],
        ['/url', hook.url],
        ...(hook.events === null ? [] : [['/events', hook.events] as const]),
      ],
    ),
  );

  const event = objectOf(
    moved(
      [
        leaf('/id', string('Identifier of the event.', field('answers.event.id'))),
        leaf('/object', string(undefined, { const: 'event' })),
        leaf('/type', { ...ref('EventKind'), ...field('answers.event.type') }),
        leaf('/created_at', time('When the event happened.')),
        leaf('/livemode', boolean('Whether the event belongs to live mode (§1).')),
        leaf('/data/object', ref('Order')),
      ],
      [
        ['/id', d.answers.event.id],
        ['/type', d.answers.event.type],
      ],
    ),
  );

  const webhookBody = objectOf(
    [
      leaf(
        hook.url,
        string('An absolute http or https URL where events are delivered.', {
          format: 'uri',
          ...field('webhookEndpointBody.url'),
          minLength: 1,
          maxLength: 2048,
        }),
      ),
      ...(hook.events === null
        ? []
        : [
            leaf(
              hook.events,
              {
                ...endpointEvents,
                minItems: 1,
                uniqueItems: true,
                ...field('webhookEndpointBody.events'),
              },
              false,
            ),
          ]),
    ],
    true,
    "A webhook endpoint (§6): at most 5 per mode; a sixth gives 422 `limit_exceeded`. The body is not shown in the API document; this is the dialect's.",
  );

  const errorExample = formatPointer(
    `${d.orderBody.items}/0${d.orderBody.quantity}`,
    d.errors.form,
  );
  const problem: Schema = {
    type: 'object',
    description: PROBLEM_SENTENCE,
    required: ['type', 'title', 'status', 'detail', 'instance', 'code', 'request_id'],
    properties: {
      type: string(
        "Address of the error's documentation: `{docs_url}/errors#error-<code>`, with underscores in the code written as hyphens (§2).",
        {
          format: 'uri',
          ...(docsUrl
            ? {
                pattern: `^${docsUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/errors#error-[a-z-]+$`,
                examples: [`${docsUrl}/errors#error-validation-failed`],
              }
            : {}),
        },
      ),
      title: string('For people. May be reworded (§2).'),
      status: integer('HTTP status (§2).'),
      detail: string('For people. May be reworded (§2).'),
      instance: string('Request path (§2).'),
      code: string('Stable machine-readable code. Never changes (§2, §9).'),
      request_id: string('To be quoted when contacting support (§2).'),
      errors: {
        type: 'array',
        description: 'Each has `detail`. Field errors also carry a pointer to the field (§2).',
        items: {
          type: 'object',
          required: ['detail'],
          properties: {
            detail: string(),
            [d.errors.member]: string(
              `Where the field is in the request body (${d.errors.form}), or the name of a query parameter; entries that concern no single field may omit it.`,
              { examples: [errorExample], ...field('errors.member') },
            ),
          },
        },
      },
      decline_code: string("Only on `card_declined`: the bank's reason (§2)."),
      required_scope: string('Only on `insufficient_scope`: the scope needed (§2).'),
      error: string('At the token request only: the RFC 6749 §5.2 error code.'),
      error_description: string('At the token request only: RFC 6749 §5.2.'),
    },
  };

  const list = (item: string): Schema => {
    const l = d.list;
    return objectOf(
      [
        leaf(l.items, { type: 'array', items: ref(item), ...field('list.items') }),
        ...(l.hasMore === null
          ? []
          : [
              leaf(l.hasMore, {
                ...boolean('Whether more pages follow.'),
                ...field('list.hasMore'),
              }),
            ]),
        ...(l.nextCursor === null
          ? []
          : [
              leaf(l.nextCursor, {
                type: ['string', 'null'],
                ...field('list.nextCursor'),
                description: `The cursor of the next page (query parameter \`${l.cursorParam}\`); null on the last page.`,
              }),
            ]),
      ],
      false,
      `A list (the envelope is not shown in the API document; this is the dialect's). Pages of up to ${l.maxLimit} entries (\`${l.limitParam}\`), the next page from \`${l.cursorParam}\`${l.nextCursor === null ? ": the last entry's id" : ''}.`,
    );
  };

  return {
    MoneyTotal: moneySchema(d, 'totals'),
    MoneyPrice: moneySchema(d, 'prices'),
    MoneyMaxOrderValue: moneySchema(d, 'maxOrderValue'),
    TokenRequest: {
      type: 'object',
      required: ['grant_type'],
      properties: {
        grant_type: string('Required, value `client_credentials` (§4).', {
          enum: ['client_credentials'],
        }),
        scope: string(
          'Optional: a space-separated list that asks for fewer scopes than the key has (§4, §5.7).',
        ),
      },
    },
    AccessToken: {
      type: 'object',
      description: 'The access token response (§2).',
      required: ['access_token', 'token_type', 'expires_in', 'scope'],
      properties: {
        access_token: string(`Shape \`<prefix>_at_<chars>\` (§2); prefix \`${d.keyPrefix}\`.`, {
          pattern: `^${d.keyPrefix}_at_[A-Za-z0-9]+$`,
        }),
        token_type: string('`Bearer` (§2).', { const: 'Bearer' }),
        expires_in: integer('Seconds. 3600 (§2).', { const: TOKEN_TTL_SECONDS }),
        scope: string('Space-separated granted scopes (§2).'),
      },
    },
    Account: {
      ...account,
      description:
        "The partner account (§2): the fields other than `limits` are not shown in the API document; these are the dialect's.",
    },
    Product: product,
    OrderBody: bodySchema(
      d.orderBody,
      'orderBody',
      "An order (§4). Must contain `external_id`, unique per account. Unknown fields and missing required fields give 422 `validation_failed`. The other body fields are not shown in the API document; these are the dialect's.",
    ),
    QuoteBody: bodySchema(
      d.quoteBody,
      'quoteBody',
      "A quote request: lines and a shipping address, like an order body (the body is not shown in the API document; this is the dialect's).",
    ),
    OrderLine: lineAnswerSchema(o.lineSku, o.lineQuantity, [
      'answers.order.lineSku',
      'answers.order.lineQuantity',
    ]),
    QuoteLine: lineAnswerSchema(d.quoteBody.sku, d.quoteBody.quantity),
    Order: {
      ...order,
      description:
        "An order (§2): `external_id` and the identifier are shown in the API document; the other fields are the dialect's.",
    },
    Quote: quote,
    Shipment: objectOf([
      leaf('/id', string('Identifier of the shipment.')),
      leaf('/object', string(undefined, { const: 'shipment' })),
      leaf('/order_id', string('The order shipped.')),
      leaf('/carrier', string('Carrier.')),
      leaf('/tracking_number', string('Tracking number.')),
      leaf('/shipped_at', time('When it shipped.')),
    ]),
    Invoice: objectOf([
      leaf('/id', string('Identifier of the invoice.')),
      leaf('/object', string(undefined, { const: 'invoice' })),
      leaf('/order_id', string('The order invoiced.')),
      leaf('/total', ref(MONEY_SCHEMAS.totals)),
      leaf('/status', string('State of the invoice.')),
      leaf('/created_at', time('When it was issued.')),
    ]),
    WebhookEndpointBody: webhookBody,
    WebhookEndpoint: webhookEndpoint,
    Event: event,
    EventKind: kindSchema,
    Problem: problem,
    ProductList: list('Product'),
    OrderList: list('Order'),
    ShipmentList: list('Shipment'),
    WebhookEndpointList: list('WebhookEndpoint'),
    EventList: list('Event'),
  };
}
