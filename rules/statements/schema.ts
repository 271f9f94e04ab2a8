import { z } from 'zod';

/**
 * What a statement of a source document is:
 * - `server`: it fixes a behaviour of a server that an HTTP exchange can observe (a status, a code,
 *   a header, a field, a limit, a window, what is or is not created); the rules named check it.
 * - `client`: it binds only the client ("Retry with the same Idempotency-Key"); `why` says so.
 * - `unobservable`: it binds the service, but no HTTP exchange can show it (the developer portal,
 *   what happens to a live order in the world); `why` says why.
 * - `informative`: text with no behaviour (what the document covers, what it leaves "not shown",
 *   how the suite grades); `why` says why.
 */
const STATEMENT_KINDS = ['server', 'client', 'unobservable', 'informative'] as const;

const RULE_ID = /^[A-Z]+-\d{2}$/;
const ruleIds = z.array(z.string().regex(RULE_ID, 'a rule id looks like AREA-NN'));

/**
 * A statement limited to a scope or a condition (per account, per mode, per key, a kind of
 * key, an account's state): the checks of what it forbids and of what it leaves allowed, so a
 * server applying it too widely fails as surely as one applying it too narrowly. `tooWide`
 * names the defect-matrix defects that apply it beyond its scope (each caught by a rule of
 * `allows`, test/matrices/expectations.ts).
 */
const ScopeSchema = z
  .object({
    scope: z.string().min(3),
    forbids: ruleIds.min(1),
    allows: ruleIds.min(1),
    tooWide: z.array(z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)).default([]),
  })
  .strict();

/**
 * One statement: one sentence, or one obligation of a table row, of the API document (`A`) or
 * of the target contract (`C`). The id names the document and its section (`A4-12`: API
 * document section 4; `C2-05`: contract section 2; `A0` is the API document's text before
 * section 1) and never changes meaning: a statement removed is retired, its id never reused.
 */
export const StatementSchema = z
  .object({
    id: z.string().regex(/^[AC]\d-\d{2,3}$/, 'a statement id looks like A4-12 or C2-05'),
    kind: z.enum(STATEMENT_KINDS),
    /** Verbatim up to white space and Markdown marks, within one unit (sentence or table row). */
    text: z.string().min(2),
    /**
     * Where the text alone appears in more than one unit of its section: a verbatim fragment
     * of the one unit meant (a table row's first cells, `402 | card_declined`).
     */
    row: z.string().min(2).optional(),
    /** The rules whose checks send what would expose a violation (for a `server` statement). */
    rules: ruleIds.default([]),
    /**
     * The client rules (rules/client/, `CLIENT-NN`) that grade a partner's client on this
     * statement: a `client` statement's, or a server statement that binds the client too
     * ("Header Idempotency-Key is required").
     */
    clientRules: z
      .array(z.string().regex(/^CLIENT-\d{2}$/, 'a client rule id looks like CLIENT-NN'))
      .default([]),
    /** Why a statement of another kind than `server` is not checked against a server. */
    why: z.string().min(10).optional(),
    /**
     * A server statement no check fully exposes yet: the request (and the answer expected) that
     * would. A statement with a gap is not counted checked, whatever its rules.
     */
    gap: z.string().min(10).optional(),
    scope: ScopeSchema.optional(),
    retired: z.boolean().default(false),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.kind === 'server' && s.why !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['why'], message: 'a server statement has no why' });
    }
    if (s.kind !== 'server' && s.why === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['why'],
        message: `a ${s.kind} statement says why it is not checked against a server`,
      });
    }
    if (s.kind !== 'server' && (s.gap !== undefined || s.scope !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['kind'],
        message: 'only a server statement has a gap or a scope',
      });
    }
    if (s.kind === 'server' && s.rules.length === 0 && s.gap === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['rules'],
        message: 'a server statement names its rules, or its gap',
      });
    }
  });

export type StatementInput = z.input<typeof StatementSchema>;
export type Statement = z.output<typeof StatementSchema> & {
  doc: 'api' | 'contract';
  /** Top-level section number of its document ("0": the API document's text before section 1). */
  section: string;
};

/** The document and section an id names: `A4-12` is the API document's section 4. */
export function placeOf(id: string): { doc: 'api' | 'contract'; section: string } {
  return { doc: id.startsWith('A') ? 'api' : 'contract', section: id.slice(1, id.indexOf('-')) };
}
