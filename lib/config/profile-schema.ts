import { z } from 'zod';
import { REFERENCE_DIALECT } from '../target/dialect.js';

type PathName = keyof typeof REFERENCE_DIALECT.paths;

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
 * (`/shipments?order_id={id}`).
 */
function pathTemplate(name: PathName) {
  const expected = placeholders(REFERENCE_DIALECT.paths[name]);
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
    );
}

const pathNames = Object.keys(REFERENCE_DIALECT.paths) as PathName[];

const PathsSchema = z
  .object(Object.fromEntries(pathNames.map((name) => [name, pathTemplate(name).optional()])))
  .strict();

const pointer = z.string().regex(/^(\/[^/\s]+)+$/, 'must be a JSON pointer such as "/livemode"');
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

/** Sections a profile may hold only when it says `"version": 2`. */
const V2_SECTIONS = ['orderBody', 'totals'] as const;

/**
 * A target profile (`config/*.json`): where the API document says "not
 * shown", how this target answers. Every field is optional; what is left out
 * keeps the reference dialect (target contract, section 2). Profiles hold no
 * secrets: those come from the environment.
 */
export const ProfileSchema = z
  .object({
    $schema: z.string().optional(),
    /** Profile format: 1 (the default) or 2, which adds `dialect.orderBody` and `dialect.totals`. */
    version: z
      .union([z.literal(1), z.literal(2)])
      .optional()
      .describe('Profile format: 1 (default) or 2 (adds dialect.orderBody and dialect.totals).'),
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
