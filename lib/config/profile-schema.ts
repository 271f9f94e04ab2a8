import { z } from 'zod';
import {
  type DialectPathName,
  DOCUMENT_PATH_PREFIXES,
  DOCUMENT_PATHS,
  type DocumentPathName,
  keepsDocumentPrefix,
  METHOD_NOT_SHOWN,
  type OperationName,
  REFERENCE_DIALECT,
} from '../target/dialect.js';

const httpUrl = z
  .string()
  .refine(
    (value) => /^https?:\/\/[^\s]+$/.test(value) && URL.canParse(value),
    'must be an http(s) URL',
  );

function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

/**
 * A path template must keep the reference's placeholders: the checks fill
 * exactly those, wherever they stand, the query included
 * (`/shipments?order_id={id}`); and the start the API document fixes
 * (`/catalog`, `/webhook-endpoints`, `/events`).
 */
function pathTemplate(name: DialectPathName) {
  const expected = placeholders(REFERENCE_DIALECT.paths[name]);
  const prefix = DOCUMENT_PATH_PREFIXES[name];
  return z
    .string()
    .regex(
      /^\/[^\s?#]*(\?[^\s#]+)?$/,
      'must be a path starting with "/", optionally with a query (no fragment, no spaces)',
    )
    .refine(
      (template) => placeholders(template).join() === expected.join(),
      expected.length
        ? `must contain exactly the placeholders ${expected.map((p) => `{${p}}`).join(', ')}`
        : 'must contain no placeholder',
    )
    .refine(
      (template) => keepsDocumentPrefix(name, template),
      `must be ${prefix} or below it: the API document fixes that start (a target serving it elsewhere breaks the document)`,
    );
}

/**
 * A path of the document's endpoint table, which older profiles could set:
 * still loaded, never used (profile.ts says so once, when it loads).
 */
function documentPath(name: DocumentPathName) {
  return z
    .string()
    .meta({
      deprecated: true,
      description: `Ignored: the API document fixes this path (${DOCUMENT_PATHS[name]}); the checks always use it.`,
    })
    .optional();
}

const dialectPathNames = Object.keys(REFERENCE_DIALECT.paths) as DialectPathName[];
const documentPathNames = Object.keys(DOCUMENT_PATHS) as DocumentPathName[];

const PathsSchema = z
  .object({
    ...Object.fromEntries(dialectPathNames.map((name) => [name, pathTemplate(name).optional()])),
    ...Object.fromEntries(documentPathNames.map((name) => [name, documentPath(name)])),
  })
  .strict();

const pointer = z
  .string()
  .regex(
    /^(\/[^/\s]+)+$/,
    'must be a JSON pointer: "/" and a member name per level, such as "/total" or "/limits/max_order_value"',
  );
const limitsPointer = pointer.regex(
  /^\/limits\//,
  'must be under "/limits/" (the API document names the object limits)',
);

/** Where GET /account shows each item of section 2 (JSON pointers into its body). */
const AccountFieldsSchema = z
  .object({
    livemode: pointer,
    billingMethod: pointer,
    scopes: pointer,
    maxOrderValue: limitsPointer,
    maxOrdersPerDay: limitsPointer,
  })
  .partial()
  .strict();

/**
 * The order body (profile v2), as JSON pointers: `items` into the body,
 * `sku` and `quantity` into one line, each address field into the body.
 * `external_id` is fixed by the API document (section 4).
 */
const OrderBodySchema = z
  .object({
    items: pointer,
    sku: pointer,
    quantity: pointer,
    address: z
      .object({
        name: pointer,
        line1: pointer,
        line2: pointer,
        city: pointer,
        state: pointer,
        postal_code: pointer,
        country: pointer,
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict()
  .describe(
    'Profile v2: JSON pointers where the order body puts its lines (items), the SKU and quantity inside a line, and each shipping address field.',
  );

/** Where an order answer and a quote answer show their total (profile v2). */
const TotalsSchema = z
  .object({ order: pointer, quote: pointer })
  .partial()
  .strict()
  .describe('Profile v2: JSON pointers to the total in an order answer and in a quote answer.');

/** The status of a success: any 2xx, 204 (no body) included. */
const successStatus = z.number().int().min(200).max(299);

const operationNames = Object.keys(REFERENCE_DIALECT.operations) as OperationName[];
const httpMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Method and success status of each operation (profile v2). The method counts
 * only where the API document leaves it "not shown"; elsewhere it is loaded
 * and ignored (profile.ts says so once).
 */
const OperationsSchema = z
  .object(
    Object.fromEntries(
      operationNames.map((name) => [
        name,
        z
          .object({
            method: METHOD_NOT_SHOWN.includes(name)
              ? httpMethod
              : httpMethod.meta({
                  deprecated: true,
                  description: `Ignored: the API document fixes ${REFERENCE_DIALECT.operations[name].method} (section 4).`,
                }),
            status: successStatus,
          })
          .partial()
          .strict()
          .optional(),
      ]),
    ),
  )
  .strict()
  .describe(
    'Profile v2: method and success status of each operation. Only the webhook endpoint and event operations may change their method; a method the API document fixes is ignored.',
  );

/** The body of a webhook endpoint creation (profile v2). */
const WebhookEndpointBodySchema = z
  .object({ url: pointer, events: pointer.nullable() })
  .partial()
  .strict()
  .describe(
    'Profile v2: JSON pointers where the webhook endpoint body puts its URL and its list of event kinds (null: the target takes no list).',
  );

const name = z.string().min(1, 'must not be empty').max(200);

/** Event kind names (profile v2). */
const EventKindsSchema = z
  .object({ orderCreated: name, orderCancelled: name })
  .partial()
  .strict()
  .describe('Profile v2: the names of the event kinds the suite subscribes to and looks for.');

/** Where answers show what the suite reads (profile v2). */
const AnswersSchema = z
  .object({
    order: z
      .object({
        id: pointer,
        status: pointer,
        lines: pointer,
        lineSku: pointer,
        lineQuantity: pointer,
      })
      .partial()
      .strict(),
    quote: z.object({ id: pointer }).partial().strict(),
    product: z
      .object({ sku: pointer, unitPrice: pointer, minQuantity: pointer, shipsByFreight: pointer })
      .partial()
      .strict(),
    webhookEndpoint: z.object({ id: pointer }).partial().strict(),
    event: z.object({ id: pointer, type: pointer }).partial().strict(),
  })
  .partial()
  .strict()
  .describe(
    'Profile v2: JSON pointers into the answers the suite reads (order, quote, product, webhook endpoint, event); lineSku and lineQuantity point into one line.',
  );

const queryParameter = z
  .string()
  .regex(/^[A-Za-z0-9_.~[\]-]{1,64}$/, 'must be a query parameter name such as "limit"');

/** The list envelope and its paging (profile v2). */
const ListSchema = z
  .object({
    items: pointer,
    hasMore: pointer.nullable(),
    nextCursor: pointer.nullable(),
    cursorParam: queryParameter,
    limitParam: queryParameter,
    maxLimit: z.number().int().min(1).max(10_000),
  })
  .partial()
  .strict()
  .describe(
    'Profile v2: the list envelope (items, hasMore and/or nextCursor as JSON pointers) and the paging query parameters.',
  );

const moneyFormat = {
  format: z.enum(['object', 'cents', 'decimal']),
  amount: pointer,
  currency: pointer,
};

/** One place's money format, member by member over the format of every place (profile v2). */
const MoneyPlaceSchema = z.object(moneyFormat).partial().strict();

/** The money format of answers, and of each place where it differs (profile v2). */
const MoneySchema = z
  .object({
    ...moneyFormat,
    totals: MoneyPlaceSchema.describe(
      'The totals of orders, quotes and invoices (and a quote subtotal and shipping), where their format differs.',
    ),
    prices: MoneyPlaceSchema.describe(
      "Catalog unit prices and an order line's unit price and amount, where their format differs.",
    ),
    maxOrderValue: MoneyPlaceSchema.describe(
      "The account's maximum order value (GET /account), where its format differs.",
    ),
  })
  .partial()
  .strict()
  .describe(
    'Profile v2: money as an object ({amount: cents, currency} at the two pointers), integer cents, or a decimal string of dollars; totals, prices and maxOrderValue each state what differs at that place.',
  );

/** Order status names (profile v2). */
const OrderStatusesSchema = z
  .object({ received: name, inProduction: name, shipped: name, cancelled: name })
  .partial()
  .strict()
  .describe('Profile v2: the names the target gives the order states the suite needs.');

/** How errors[] entries point at a field (profile v2). */
const ErrorsSchema = z
  .object({
    member: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, 'must be a field name such as "pointer"')
      .refine(
        (member) => member !== 'detail',
        'cannot be detail (the API document puts the text there)',
      ),
    form: z.enum(['json-pointer', 'dot', 'bracket']),
  })
  .partial()
  .strict()
  .describe(
    'Profile v2: the errors[] entry field that points at a request field, and its form (json-pointer /items/0/sku, dot items.0.sku, bracket items[0].sku).',
  );

/** Sections a profile may hold only when it says `"version": 2`. */
const V2_SECTIONS = [
  'orderBody',
  'totals',
  'operations',
  'quoteBody',
  'webhookEndpointBody',
  'eventKinds',
  'answers',
  'list',
  'money',
  'orderStatuses',
  'errors',
] as const;

/**
 * A target profile (`config/*.json`): where the API document says "not
 * shown", how this target answers. Every field is optional; what is left out
 * keeps the reference dialect (target contract, section 2). Profiles hold no
 * secrets: those come from the environment.
 */
export const ProfileSchema = z
  .object({
    $schema: z.string().optional(),
    /** Profile format: 1 (the default) or 2, which adds the sections of V2_SECTIONS. */
    version: z
      .union([z.literal(1), z.literal(2)])
      .optional()
      .describe(
        'Profile format: 1 (default) or 2 (adds dialect.orderBody, totals, operations, quoteBody, webhookEndpointBody, eventKinds, answers, list, money, orderStatuses, errors).',
      ),
    description: z.string().optional(),
    /** `{docs_url}` of problem `type` URIs; unset: learned from the first problem seen. */
    docsUrl: httpUrl.optional(),
    /** Default target origin for this profile (a flag or TARGET_BASE_URL wins). */
    target: httpUrl.optional(),
    /** Default control URL (a flag or CONTROL_URL wins). */
    controlUrl: httpUrl.optional(),
    dialect: z
      .object({
        keyPrefix: z
          .string()
          .regex(/^[a-z][a-z0-9]{1,15}$/, 'must be 2 to 16 lower-case letters or digits'),
        docsUrl: httpUrl,
        paths: PathsSchema,
        orderCreatedStatus: z.number().int().min(200).max(299),
        accountFields: AccountFieldsSchema,
        orderBody: OrderBodySchema,
        totals: TotalsSchema,
        operations: OperationsSchema,
        quoteBody: OrderBodySchema.describe(
          'Profile v2: like orderBody, for the quote body (POST /quotes); fields left out keep their place in the order body.',
        ),
        webhookEndpointBody: WebhookEndpointBodySchema,
        eventKinds: EventKindsSchema,
        answers: AnswersSchema,
        list: ListSchema,
        money: MoneySchema,
        orderStatuses: OrderStatusesSchema,
        errors: ErrorsSchema,
      })
      .partial()
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((profile, ctx) => {
    // A v1 profile keeps its meaning: v2 sections say which format they need.
    if (profile.version === 2) return;
    for (const section of V2_SECTIONS) {
      if (profile.dialect?.[section] === undefined) continue;
      ctx.addIssue({
        code: 'custom',
        path: ['dialect', section],
        message: 'is a profile v2 section: add "version": 2 at the top of the profile',
      });
    }
  });

export type Profile = z.output<typeof ProfileSchema>;
