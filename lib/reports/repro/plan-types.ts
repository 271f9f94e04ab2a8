import type { EnvName, TraceVar } from '../../evidence/trace.js';
import type { Condition } from '../../violations/condition.mjs';

/**
 * A reproduction's replay plan: what the check sent, grouped and ordered as
 * it is to be sent again, and what to judge of the answers. Made once in
 * TypeScript when the report is written (plan.ts) and stored as data in the
 * reproduction: `repro/<RULE>.mjs` and the curl form both execute it and
 * decide nothing of their own. No secret: credentials are variables.
 */
export interface ReplayPlan {
  rule: { id: string; title: string; level: string; section: string };
  verdict: string;
  reason?: string;
  /** The sentence the failing step rests on (the rule's first when the step names none). */
  quote?: { doc: string; section: string; text: string };
  /** Where the run's target was; null: the bundled reference, whose port closed with the run. */
  target: string | null;
  /** The control API: its URL in the run (null: gone with the bundled reference), its path, whether it shared the target's origin. */
  control: { url: string | null; path: string; followsTarget: boolean } | null;
  mode: 'control' | 'partner';
  /** Environment variables the replay reads (credentials, never written in a file). */
  env: EnvName[];
  vars: Record<string, TraceVar>;
  steps: PlanStep[];
  /** The order to send in: one step, a loop of like requests, or steps sent together. */
  items: PlanItem[];
  judge: PlanJudgement[];
  /** How the target's objects are removed at the end (clean-up). */
  paths: CleanupPaths;
  /** Why it cannot be replayed standalone, when it cannot. */
  unreplayable?: string;
}

export interface PlanStep {
  id: number;
  channel: 'api' | 'control';
  method: string;
  /** Path and query below the target's origin (control steps: below the control URL); `{{vN}}` percent-encoded. */
  url: string;
  headers: Record<string, string>;
  /** Basic credentials, `{{v1}}:{{v2}}`, each part form-encoded when sent. */
  basic?: string;
  body?: string;
  /** What the run got. */
  status?: number;
  code?: string;
  /**
   * Values of its answer later steps use: variable and JSON pointer into the
   * body; `untilMinute`: the seconds from the time there to the next whole minute.
   */
  captures?: Capture[];
  /** The key it was sent with, named for people: "key 1", "the partner key". */
  key?: string;
  /** It places an order with a live key: only with --allow-live-orders. */
  live?: true;
  /** What it makes that clean-up removes, when it succeeds. */
  makes?: 'order' | 'webhook' | 'key' | 'account' | 'service';
  /** The step whose answer gave its access token: sent again when clean-up finds the token expired. */
  tokenFrom?: number;
  /**
   * Set-up the replay cannot go on without, whose failure is the replay's own
   * (CANNOT RUN): `control`, a control call that succeeded in the run; `key`,
   * a request with a key that the run's target took (a 401 now: the key was
   * refused). Never a step the reproduction judges or a racer: what those get
   * is the outcome to judge.
   */
  setUp?: 'control' | 'key';
  /** One of a race's requests (held at their last byte in the run), sent together again. */
  raced?: true;
  /**
   * It uses a value only an answer that may differ now gives (a key made in a
   * race, a token a racing or judged request got): sent only when this
   * replay's answer gave it. Not sent, it has no answer, and a judgement
   * across answers judges the others.
   */
  ifLearned?: true;
}

export type Capture = [name: string, pointer: string, then?: 'untilMinute'];

export type PlanItem =
  | { step: number }
  /**
   * Like requests (a rate limit's burst): sent until a step's answer has
   * `until` (the status the run's last one got), at most `most` times; past
   * the run's count, with fresh client values.
   */
  | { loop: number[]; until?: number; most: number }
  /** Requests the check had in flight at once (a race): sent together again. */
  | { together: number[] };

export interface PlanJudgement {
  message: string;
  code: string;
  pointer: string;
  /** What the run expected, for people (variables named). */
  expected: unknown;
  /** What the run got there (variables named). */
  received: unknown;
  /** The steps whose answers it judges: one, the like requests of a race (any of them), or `across` as one. */
  steps: number[];
  across?: true;
  /** The rule's condition (variables named). Absent: judged by whether the run's value comes back (`old`). */
  must?: Condition;
  old?: { value: unknown } | { absent: true };
  /** Two values learned from different answers that must be equal (one order named twice). */
  values?: { expected: unknown; received: unknown };
  /** The statuses a step must have for `must` (or `old`) to apply: another status is a different answer. */
  guard?: number[];
  /** Of a race's like requests: statuses the run got where the check found nothing wrong. */
  accepts?: number[];
  /** What the check required of the step's status: a different answer that breaks it breaks a rule too. */
  expects?: Condition;
  /** What the run got at the (first) step. */
  run: { status?: number; code?: string };
  /** The check's judgement held in the run; judged again as the race may break it this time. */
  held?: true;
}

/** Where the API's objects live, to remove what a replay made (dialect paths below the origin). */
export interface CleanupPaths {
  orders: { path: string; cancel: string; idPointer: string };
  /** Webhook endpoints: made by `create` on `path`, removed by `remove` on `item` (`{id}`). */
  webhooks: { path: string; create: string; item: string; remove: string; idPointer: string };
}
