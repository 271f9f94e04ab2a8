import { z } from 'zod';

/** Verdict levels of the target contract, section 1. */
export const LEVELS = ['MUST', 'SHOULD', 'DIALECT'] as const;
export type Level = (typeof LEVELS)[number];

/**
 * What a check may need beyond an API key. The first nine are the control
 * protocol's features (`GET /capabilities`, target contract section 3);
 * `charges` is a feature the project adds to it (`GET /accounts/{id}/charges`,
 * docs/contract-additions.md); `live_orders` is the user's
 * `--allow-live-orders` consent.
 */
export const CAPABILITIES = [
  'accounts',
  'keys',
  'clock',
  'production',
  'shipping',
  'service_state',
  'faults',
  'payments',
  'whoami',
  'charges',
  'live_orders',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * Areas group rules for `--only` and the report's filters. The id prefix of a
 * rule names its area (`IDEM-03` is in `IDEM`).
 */
export const AREAS = {
  TOKEN: 'Token endpoint',
  AUTH: 'Bearer authentication and token lifecycle',
  KEY: 'Key roll and revoke',
  SCOPE: 'Scopes',
  URL: 'Credentials in URLs and bodies',
  IP: 'IP allowlists',
  ACCT: 'Account states',
  RATE: 'Rate limits',
  RACE: 'Concurrent requests',
  IDEM: 'Idempotency',
  ORDER: 'Order validation',
  PAY: 'Payments',
  PROB: 'Probation of new live keys',
  CANCEL: 'Cancellation',
  MODE: 'Modes and ownership',
  READ: 'Reads',
  HOOK: 'Webhook endpoints and events',
  SVC: 'Service states',
  ERR: 'Errors (problem+json)',
  MODEL: 'Model-based sequences',
} as const;
export type Area = keyof typeof AREAS;

const areaIds = Object.keys(AREAS) as [Area, ...Area[]];

/** The two documents a rule may quote: the API document and the target contract. */
const SOURCE_DOCS = ['api', 'contract'] as const;
export type SourceDoc = (typeof SOURCE_DOCS)[number];

/**
 * What a rule rests on: the sentence(s) it quotes, from one top-level section
 * of the API document (`docs/partner-ordering-api.md`) or of the target
 * contract (`docs/target-contract.md`). A quote is verbatim up to white space
 * and Markdown marks (backticks, `**`); a test finds each one in its section.
 * A SHOULD rule that comes from an RFC the API builds on names it in `rfc` and
 * quotes the sentence of the document that the RFC's requirement attaches to.
 * A rule quoting the API document may also quote, in `reading`, the reading of
 * it that the target contract fixes (section 2, "Readings of the API document
 * that the suite holds to") where the sentence alone could be read two ways:
 * the API sentence is what the rule enforces, the reading what it means.
 */
export const SourceSchema = z
  .object({
    doc: z.enum(SOURCE_DOCS),
    /** Top-level section number of that document: "4" (API document), "2" (contract). */
    section: z.string().regex(/^\d+$/, 'section must be a section number'),
    /** One passage, or several passages of the same section. */
    quote: z
      .union([z.string().min(8), z.array(z.string().min(8)).min(1)])
      .transform((quote) => (typeof quote === 'string' ? [quote] : quote)),
    /** "RFC 6749 §5.1": the RFC section a SHOULD rule comes from. */
    rfc: z
      .string()
      .regex(/^RFC \d+ §\d+(\.\d+)*(, §\d+(\.\d+)*)*$/, 'rfc must look like "RFC 6749 §5.1"')
      .optional(),
    /**
     * The contract's reading (section 2, its "Readings" bullets) that fixes what the quoted API
     * sentence means, verbatim. Only beside an API quote; a reading that leaves an alternative
     * (it says DIALECT) fixes nothing and is refused.
     */
    reading: z
      .union([z.string().min(8), z.array(z.string().min(8)).min(1)])
      .transform((quote) => (typeof quote === 'string' ? [quote] : quote))
      .optional(),
  })
  .strict()
  .superRefine((source, ctx) => {
    if (source.reading === undefined) return;
    if (source.doc !== 'api') {
      ctx.addIssue({
        code: 'custom',
        path: ['reading'],
        message: 'a reading fixes the meaning of an API quote: only beside doc "api"',
      });
    }
    if (source.reading.some((r) => /\bDIALECT\b/.test(r))) {
      ctx.addIssue({
        code: 'custom',
        path: ['reading'],
        message: 'a reading that leaves an alternative (DIALECT) fixes nothing',
      });
    }
  });
export type Source = z.output<typeof SourceSchema>;

/** The `section` a rule shows for its source: "4" for the API document, "C2" for the contract. */
function sectionOf(source: { doc: SourceDoc; section: string }): string {
  return source.doc === 'api' ? source.section : `C${source.section}`;
}

export const RuleSchema = z
  .object({
    /** `AREA-NN`. Never reused: a retired rule keeps its id with `retired: true`. */
    id: z.string().regex(/^[A-Z]+-\d{2}$/, 'id must look like AREA-NN'),
    level: z.enum(LEVELS),
    /** Our own words, starting with the level: "MUST replay with 200 and Idempotent-Replayed: true". */
    title: z.string().min(10).max(140),
    /** Section number of the API document ("4", "5", "7"); target contract sections are "C2", "C3". */
    section: z.string().regex(/^(C?\d+)$/),
    /** Capabilities without which the check can only say `not_verifiable`. */
    needs: z.array(z.enum(CAPABILITIES)).default([]),
    /**
     * What key the check sends with (so that the run's prediction of what
     * it cannot verify is exact). Absent: any API key, the control API's or
     * the partner key. `none`: no key at all (it runs with neither).
     * `lacking_a_scope`: without the control feature `keys`, the partner key
     * must lack one of the four scopes.
     */
    key: z.enum(['none', 'lacking_a_scope']).optional(),
    retired: z.boolean().default(false),
    /**
     * The check provokes 429s on purpose: a rate limit is its subject, or a 429 is among the errors
     * it judges. Its 429s are answered as they are; every other rule's meet the one 429 policy
     * (wait Retry-After, send again: lib/client/rate-limits.ts).
     */
    provokes429: z.boolean().default(false),
    /** The sentence(s) of the API document or the target contract the rule rests on. */
    source: SourceSchema,
  })
  .strict()
  .superRefine((rule, ctx) => {
    refineLevelAndSource(rule, ctx);
    const area = rule.id.split('-')[0] ?? '';
    if (!areaIds.includes(area as Area)) {
      ctx.addIssue({ code: 'custom', path: ['id'], message: `unknown area ${area}` });
    }
  });

/**
 * What every rule of ours holds to, a target's (`RuleSchema`) or a client's
 * (rules/client/schema.ts): its level follows from what it rests on, its
 * section is the section it quotes, its title starts with its level.
 */
export function refineLevelAndSource(
  rule: { level: Level; title: string; section: string; source: Source },
  ctx: z.RefinementCtx,
): void {
  // Target contract, section 1: MUST is what the API document states. A rule resting on the
  // contract, the reference dialect or an RFC alone warns or observes; it never fails a run.
  // A MUST rule may carry the contract's reading of its API sentence (source.reading): it still
  // quotes the sentence of the API document it enforces.
  if (rule.level === 'MUST' && (rule.source.doc !== 'api' || rule.source.rfc !== undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['level'],
      message: 'a MUST rule must rest on the API document, not on the contract or an RFC',
    });
  }
  if (rule.section !== sectionOf(rule.source)) {
    ctx.addIssue({
      code: 'custom',
      path: ['section'],
      message: `section ${rule.section} is not the section its source quotes (${sectionOf(rule.source)})`,
    });
  }
  if (!rule.title.startsWith(`${rule.level} `)) {
    ctx.addIssue({
      code: 'custom',
      path: ['title'],
      message: `title must start with its level "${rule.level} "`,
    });
  }
}

export type RuleInput = z.input<typeof RuleSchema>;

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
/** The form of a rule id: an area, a dash, two digits (`IDEM-03`). */
export type RuleIdForm = `${Area}-${Digit}${Digit}`;

/**
 * An area file's rules, unchanged: only their type keeps each id as written, so that the
 * catalogue's ids form a union (`RuleId`, rules/index.ts) and `check('ORDER-99', …)` or a
 * malformed id fails the type check. RuleSchema still validates everything at load.
 */
export function areaRules<const Id extends RuleIdForm>(
  rules: (RuleInput & { id: Id })[],
): (RuleInput & { id: Id })[] {
  return rules;
}
export type Rule = z.output<typeof RuleSchema> & { area: Area };

export function areaOf(ruleId: string): Area {
  return ruleId.split('-')[0] as Area;
}
