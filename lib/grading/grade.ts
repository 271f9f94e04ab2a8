import {
  activeClientRules,
  type ClientRule,
  SITUATIONS,
  type SituationName,
} from '../../rules/client/index.js';
import type { ClientOutcome } from '../reports/client-outcome.js';
import type { ClientExchange } from '../sandbox/exchange.js';
import type { Play } from '../sandbox/plan.js';
import { type Finding, named } from './judge.js';
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
 * on each occasion, then the rule's outcome. An occasion that is a reworded
 * replay of a situation is judged by CLIENT-21 alone: the reaction rules
 * judge the client with the usual words, CLIENT-21 whether new words change
 * that reaction, so a client that reads `detail` is broken on that rule only.
 */
export function grade(traffic: Traffic, plays: readonly Play[]): ClientGrade[] {
  return activeClientRules.map((rule) => {
    try {
      if (rule.id === WORDS_RULE) return gradeWords(rule, traffic, plays);
      const judge = JUDGES.get(rule.id);
      if (!judge) return errorGrade(rule, 'no judge implements this rule (a gap of the suite)');
      const occasions = judge.occasions(traffic).filter((ex) => !ex.play?.reworded);
      const findings = occasions.map((ex) => judge.judge(ex, traffic));
      return summed(rule, findings, () => notExercisedReason(rule, plays));
    } catch (error) {
      return errorGrade(
        rule,
        `its judge failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  });
}

function gradeWords(rule: ClientRule, traffic: Traffic, plays: readonly Play[]): ClientGrade {
  const findings: Finding[] = [];
  for (const ex of traffic.all) {
    if (!ex.play?.reworded) continue;
    const reaction = reactionRule(ex.play.situation);
    const judge = reaction ? JUDGES.get(reaction.id) : undefined;
    if (!reaction || !judge) continue;
    const reworded = judge.judge(ex, traffic);
    if (reworded.outcome === 'honoured') {
      findings.push({ ...reworded, reason: `reworded, still: ${reworded.reason}` });
      continue;
    }
    const plain = judge
      .occasions(traffic)
      .filter((e) => !e.play?.reworded)
      .map((e) => judge.judge(e, traffic))
      .find((f) => f.outcome === 'honoured');
    if (!plain) {
      findings.push({
        outcome: 'not_exercised',
        exchanges: [ex.id],
        reason: `${named(ex)} was ${ex.play.situation} reworded, but the client did not keep ${reaction.id} with the usual words either (${reaction.id} judges that)`,
      });
      continue;
    }
    findings.push({
      outcome: 'broken',
      exchanges: [...plain.exchanges, ...reworded.exchanges],
      reason: `with the usual words, ${plain.reason}; with the title and detail reworded, ${reworded.reason} (${reaction.id})`,
    });
  }
  return summed(rule, findings, () => notExercisedReason(rule, plays));
}

/** The rule that judges the client's reaction to a situation (CLIENT-18 for a 429, …). */
function reactionRule(situation: SituationName): ClientRule | undefined {
  return activeClientRules.find((r) => r.id !== WORDS_RULE && r.situations.includes(situation));
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
export function notExercisedReason(rule: ClientRule, plays: readonly Play[]): string {
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

/** The exchanges of a grade, for its evidence. */
export function evidenceOf(grade: ClientGrade, traffic: Traffic): ClientExchange[] {
  const wanted = new Set(grade.exchanges);
  return traffic.all.filter((ex) => wanted.has(ex.id));
}
