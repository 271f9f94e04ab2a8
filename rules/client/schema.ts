import { z } from 'zod';
import { LEVELS, refineLevelAndSource, SourceSchema } from '../schema.js';
import { SITUATION_NAMES } from './situations.js';

/** The one area of client rules: their results carry it where a target's carry theirs. */
export const CLIENT_AREA = 'CLIENT';
export type ClientArea = typeof CLIENT_AREA;
export const CLIENT_AREA_TITLE = "Client rules (a partner's client, graded by the sandbox)";

/**
 * A statement of the API document addressed to the client ("Retry with the
 * same Idempotency-Key", "Wait, then retry"), as a rule the sandbox grades a
 * partner's client by in client mode. Validated like a target's rule
 * (rules/schema.ts): its level follows from its source, its section is the
 * one it quotes, its title starts with its level; a test finds every quote
 * verbatim in its section.
 */
export const ClientRuleSchema = z
  .object({
    /** `CLIENT-NN`. Never reused: a retired rule keeps its id with `retired: true`. */
    id: z.string().regex(/^CLIENT-\d{2}$/, 'id must look like CLIENT-NN'),
    level: z.enum(LEVELS),
    /** Our own words, starting with the level. */
    title: z.string().min(10).max(140),
    section: z.string().regex(/^(C?\d+)$/),
    /** The sentence(s) of the API document the rule rests on. */
    source: SourceSchema,
    /** The situations of the sandbox that exercise it; none: the client's own traffic does. */
    situations: z.array(z.enum(SITUATION_NAMES)).default([]),
    /**
     * The call of the client that gives the rule a chance, in words: a
     * not_exercised result says that it never came ("a token request").
     */
    chance: z.string().min(5),
    /** What the rule expects of the client, in words (docs/partners.md, the report). */
    expects: z.string().min(10),
    retired: z.boolean().default(false),
  })
  .strict()
  .superRefine((rule, ctx) => refineLevelAndSource(rule, ctx));

export type ClientRuleInput = z.input<typeof ClientRuleSchema>;
export type ClientRule = z.output<typeof ClientRuleSchema> & { area: ClientArea };
