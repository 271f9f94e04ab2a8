// Judges a replay's answers as the check judged the run's: each judgement's condition (the rule
// as data) on the answers of its steps, never the run's old value where the condition is known.
// A header or field is judged only on an answer with the run's status: another status is a
// DIFFERENT ANSWER, exit 1 where that answer breaks what the check required there too, else 2.
// Shared by repro/<RULE>.mjs and the curl form (which runs it once, at its end).
import {
  answerAt,
  describeCondition,
  holds,
  place,
  pointersOf,
  sameValue,
} from '../../../violations/condition.mjs';
import { describeStep } from './step-text.mjs';
import { fillData, Unfilled } from './template.mjs';
import { shown } from './visible.mjs';

export const EXIT = { notReproduced: 0, reproduced: 1, cannot: 2 };

/**
 * `answers`: step id → `{status, headers, text, json, overCap}` of this replay; `values`: the
 * variables' values; `secrets`: values no answer may hold (a LEAK). Answers the lines to print and
 * the exit code.
 */
export function judgeReplay(plan, answers, values, secrets) {
  const rule = plan.rule.id;
  if (plan.judge.length === 0) {
    return {
      exit: EXIT.cannot,
      lines: [
        `CANNOT RUN: the run ended this check in error (${plan.reason ?? 'no reason given'}); it judged nothing to judge again. --verbose shows the replayed exchanges.`,
      ],
    };
  }
  const results = plan.judge.map((j) => judgeOne(plan, j, answers, values, secrets));
  const broken = results.filter((r) => r.kind === 'broken');
  const different = results.filter((r) => r.kind === 'different');
  const breaking = different.filter((r) => r.breaks);
  const held = results.filter((r) => r.kind === 'holds');
  const unjudged = results.filter((r) => r.kind === 'unjudged');
  // An answer over the cap is the target's finding: what its body holds is not judged.
  const oversized = results.filter((r) => r.kind === 'oversized');
  const differentLines = unique([
    ...different.map((r) => `DIFFERENT ANSWER: ${rule} ${r.text}`),
    ...oversized.map((r) => `ANSWER OVER 2 MiB: ${rule} ${r.text}`),
  ]);
  if (broken.length > 0 || breaking.length > 0) {
    return {
      exit: EXIT.reproduced,
      lines: [
        ...differentLines,
        ...unique([
          ...broken.map((r) => `REPRODUCED: ${rule} ${r.text}`),
          ...breaking.map((r) => `REPRODUCED: ${rule} ${r.breaks}`),
        ]),
      ],
    };
  }
  if (different.length > 0 || oversized.length > 0) {
    return {
      exit: EXIT.cannot,
      lines: [
        ...differentLines,
        `CANNOT TELL: ${rule} the replay got ${different.length > 0 ? 'a different answer' : 'an answer too large to read'} where the run's failure was; whether the rule holds there cannot be judged on it`,
      ],
    };
  }
  if (held.length === 0) {
    return {
      exit: EXIT.cannot,
      lines: [
        `CANNOT RUN: none of the judgements can be judged standalone (${unjudged.map((r) => r.text).join('; ')})`,
      ],
    };
  }
  return {
    exit: EXIT.notReproduced,
    lines: [
      `NOT REPRODUCED: ${rule} ${unique(held.map((r) => r.text)).join('; ')}`,
      ...(unjudged.length ? [`  not judged: ${unjudged.map((r) => r.text).join('; ')}`] : []),
    ],
  };
}

/** Lines once each: judgements on one race read the same answers. */
function unique(lines) {
  return [...new Set(lines)];
}

