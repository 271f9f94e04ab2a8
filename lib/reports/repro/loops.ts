import type { TraceStep, TraceVar } from '../../evidence/trace.js';

/** Runs of at least this many like requests (a rate limit's burst) become one loop. */
const LOOP = 5;

/** Methods that change nothing on the target (RFC 9110 safe methods). */
const READS_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A step's request but for client-made values: like requests (a burst, racers) have the same shape. */
export function requestShape(vars: Record<string, TraceVar>): (step: TraceStep) => string {
  return (s) =>
    JSON.stringify([s.channel, s.method, s.url, s.body, s.headers, s.basic]).replace(
      /\{\{(v\d+)\}\}/g,
      (whole, name: string) => (vars[name]?.kind === 'client' ? '{{client}}' : whole),
    );
}

/** A loop of like requests: sent until `until` comes, at most `most` times. */
export interface Loop {
  steps: TraceStep[];
  until?: number;
  most: number;
}

/**
 * The steps in order, runs of like requests (the same request but for the
 * client's fresh values, each its own Idempotency-Key) as loops. Like
 * requests need not follow each other: bursts of two classes sent at once
 * (a key's token requests beside another's writes) interleave, and each is
 * a loop of its own, the other's requests after it. A step whose answer gives
 * a later one a value is set-up, not a burst: only a loop's last may (the loop
 * keeps the last answer's values). A control call that changes something
 * (or is judged) ends a burst of API requests (what follows it is sent
 * after it); one that only reads does not. A step the run's failure is
 * in (`subjects`) that got the burst's own answer stays in its place. Racers of a race (`race`) are no loop:
 * togetherOf sends them together.
 *
 * A loop goes on until the answer the run's last one got (the limit reached).
 * A window that ends during the loop starts the count again, once (the check
 * allows as much), and the new window may need the whole burst the run sent,
 * its like requests before this loop included (a loop that ended at another
 * status before): at most the loop's own count plus that burst.
 */
export function loopsOf(
  steps: readonly TraceStep[],
  vars: Record<string, TraceVar>,
  subjects: ReadonlySet<number> = new Set(),
): (TraceStep | Loop)[] {
  const shape = requestShape(vars);
  const shapes = steps.map(shape);
  const defining = new Set(
    Object.values(vars).flatMap((v) => (v.kind === 'answer' ? [v.step] : [])),
  );
  const taken = new Set<number>();
  const out: (TraceStep | Loop)[] = [];
  for (let i = 0; i < steps.length; i++) {
    if (taken.has(i)) continue;
    const first = steps[i] as TraceStep;
    // Racers of one race (held at their last byte) are sent together again, never as a loop.
    if (first.race !== undefined) {
      out.push(first);
      continue;
    }
    const chain = [i];
    for (let j = i + 1; j < steps.length; j++) {
      // A control call between like requests that changes something (a clock moved, a fault
      // injected), or whose answer is judged, ends the burst: what comes after it is sent after it
      // again. One that only reads (another check's set-up looking up an account, sent at once)
      // does not: split there, a class's burst and the refusal it ends in were sent apart, and a
      // rate window could end between them.
      const other = steps[j] as TraceStep;
      if (
        other.channel === 'control' &&
        first.channel !== 'control' &&
        (!READS_ONLY.has(other.method.toUpperCase()) || subjects.has(other.id))
      )
        break;
      if (taken.has(j) || shapes[j] !== shapes[i] || steps[j]?.race !== undefined) continue;
      // A request the run's failure is in, answered like the burst: sent in its own place, after
      // every burst before it (a probe after the bursts of three tokens), not inside one.
      if (subjects.has(steps[j]?.id ?? -1) && steps[j]?.status === first.status) continue;
      const previous = steps[chain.at(-1) as number] as TraceStep;
      if (previous.status !== first.status || defining.has(previous.id)) break;
      chain.push(j);
    }
    if (chain.length < LOOP) {
      out.push(first);
      continue;
    }
    for (const k of chain) taken.add(k);
    const loop = chain.map((k) => steps[k] as TraceStep);
    const last = loop.at(-1) as TraceStep;
    const until = last.status !== first.status ? last.status : undefined;
    const end = chain.at(-1) as number;
    const burst = shapes.slice(0, end + 1).filter((s) => s === shapes[i]).length;
    out.push({
      steps: loop,
      ...(until === undefined ? {} : { until }),
      most: until === undefined ? loop.length : loop.length + burst,
    });
  }
  return out;
}
