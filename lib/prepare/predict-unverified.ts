import type { Capability, Rule } from '../../rules/index.js';

/** The four scopes of the API document (section 5). */
const SCOPES = ['catalog:read', 'orders:read', 'orders:write', 'webhooks:manage'];

export interface PredictionInput {
  /** The rules the run will run (selected by --only and --suites). */
  rules: readonly Rule[];
  capabilities: readonly Capability[];
  hasControl: boolean;
  /** The partner key, with the scopes its token was granted (from the preflight), when known. */
  partnerKey?: { scopes?: readonly string[] };
}

/**
 * The rules a run will end `not_verifiable` for want of something the user
 * can give, known before any check runs (predicted = actual). A
 * rule's `needs` (control features, live-order consent) and its `key` (what
 * key its check sends with) decide; test/e2e/partner-mode.test.ts runs the
 * bundled checks with no key and with a partner key and holds the
 * prediction to the outcome, so the catalogue cannot drift from the checks.
 * What only the target can decide (a sandbox's daily limit, an empty
 * catalogue, throttling) is not predicted.
 */
export function predictUnverified(input: PredictionInput): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const hasKey = input.hasControl || input.partnerKey !== undefined;
  for (const rule of input.rules) {
    const lacking: string[] = rule.needs.filter((need) => !input.capabilities.includes(need));
    if (lacking.length === 0 && !hasKey && rule.key !== 'none') lacking.push('an API key');
    if (
      lacking.length === 0 &&
      rule.key === 'lacking_a_scope' &&
      !input.capabilities.includes('keys') &&
      input.partnerKey?.scopes !== undefined &&
      SCOPES.every((scope) => input.partnerKey?.scopes?.includes(scope))
    )
      lacking.push('a key lacking one of the four scopes');
    if (lacking.length > 0) out.set(rule.id, lacking);
  }
  return out;
}
