import type { EnvName, Replay, TraceStep } from '../../evidence/trace.js';
import type { RuleResult } from '../report-model.js';
import { planJudgements } from './judgements.js';
import { loopsOf } from './loops.js';
import type { Capture, PlanItem, PlanStep, ReplayPlan } from './plan-types.js';
import type { ReproSettings } from './repro-settings.js';
import { stepRoles } from './step-roles.js';
import { togetherOf } from './together.js';

/**
 * Headers that describe one connection or one transfer, which the sender of
 * each replayed request sets itself (Node or curl): left out of the plan, so
 * neither form of a reproduction decides what to skip.
 */
const PER_CONNECTION = new Set(['host', 'content-length', 'connection', 'accept-encoding']);

/**
 * The replay plan of one result, made once when the report is written: the
 * check's steps with what each captures, in the order to send them (like
 * requests as loops, requests the check had in flight together as groups),
 * and what to judge. Both forms of a reproduction execute it as it is.
 */
export function planReplay(
  result: RuleResult,
  replay: Replay,
  settings: ReproSettings,
): ReplayPlan {
  const { steps, vars } = replay.trace;
  const control = settings.controlUrl ? new URL(settings.controlUrl) : undefined;
  const controlPath = control ? control.pathname.replace(/\/$/, '') : '';
  const roles = stepRoles(steps, vars, settings, controlPath);
  const captures = new Map<number, Capture[]>();
  for (const [name, def] of Object.entries(vars)) {
    if (def.kind !== 'answer') continue;
    const capture: Capture = def.untilMinute
      ? [name, def.pointer, 'untilMinute']
      : [name, def.pointer];
    captures.set(def.step, [...(captures.get(def.step) ?? []), capture]);
  }
  const grouped = togetherOf(loopsOf(steps, vars));
  const groups = grouped.flatMap((item) => ('together' in item ? [item.together] : []));
  const byId = new Map<number, TraceStep>(steps.map((s) => [s.id, s]));
  const judge = planJudgements(replay.judge, byId, vars, groups, replay.expects ?? []);
  const raced = new Set(steps.flatMap((s) => (s.race === undefined ? [] : [s.id])));
  // The steps judged: what they get now is the outcome (a fixed server refuses what the run's took).
  const judged = new Set(judge.flatMap((j) => j.steps));
  // Steps that use a value such an answer gives, directly or through another such step.
  const ifLearned = new Set<number>();
  for (const step of steps) {
    if (step.uses.some((id) => raced.has(id) || judged.has(id) || ifLearned.has(id)))
      ifLearned.add(step.id);
  }
  const setUpOf = (step: TraceStep): PlanStep['setUp'] => {
    if (raced.has(step.id) || judged.has(step.id)) return undefined;
    const ok = step.status !== undefined && step.status >= 200 && step.status < 300;
    if (step.channel === 'control' && ok) return 'control';
    if (step.channel === 'api' && step.basic !== undefined && step.status !== 401) return 'key';
    return undefined;
  };
  const planSteps = steps.map((step): PlanStep => {
    const {
      at: _at,
      ms: _ms,
      uses: _uses,
      race: _race,
      place: _place,
      truncated: _cut,
      error: _error,
      ...rest
    } = step;
    const captured = captures.get(step.id);
    const setUp = setUpOf(step);
    return {
      ...rest,
      headers: Object.fromEntries(
        Object.entries(step.headers).filter(([name]) => !PER_CONNECTION.has(name)),
      ),
      // Control steps below the control URL, which a replay may move (--control-url).
      url: step.channel === 'control' ? step.url.slice(controlPath.length) : step.url,
      ...(captured ? { captures: captured } : {}),
      ...roles.get(step.id),
      ...(setUp ? { setUp } : {}),
      ...(raced.has(step.id) ? { raced: true } : {}),
      ...(ifLearned.has(step.id) ? { ifLearned: true } : {}),
    };
  });
  const items = grouped.map((item): PlanItem => {
    if ('id' in item) return { step: item.id };
    if ('together' in item) return { together: item.together.map((s) => s.id) };
    return {
      loop: item.steps.map((s) => s.id),
      ...(item.until === undefined ? {} : { until: item.until }),
      most: item.most,
    };
  });
  const sentence = replay.judge.find((j) => !j.held && j.sentence)?.sentence;
  const source = result.source;
  const env = [
    ...new Set(Object.values(vars).flatMap((v) => (v.kind === 'env' ? [v.name] : []))),
  ] as EnvName[];
  return {
    rule: { id: result.rule_id, title: result.title, level: result.level, section: result.section },
    verdict: result.verdict,
    ...(result.reason ? { reason: result.reason } : {}),
    ...(sentence
      ? { quote: { doc: 'api', section: sentence.section, text: sentence.quote } }
      : source
        ? { quote: { doc: source.doc, section: source.section, text: source.quote } }
        : {}),
    target: settings.embedded ? null : settings.target,
    control: control
      ? {
          // The bundled reference's port closed with the run: only its path is worth keeping.
          url: settings.embedded ? null : (settings.controlUrl as string),
          path: controlPath,
          followsTarget: control.origin === new URL(settings.target).origin,
        }
      : null,
    mode: settings.mode,
    env,
    vars,
    steps: planSteps,
    items,
    judge,
    paths: settings.paths,
    ...(replay.unreplayable ? { unreplayable: replay.unreplayable } : {}),
  };
}
