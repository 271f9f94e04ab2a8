import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { Rule } from '../../rules/index.js';
import { ConfigError, quote } from './config-error.js';

/**
 * A waiver: a known failure of one rule, accepted until it expires. The
 * failure stays in the report (failed, marked waived with its reason); only
 * the exit code no longer counts it. Expiry is required: a waiver that never
 * ends is a rule switched off.
 */
export interface Waiver {
  rule_id: string;
  reason: string;
  /** `YYYY-MM-DD` (valid through that day, UTC) or an ISO 8601 instant. */
  expires: string;
  link?: string;
  /** The instant it stops working. */
  expiresAt: Date;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const WaiverSchema = z
  .object({
    rule_id: z.string().regex(/^[A-Z]+-\d{2}$/, 'must be a rule id such as IDEM-03'),
    reason: z.string().trim().min(1, 'must say why the failure is accepted'),
    expires: z
      .string()
      .refine(
        (value) =>
          (DATE_ONLY.test(value) || /^\d{4}-\d{2}-\d{2}T/.test(value)) &&
          !Number.isNaN(Date.parse(value)),
        'must be a date (YYYY-MM-DD) or an ISO 8601 time',
      ),
    link: z.string().url('must be a URL').optional(),
  })
  .strict();

/**
 * Reads and validates a waivers file (`--waivers` / CONFORMANCE_WAIVERS): a
 * JSON list. Anything wrong is a ConfigError naming the entry and the field,
 * in one sentence (never zod's own text dump).
 */
export function loadWaivers(
  value: string,
  source: string,
  cwd: string,
  rules: readonly Rule[],
): { file: string; waivers: Waiver[] } {
  const file = resolve(cwd, value);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code) throw new ConfigError(source, `cannot read ${quote(value)} (${code})`);
    throw new ConfigError(source, `${quote(value)} is not valid JSON`);
  }
  if (!Array.isArray(raw)) {
    throw new ConfigError(source, `${quote(value)} must hold a JSON list of waivers`);
  }
  const known = new Map<string, Rule>(rules.map((rule) => [rule.id, rule]));
  const seen = new Set<string>();
  const waivers = raw.map((entry, index): Waiver => {
    const name = `${source}: waiver ${index + 1}${ruleOf(entry)}`;
    const parsed = WaiverSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue?.code === 'unrecognized_keys') {
        throw new ConfigError(name, `unknown field ${quote(issue.keys[0] ?? '')}`);
      }
      const field = issue?.path.map(String).join('.');
      const missing = issue?.code === 'invalid_type' && issue.input === undefined;
      const what = missing
        ? 'is required'
        : issue?.code === 'invalid_type'
          ? `must be a ${issue.expected}`
          : (issue?.message ?? 'is invalid');
      throw new ConfigError(name, field ? `${field} ${what}` : 'must be an object');
    }
    const waiver = parsed.data;
    if (!known.has(waiver.rule_id)) {
      throw new ConfigError(name, `rule_id ${waiver.rule_id} names no rule of the catalogue`);
    }
    if (seen.has(waiver.rule_id)) {
      throw new ConfigError(name, `rule_id ${waiver.rule_id} is waived twice`);
    }
    seen.add(waiver.rule_id);
    return {
      rule_id: waiver.rule_id,
      reason: waiver.reason,
      expires: waiver.expires,
      ...(waiver.link ? { link: waiver.link } : {}),
      expiresAt: DATE_ONLY.test(waiver.expires)
        ? new Date(Date.parse(`${waiver.expires}T00:00:00Z`) + 86_400_000)
        : new Date(waiver.expires),
    };
  });
  return { file, waivers };
}

function ruleOf(entry: unknown): string {
  const id = (entry as { rule_id?: unknown } | null)?.rule_id;
  return typeof id === 'string' && id.length < 20 ? ` (${id})` : '';
}
