import type { Report, RuleResult } from './report-model.js';

/**
 * What a run could not verify, and the flag or setting that supplies it
 * (issue 25: every hint names its fix). One group per fix, so that the
 * terminal, summary.md and report.html say the same thing; the counts of the
 * groups add up to the not_verifiable (and skipped) rules.
 */
export interface UnverifiedGroup {
  /** What the rules lack, in words. */
  need: string;
  /** The flag or setting that supplies it; empty when nothing the user sets would. */
  fix: string;
  rule_ids: string[];
}

type RunShape = Pick<Report, 'target_info' | 'results'>;

const CONTROL_FIX =
  'give the control API of a sandbox or staging target: --control-url URL with CONTROL_TOKEN (target contract, section 3)';
const KEY_FIX =
  'set PARTNER_ACCESS_KEY_ID and PARTNER_SECRET_KEY (a test key; docs/partners.md), or give a control API: --control-url URL with CONTROL_TOKEN';
const LIVE_FIX =
  '--allow-live-orders (CONFORMANCE_ALLOW_LIVE_ORDERS=true): lets checks place orders with live keys, which are real; never against production';

/** Groups, largest first; the rules of a group in report order. */
export function unverifiedGroups(report: RunShape): UnverifiedGroup[] {
  const groups = new Map<string, UnverifiedGroup>();
  for (const result of report.results) {
    if (result.verdict !== 'not_verifiable' && result.verdict !== 'skipped') continue;
    const { need, fix } = needOf(result, report);
    const key = `${need}\u0000${fix}`;
    const group = groups.get(key) ?? { need, fix, rule_ids: [] };
    group.rule_ids.push(result.rule_id);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.rule_ids.length - a.rule_ids.length);
}

/** What one not_verifiable or skipped result lacks, and its fix. */
export function needOf(result: RuleResult, report: RunShape): { need: string; fix: string } {
  if (result.verdict === 'skipped') {
    return result.reason?.includes('--suites')
      ? {
          need: 'a check file --suites left out',
          fix: 'widen --suites (CONFORMANCE_SUITES), or drop it to run every bundled check',
        }
      : { need: 'the --only selection', fix: 'widen or drop --only (CONFORMANCE_ONLY)' };
  }
  if (result.uncovered) {
    return {
      need: 'a check (no check implements the rule yet: a gap of the suite, not of the target)',
      fix: '',
    };
  }
  const reason = result.reason ?? '';
  if (reason.startsWith('throttled')) {
    return {
      need: 'a target that does not keep answering 429 (throttled)',
      fix: 'run when the sandbox is quiet, or raise the key’s rate limits; the suite already honours Retry-After',
    };
  }
  const field = /set (\S+) in the profile/.exec(reason)?.[1];
  if (field) {
    return {
      need: `the profile field ${field}`,
      fix: `set ${field} in the profile (--profile FILE; docs/profiles.md), or draft one: --draft-profile FILE`,
    };
  }
  const missing = result.missing ?? [];
  const hasControl = report.target_info.control_url !== undefined;
  const hasKey = report.target_info.partner_key !== undefined;
  const parts: { need: string; fix: string }[] = [];
  const controlNeeds = missing.filter((m) => m !== 'live_orders');
  if (controlNeeds.length > 0) {
    if (!hasControl && !hasKey && reason.startsWith('needs an API key')) {
      parts.push({ need: 'an API key', fix: KEY_FIX });
    } else if (!hasControl) {
      parts.push({
        need: `the control API (${controlNeeds.map((m) => `"${m}"`).join(', ')})`,
        fix: CONTROL_FIX,
      });
    } else {
      parts.push({
        need: `the control features ${controlNeeds.map((m) => `"${m}"`).join(', ')}`,
        fix: "announce them in the target's control API (GET {control}/capabilities, target contract section 3)",
      });
    }
  }
  if (missing.includes('live_orders'))
    parts.push({ need: 'consent to live orders', fix: LIVE_FIX });
  if (parts.length === 0) {
    if (hasKey && !hasControl && /partner key|the sandbox/.test(reason)) {
      return {
        need: 'a key or account other than the partner key (another mode, scope or account)',
        fix: CONTROL_FIX,
      };
    }
    return { need: `what the reason says (${oneLine(reason)})`, fix: '' };
  }
  return {
    need: parts.map((p) => p.need).join(' and '),
    fix: parts.map((p) => p.fix).join('; and '),
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
