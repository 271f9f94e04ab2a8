import { activeClientRules, type ClientRule, SITUATIONS } from '../../rules/client/index.js';
import type { ClientOutcome } from '../reports/report-model.js';
import type { Play } from '../sandbox/plan.js';
import { type Finding, type Judge, named } from './judge.js';
import { JUDGES, WORDS_RULE } from './judges/index.js';
import type { Traffic } from './traffic.js';

/** One client rule, graded. */
export interface ClientGrade {
  rule: ClientRule;
  outcome: ClientOutcome;
  reason: string;
  /** The exchanges that show it (a broken rule's first findings; an honoured rule's first). */
  exchanges: number[];
  occasions: number;
  honoured: number;
  broken: number;
}

/** Findings a broken rule shows exchanges of, and the exchanges at most. */
const SHOWN_FINDINGS = 3;
const SHOWN_EXCHANGES = 30;

/**
 * Grades the client's traffic by every active client rule: each rule's judge
 * on each occasion, then the rule's outcome. An answer the client must
 * recognise by its code (a 429, a 500, token_expired), met with its title
 * and detail reworded, counts for its own rule, unless the client kept that
 * rule with the usual words and failed it reworded: then the words decided,
 * and that is CLIENT-21's (rely on `code`). So a client that reads `detail`
 * is broken on CLIENT-21 only, and one that fails a rule whatever the words
 * on that rule.
 */
export function grade(traffic: Traffic, plays: readonly Play[]): ClientGrade[] {
  const split = new Map<string, Split>();
  const splitOf = (judge: Judge): Split => {
    let found = split.get(judge.ruleId);
    if (!found) {
      found = splitFindings(judge, traffic);
      split.set(judge.ruleId, found);
    }
    return found;
  };
  return activeClientRules.map((rule) => {
    try {
      if (rule.id === WORDS_RULE) {
        const reacting = [...JUDGES.values()].filter((judge) => judge.reacts);
        const findings = reacting.flatMap((judge) => splitOf(judge).words);
        findings.sort((a, b) => (a.exchanges[0] ?? 0) - (b.exchanges[0] ?? 0));
        return summed(rule, findings, () => notExercisedReason(rule, plays));
      }
      const judge = JUDGES.get(rule.id);
      if (!judge) return errorGrade(rule, 'no judge implements this rule (a gap of the suite)');
      const { own, words } = splitOf(judge);
      const why = () =>
        words.length > 0
          ? `its ${words.length} occasions came with the title and detail reworded, and ${WORDS_RULE} judged them`
          : notExercisedReason(rule, plays);
      return summed(rule, own, why);
    } catch (error) {
      return errorGrade(
        rule,
        `its judge failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  });
}

/** A rule's findings, and those that are CLIENT-21's: reworded answers, judged against the usual words. */
interface Split {
  own: Finding[];
  words: Finding[];
}

function splitFindings(judge: Judge, traffic: Traffic): Split {
  const occasions = judge.occasions(traffic);
  if (!judge.reacts) return { own: occasions.map((ex) => judge.judge(ex, traffic)), words: [] };
  const plain = occasions.filter((ex) => !ex.reworded).map((ex) => judge.judge(ex, traffic));
  const kept = plain.find((f) => f.outcome === 'honoured');
  const own = [...plain];
  const words: Finding[] = [];
  for (const ex of occasions.filter((e) => e.reworded)) {
    const finding = judge.judge(ex, traffic);
    if (finding.outcome === 'honoured') {
      own.push(finding);
      words.push({ ...finding, reason: `reworded, still: ${finding.reason}` });
    } else if (kept) {
      words.push({
        outcome: 'broken',
        exchanges: [...kept.exchanges, ...finding.exchanges],
        reason: `with the usual words, ${kept.reason}; with the title and detail reworded, ${finding.reason} (${judge.ruleId})`,
      });
    } else {
      own.push(finding);
      words.push({
        outcome: 'not_exercised',
        exchanges: [ex.id],
        reason: `${named(ex)} came reworded, but the client did not keep ${judge.ruleId} with the usual words either (${judge.ruleId} judges it)`,
      });
    }
  }
  own.sort((a, b) => (a.exchanges[0] ?? 0) - (b.exchanges[0] ?? 0));
  return { own, words };
}

function summed(rule: ClientRule, findings: readonly Finding[], why: () => string): ClientGrade {
  const broken = findings.filter((f) => f.outcome === 'broken');
  const honoured = findings.filter((f) => f.outcome === 'honoured');
  const counts = { occasions: findings.length, honoured: honoured.length, broken: broken.length };
  if (broken.length > 0) {
    const more = broken.length > 1 ? ` (broken ${broken.length} times in all)` : '';
    return {
      rule,
      outcome: 'broken',
      reason: `${broken[0]?.reason}${more}`,
      exchanges: shown(broken.slice(0, SHOWN_FINDINGS)),
      ...counts,
    };
  }
  if (honoured.length > 0) {
    const times = honoured.length === 1 ? 'once' : `${honoured.length} times`;
    return {
      rule,
      outcome: 'honoured',
      reason: `honoured ${times}; first: ${honoured[0]?.reason}`,
      exchanges: shown(honoured.slice(0, 1)),
      ...counts,
    };
  }
  const first = findings[0];
  return {
    rule,
    outcome: 'not_exercised',
    reason: first ? first.reason : why(),
    exchanges: first ? shown([first]) : [],
    ...counts,
  };
}

function shown(findings: readonly Finding[]): number[] {
  return [...new Set(findings.flatMap((f) => f.exchanges))].slice(0, SHOWN_EXCHANGES);
}

/** Why a rule had no occasion: the call that never came, and what became of its situations. */
function notExercisedReason(rule: ClientRule, plays: readonly Play[]): string {
  if (rule.situations.length === 0) return `the client's traffic held no ${rule.chance}`;
  const reworded = rule.id === WORDS_RULE;
  const states = rule.situations.flatMap((name) => {
    const mine = plays.filter((p) => (reworded ? p.reworded : p.situation === name && !p.reworded));
    if (mine.length === 0)
      return [
        reworded ? 'no situation was replayed reworded' : `${name} was not chosen (--situations)`,
      ];
    return mine.map((p) => situationState(p));
  });
  return `no ${rule.chance} came: ${[...new Set(states)].join('; ')}`;
}

function situationState(play: Play): string {
  const name = `${play.situation}${play.reworded ? ' (reworded)' : ''}`;
  switch (play.state) {
    case 'played':
      return `${name} was played at #${play.exchange} and the client sent nothing this rule judges`;
    case 'armed':
      return `${name} was set up, but the client's requests never reached it${play.note ? ` (${play.note})` : ''}`;
    case 'unplayable':
      return `${name} could not be played: ${play.note ?? 'unknown'}`;
    case 'pending':
      return `${name} never had its chance: the client sent no ${SITUATIONS[play.situation].chance}${play.reworded ? ' after its first playing' : ''}`;
  }
}

function errorGrade(rule: ClientRule, reason: string): ClientGrade {
  return { rule, outcome: 'error', reason, exchanges: [], occasions: 0, honoured: 0, broken: 0 };
}
