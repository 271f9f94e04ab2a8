import type { TraceStep } from '../../evidence/trace.js';
import type { Loop } from './loops.js';

/**
 * Steps the check had in flight at once, from the recorded exchanges: each was
 * sent before every other's answer came (their times share a moment). Such
 * steps are sent together again (a race is replayed as a race). A step that
 * uses another's answer came after it and is never in its group; loops stay
 * on their own. Requests the evidence marks as one race (`together`, held at
 * their last byte: last-byte.ts; `race` of a step) are grouped by their race, whatever their times.
 */
export function togetherOf(
  items: readonly (TraceStep | Loop)[],
): (TraceStep | Loop | { together: TraceStep[] })[] {
  const mark = (step: TraceStep) => step.race;
  const out: (TraceStep | Loop | { together: TraceStep[] })[] = [];
  let group: TraceStep[] = [];
  let from = 0;
  let until = 0;
  const close = () => {
    // A race's racers in their places: their last bytes go out in that order again.
    if (group.length > 1) out.push({ together: [...group].sort(byPlace) });
    else out.push(...group);
    group = [];
  };
  for (const item of items) {
    if (!('id' in item)) {
      close();
      out.push(item);
      continue;
    }
    const start = item.at;
    const end = start === undefined ? undefined : start + (item.ms ?? 0);
    const marked = mark(item);
    const joins =
      group.length > 0 &&
      (marked !== undefined
        ? group.every((member) => mark(member) === marked)
        : start !== undefined &&
          end !== undefined &&
          start < until &&
          end > from &&
          group.every((member) => mark(member) === undefined)) &&
      !item.uses.some((id) => group.some((member) => member.id === id));
    if (!joins) {
      close();
      if ((start === undefined || end === undefined) && marked === undefined) {
        out.push(item);
        continue;
      }
      group = [item];
      from = start ?? Number.NEGATIVE_INFINITY;
      until = end ?? Number.POSITIVE_INFINITY;
      continue;
    }
    group.push(item);
    if (start !== undefined && end !== undefined) {
      from = Math.max(from, start);
      until = Math.min(until, end);
    }
  }
  close();
  return out;
}

/** Racers by their place in the race; steps without one keep their order (a stable sort). */
function byPlace(a: TraceStep, b: TraceStep): number {
  return (a.place ?? 0) - (b.place ?? 0);
}
