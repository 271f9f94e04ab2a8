import { shellWord } from '../shell-quote.js';
import { curlPreamble, endMarked, initValues } from './curl-prelude.js';
import { captures, curlArgs, picks, TRANSFER, word } from './curl-step.js';
import type { PlanStep, ReplayPlan } from './plan-types.js';
import { describeStep } from './runtime/step-text.mjs';
import { runtimeText } from './runtime-text.js';

const JUDGE_END = 'REPRO_JUDGE_END';

/** Like requests one curl sends at most (a command line of a reasonable length). */
const BURST = 100;

/**
 * The curl form of a reproduction: the plan as a POSIX sh script, its steps
 * as curl commands in the plan's order (loops, requests sent together with
 * `&` and `wait`), each value picked from the answer before by one awk an
 * answer (one node made the client's values at the start), then one node
 * judging the answers as `repro/<RULE>.mjs` does:
 * prints what each judgement expected and what came, and exits 1 while the
 * failure stands, 0 once it does not, 2 when it cannot tell or cannot run.
 * Needs sh, curl, awk and node; secrets only from the environment.
 */
export function curlScript(plan: ReplayPlan): string[] {
  const steps = new Map(plan.steps.map((s) => [s.id, s]));
  const lines: string[] = [...curlPreamble(plan)];
  lines.push(...initValues(plan));
  for (const item of plan.items) {
    if ('step' in item) {
      const step = steps.get(item.step) as PlanStep;
      lines.push(...ifLearned(plan, step, sendStep(plan, step)));
    } else if ('together' in item) {
      const members = item.together.map((id) => steps.get(id) as PlanStep);
      if (members.some((step) => step.ifLearned)) {
        lines.push(...someTogether(plan, members));
        continue;
      }
      lines.push(
        `# ${members.length} requests the check sent at once, sent together again: one curl opening a`,
        '# connection for each at once where curl can (7.76 and later), else one curl each in the background',
      );
      for (const step of members) lines.push(...needs(plan, step));
      lines.push(
        'if [ "$CURL76" = 1 ]; then',
        `  ${members.map((step) => `: > "$T/${step.id}.b";`).join(' ')}`,
        '  # Under a file size limit of 4096 blocks of 512 bytes (the cap), as `burst` sends',
        '  { ( ulimit -f 4096 2>/dev/null; exec curl -sS -Z --parallel-immediate --parallel-max 64 \\',
        ...members.map(
          (step, i) =>
            `    ${i > 0 ? '--next ' : ''}${TRANSFER} -o "$T/${step.id}.b" -D "$T/${step.id}.h" -w '${step.id} %{http_code} %{exitcode} %{size_download}\\n' ${curlArgs(plan, step)} \\`,
        ),
        '    > "$T/race" 2>/dev/null ); } 2>/dev/null',
        // What curl ended with is the answer of each it wrote no line for (stopped at the file size limit).
        `  _rx=$?; for _i in ${members.map((step) => step.id).join(' ')}; do echo "$_rx" > "$T/$_i.x"; echo '000 0' > "$T/$_i.s"; done`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
        '  while read -r _i _c _e _z; do echo "$_c $_z" > "$T/$_i.s"; echo "${_e:-1}" > "$T/$_i.x"; done < "$T/race"',
        'else',
        ...members.map((step) => `  fire ${step.id} ${curlArgs(plan, step)} &`),
        '  wait',
        'fi',
      );
      for (const step of members)
        lines.push(...afterSend(plan, step, shellWord(describeStep(step))));
    } else {
      const loop = item.loop.map((id) => steps.get(id) as PlanStep);
      const first = loop[0] as PlanStep;
      const last = loop.at(-1) as PlanStep;
      const what = `#${first.id}..#${last.id} ${loop.length} like requests ${describeStep(first).replace(/^#\d+ /, '')}`;
      const until = item.until === undefined ? [] : [`[ "$_s" = ${item.until} ] && break`];
      // One curl a request, for curls before 7.76 and for requests that each make something to remove.
      const oneByOne = [
        `while [ "$i" -lt ${item.most} ]; do`,
        '  i=$((i+1))',
        `  step ${last.id} '' ${shellWord(picks(plan, last))} 0 ${checkOf(first)} ${curlArgs(plan, first, '-$i')}`,
        ...[...captures(plan, last), ...makes(plan, last), ...until].map((line) => `  ${line}`),
        'done',
      ];
      lines.push(
        `# ${what}: sent until HTTP ${item.until ?? '(any)'} comes, at most ${item.most} times, each with client values of its own`,
        ...needs(plan, first),
        'i=0',
      );
      if (loop.some((step) => step.makes)) lines.push(...oneByOne);
      else
        lines.push(
          '# A burst as quick as the run’s, not a process a request, so that no rate window ends in it where the',
          `# run's did not: one curl sends up to ${BURST} of them one after another on one connection, stopping at`,
          '# the first answer of 400 or more (curl 7.76 and later; else one curl each).',
          'if [ "$CURL76" = 1 ]; then',
          `  while [ "$i" -lt ${item.most} ]; do`,
          '    _from=$i; set --',
          `    while [ "$i" -lt ${item.most} ] && [ "$i" -lt $((_from + ${BURST})) ]; do`,
          '      i=$((i+1)); [ "$i" -gt $((_from + 1)) ] && set -- "$@" --next',
          `      set -- "$@" ${TRANSFER} --fail-with-body -o "$T/L$i.b" -D "$T/L$i.h" -w "$i %{http_code} %{exitcode} %{size_download}\\n" ${curlArgs(plan, first, '-$i')}`,
          '    done',
          `    burst ${last.id} "$_from" "$@"`,
          `    took ${last.id} '' ${shellWord(picks(plan, last))} ${checkOf(first)}`,
          ...[...captures(plan, last), ...until].map((line) => `    ${line}`),
          '  done',
          'else',
          ...oneByOne.map((line) => `  ${line}`),
          'fi',
        );
      lines.push(`printf '%s -> HTTP %s (%s sent)\\n' ${shellWord(what)} "$_s" "$i"`);
    }
  }
  lines.push(...judge(plan));
  return lines;
}