function judgeOne(plan, j, answers, values, secrets) {
  const unjudged = (why) => ({ kind: 'unjudged', text: `${j.message}: ${why}` });
  if (j.values) {
    let expected;
    let received;
    try {
      expected = fillData(j.values.expected, values);
      received = fillData(j.values.received, values);
    } catch (error) {
      if (error instanceof Unfilled) return unjudged(error.message);
      throw error;
    }
    return sameValue(expected, received)
      ? {
          kind: 'holds',
          text: `${j.message}: now ${shown(received)}, as required (${shown(expected)})`,
        }
      : {
          kind: 'broken',
          text: `${j.message}: now ${shown(received)}; required: ${shown(expected)}`,
        };
  }
  if (j.steps.length === 0) return unjudged('it names no single answer');
  const sent = j.steps.filter((id) => answers.has(id));
  // Steps that need what a race gives are left out when it did not give it (never sent).
  const optional = (id) => plan.steps.find((s) => s.id === id)?.ifLearned;
  const missing = j.steps.filter((id) => !answers.has(id) && !optional(id));
  if (sent.length === 0 || (j.across && missing.length > 0)) {
    return unjudged(
      j.steps.every(optional)
        ? 'not sent: the race gave no value for it this time'
        : 'the replay did not get that far',
    );
  }
  const list = sent.map((id) => ({ id, answer: answers.get(id) }));
  let must;
  let old;
  try {
    must = j.must === undefined ? undefined : fillData(j.must, values);
    old = j.old && 'value' in j.old ? { value: fillData(j.old.value, values) } : j.old;
  } catch (error) {
    if (error instanceof Unfilled) return unjudged(error.message);
    throw error;
  }
  const readsBody = (must ? pointersOf(must) : [j.pointer]).some((p) => p.startsWith('/body'));
  const over = list.find(({ answer }) => answer.overCap);
  if (readsBody && over) {
    return {
      kind: 'oversized',
      text: `the answer of ${where(plan, over.id, over.answer)} is over 2 MiB, read no further: ${place(j.pointer)} is not judged`,
    };
  }
  if (j.across) {
    const now = list.map(({ answer }) => answer.status).join(', ');
    const what = `${describeCondition(must)}; the answers now: HTTP ${now}${distinctNote(must, list)}`;
    return holds(
      must,
      list.map(({ answer }) => answer),
    )
      ? { kind: 'holds', text: `${what}, as required` }
      : { kind: 'broken', text: `${j.message}; now not so: ${what}` };
  }
  // Of a race's requests, those with an answer the check accepted from a racer (a 201 beside the
  // run's failing 409) are not judged: the check judged such answers otherwise (an order id).
  const pool = j.accepts
    ? list.filter(
        ({ answer }) => !j.accepts.includes(answer.status) || answer.status === j.run.status,
      )
    : list;
  if (pool.length === 0) {
    const statuses = list.map(({ answer }) => answer.status);
    return {
      kind: 'holds',
      text: `${j.message.split(':')[0]}: none of the ${list.length} requests sent together got the answer the run's failure was in (now HTTP ${statuses.join(', ')}, answers the check accepts)`,
    };
  }
  const inGuard = j.guard ? pool.filter(({ answer }) => j.guard.includes(answer.status)) : pool;
  if (inGuard.length === 0) {
    const statuses = pool.map(({ answer }) => answer.status);
    const first = pool[0];
    const text = `the run got ${runStatus(j)}, now ${statuses.join(', ')} (${where(plan, first.id, first.answer)}): ${place(j.pointer)} is not judged on another answer`;
    const breaking = j.expects ? list.find(({ answer }) => !holds(j.expects, answer)) : undefined;
    return {
      kind: 'different',
      text,
      ...(breaking
        ? {
            breaks: `a different answer breaks the rule: ${where(plan, breaking.id, breaking.answer)} where the check requires that ${describeCondition(j.expects)}`,
          }
        : {}),
    };
  }
  for (const { id, answer } of inGuard) {
    const bad = must ? !holds(must, answer) : brokenByOld(j, answer, old, secrets);
    if (!bad) continue;
    const now = nowText(must, j.pointer, answer);
    const rule = must ? `; required: ${describeCondition(must)}` : '';
    return { kind: 'broken', text: `${now} (${where(plan, id, answer)})${rule}` };
  }
  const { id, answer } = inGuard[0];
  const rule = must
    ? describeCondition(must)
    : `not ${shown(old && 'value' in old ? old.value : undefined)} as in the run`;
  return {
    kind: 'holds',
    text: `${nowText(must, j.pointer, answer)} (${where(plan, id, answer)}), as required (${rule})`,
  };
}

/** Without the condition as data: broken when the run's value (or a secret) comes back. */
function brokenByOld(j, answer, old, secrets) {
  const current = answerAt(answer, j.pointer);
  if (j.code === 'LEAK' && secrets.some((secret) => secret && (answer.text ?? '').includes(secret)))
    return true;
  if (old === undefined) {
    // Where the violation points the run's evidence could not say: the same answer as the run's.
    return answer.status === j.run.status && (answer.json?.code ?? undefined) === j.run.code;
  }
  return 'absent' in old ? current === undefined : sameValue(current, old.value);
}

/** What the answer shows where the condition reads: `header retry-after is "soon"`. */
function nowText(must, pointer, answer) {
  const pointers = (must ? pointersOf(must) : [pointer]).slice(0, 3);
  return pointers.map((p) => `${place(p)} is ${shown(answerAt(answer, p))}`).join(', ');
}

function distinctNote(must, list) {
  if (!must || !('distinct' in must)) return '';
  const values = list
    .map(({ answer }) => answerAt(answer, must.distinct))
    .filter((v) => v !== undefined);
  return `; ${place(must.distinct)}: ${values.map((v) => shown(v, 40)).join(', ') || 'none'}`;
}

function runStatus(j) {
  return `${j.run.status ?? 'no answer'}${j.run.code ? ` ${j.run.code}` : ''}`;
}

/** `#12 POST /api/…/oauth/token (key 1): HTTP 429 rate_limited` */
export function where(plan, id, answer) {
  const step = plan.steps.find((s) => s.id === id);
  if (!step) return `#${id}`;
  const code =
    typeof answer?.json?.code === 'string' ? ` ${shown(answer.json.code, 60).slice(1, -1)}` : '';
  const status = answer ? `: HTTP ${answer.status}${code}` : '';
  return `${describeStep(step)}${status}`;
}
