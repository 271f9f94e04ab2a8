import type { Report, RuleResult } from './report-model.js';

/**
 * What a run could not verify, and the flag or setting that supplies it
 * (every hint names its fix). One group per fix, so that the
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

/** Groups by fix, largest first; the rules of a group in report order. */
export function unverifiedGroups(report: RunShape): UnverifiedGroup[] {
  const groups = new Map<string, UnverifiedGroup & { features: Set<string> }>();
  for (const result of report.results) {
    if (result.verdict !== 'not_verifiable' && result.verdict !== 'skipped') continue;
    const { need, fix, features = [] } = needOf(result, report);
    const key = `${need}\u0000${fix}`;
    const group = groups.get(key) ?? { need, fix, rule_ids: [], features: new Set<string>() };
    group.rule_ids.push(result.rule_id);
    for (const feature of features) group.features.add(feature);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => b.rule_ids.length - a.rule_ids.length)
    .map(({ need, fix, rule_ids, features }) => ({
      need: features.size ? `${need} (${[...features].map((f) => `"${f}"`).join(', ')})` : need,
      fix,
      rule_ids,
    }));
}

/** What one not_verifiable or skipped result lacks, and its fix. */
function needOf(
  result: RuleResult,
  report: RunShape,
): { need: string; fix: string; features?: string[] } {
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
  let features: string[] | undefined;
  const controlNeeds = missing.filter((m) => m !== 'live_orders');
  if (controlNeeds.length > 0) {
    if (!hasControl && !hasKey && reason.startsWith('needs an API key')) {
      parts.push({ need: 'an API key', fix: KEY_FIX });
    } else if (!hasControl) {
      parts.push({ need: 'the control API', fix: CONTROL_FIX });
      features = controlNeeds;
    } else {
      parts.push({
        need: "control features the target's control API does not announce",
        fix: controlNeeds.includes('charges')
          ? 'announce them in GET {control}/capabilities (target contract, section 3; charges is an addition: docs/contract-additions.md)'
          : 'announce them in GET {control}/capabilities (target contract, section 3)',
      });
      features = controlNeeds;
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
    ...(features ? { features } : {}),
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