function sendStep(plan: ReplayPlan, step: PlanStep): string[] {
  return [
    ...needs(plan, step),
    `step ${step.id} ${shellWord(describeStep(step))} ${shellWord(picks(plan, step))} ${step.status === 429 ? 0 : 1} ${checkOf(step)} ${curlArgs(plan, step)}`,
    ...captures(plan, step),
    ...makes(plan, step),
  ];
}

/**
 * Requests sent together, some of which need what a race gave: each of those
 * sent only when this replay's race gave it (one curl each in the background),
 * the others as always; an answer read only for what was sent.
 */
function someTogether(plan: ReplayPlan, members: readonly PlanStep[]): string[] {
  const lines = [
    `# ${members.length} requests the check sent at once, sent together again, each where this replay has what it needs`,
  ];
  for (const step of members) {
    if (!step.ifLearned) lines.push(...needs(plan, step));
    const fire = `fire ${step.id} ${curlArgs(plan, step)} &`;
    lines.push(step.ifLearned ? `if learned ${learnedNames(plan, step)}; then ${fire} fi` : fire);
  }
  lines.push('wait');
  for (const step of members) {
    const took = afterSend(plan, step, shellWord(describeStep(step)));
    lines.push(...(step.ifLearned ? [`if [ -f "$T/${step.id}.x" ]; then`, ...took, 'fi'] : took));
  }
  return lines;
}

/**
 * A step that needs what a race gave (a key made in it, a token a racer got):
 * sent only when this replay's race gave it, else said so and left out.
 */
function ifLearned(plan: ReplayPlan, step: PlanStep, send: string[]): string[] {
  if (!step.ifLearned) return send;
  const what = shellWord(
    `${describeStep(step)}: not sent, the race gave no value for it this time`,
  );
  return [
    `if learned ${learnedNames(plan, step)}; then`,
    ...send.filter((line) => !line.startsWith('need ')),
    `else printf '%s\\n' ${what}; fi`,
  ];
}

function learnedNames(plan: ReplayPlan, step: PlanStep): string {
  return answerNames(plan, step).join(' ') || 'v0';
}

/** After a request sent in the background: read its answer as `step` does. */
function afterSend(plan: ReplayPlan, step: PlanStep, what: string): string[] {
  return [
    `took ${step.id} ${what} ${shellWord(picks(plan, step))} ${checkOf(step)}`,
    ...captures(plan, step),
    ...makes(plan, step),
  ];
}

/** What the step's answer must be for the replay to go on (set-up that failed, a refused key). */
function checkOf(step: PlanStep): string {
  return step.setUp ?? '-';
}

/** Notes what the step made (when it succeeded) for clean-up. */
function makes(plan: ReplayPlan, step: PlanStep): string[] {
  const ok = 'case $_s in 2??)';
  const token = /^bearer\s+\{\{(v\d+)\}\}$/i.exec(step.headers.authorization ?? '')?.[1] ?? '';
  switch (step.makes) {
    case 'key':
      return [`${ok} made key "$_m_u" ;; esac`];
    case 'order':
    case 'webhook':
      return [`${ok} made ${step.makes} "$_m_u" ${token || '-'} ${step.tokenFrom ?? '-'} ;; esac`];
    case 'service':
      return [`${ok} made service ${word(plan, step.url, 'url')} ;; esac`];
    default:
      return [];
  }
}

/** A step needs the values it sends learned: else it cannot be sent, and the replay says so. */
function needs(plan: ReplayPlan, step: PlanStep): string[] {
  return answerNames(plan, step).map((name) => `need ${name} ${shellWord(describeStep(step))}`);
}

/** The variables a step sends that an answer gives. */
function answerNames(plan: ReplayPlan, step: PlanStep): string[] {
  const text = JSON.stringify([step.url, step.headers, step.basic, step.body]);
  const names = [...new Set([...text.matchAll(/\{\{(v\d+)\}\}/g)].map((m) => m[1] as string))];
  return names.filter((name) => plan.vars[name]?.kind === 'answer');
}

/** One node judges every answer as repro/<RULE>.mjs would, and writes its exit code. */
function judge(plan: ReplayPlan): string[] {
  const data = {
    rule: plan.rule,
    ...(plan.reason ? { reason: plan.reason } : {}),
    vars: plan.vars,
    secrets: plan.secrets,
    steps: plan.steps.map((s) => ({
      id: s.id,
      method: s.method,
      url: s.url,
      ...(s.key ? { key: s.key } : {}),
      ...(s.ifLearned ? { ifLearned: true } : {}),
    })),
    judge: plan.judge,
  };
  const program = `const REPRO = ${JSON.stringify(data)};\n\n${runtimeText('curl')}\n\ncurlMain(REPRO);`;
  return [
    '# The judgement: every answer judged as the check judged the run’s, with what came and what the rule requires.',
    `node --input-type=module - "$T" <<'${JUDGE_END}'`,
    ...endMarked(program, JUDGE_END),
    JUDGE_END,
    '_verdict=2; [ -s "$T/verdict" ] && read -r _verdict < "$T/verdict"',
    'case $_verdict in 0|1|2) ;; *) _verdict=2 ;; esac',
    'exit "$_verdict"',
  ];
}
