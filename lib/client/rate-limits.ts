import { NotVerifiable } from '../violations/harness-error.js';
import type { HttpResponse } from './types.js';
import { announceWait } from './wait-channel.js';

/**
 * Everything the suite does about the API document's rate limits (section 8)
 * and its 429 answer (section 7), in one place: the documented limits and how
 * a request is classed (read, write, token), the pacer that keeps the partner
 * key under them, and the one policy for a 429 that is not a check's subject.
 * The wire session (session.ts) applies both, once, to every request it sends.
 */

/**
 * The pacer keeps one key under the API document's rate limits (section 8): reads 300,
 * writes 60, token requests 20 per minute per key. The suite uses it for the
 * partner key, whose limits every check of the run shares; keys the run makes
 * through the control API are fresh per check and need no pacing.
 *
 * Each class has its own window, planned on its own: a read never waits
 * because writes are used up, nor a write because tokens are. The full
 * documented budget is used, with no margin taken off the count: a request
 * is stamped with the time its answer came back, and a slot is reused only a
 * whole minute after that. The server received it before then, and receives
 * the new one after it is sent, so any minute of the server's (sliding or
 * fixed windows, whatever its clock says) holds at most the documented number.
 */
export type RequestClass = 'read' | 'write' | 'token';

export const DOCUMENTED_LIMITS: Readonly<Record<RequestClass, number>> = {
  read: 300,
  write: 60,
  token: 20,
};
export const WINDOW_MS = 60_000;
/** The window every documented limit counts in: "per minute" (section 8). */
export const WINDOW_SECONDS = WINDOW_MS / 1000;

/**
 * A Retry-After value as the API document gives it, "in seconds" (section 7,
 * section 8): delta-seconds, `1*DIGIT` (RFC 9110 §10.2.3), white space around
 * it allowed; undefined when absent or anything else (an HTTP-date included).
 * The one reading of the header, for the 429 policy and the checks alike.
 */
export function retryAfterSeconds(value: string | undefined): number | undefined {
  const trimmed = value?.trim();
  return trimmed !== undefined && /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}
/** A little time on top of the minute: timers fire a few ms early or late. */
const SLACK_MS = 50;
/** How long to look again when every slot of a window is still in flight. */
const IN_FLIGHT_POLL_MS = 250;

/** A request sent within the budget; `done()` once its answer (or failure) is back. */
export interface Slot {
  /** How long the request waited for its slot, in ms. */
  readonly waited: number;
  done(): void;
}

/** Requests of each class sent on the key so far. */
export type Tally = Record<RequestClass, number>;

export class KeyPacer {
  /** Per key and class: when each recent request's answer came back (`undefined`: still in flight). */
  readonly #sent = new Map<string, { at: number | undefined }[]>();
  readonly #tally = new Map<string, Tally>();
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #onWait: ((ms: number, keyId: string, kind: RequestClass) => void) | undefined;
  readonly #limits: Readonly<Record<RequestClass, number>>;

  constructor(
    now: () => number = Date.now,
    sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
    /** Told before each wait: the progress line says what the run waits for. */
    onWait?: (ms: number, keyId: string, kind: RequestClass) => void,
    limits: Readonly<Record<RequestClass, number>> = DOCUMENTED_LIMITS,
  ) {
    this.#now = now;
    this.#sleep = sleep;
    this.#onWait = onWait;
    this.#limits = limits;
  }

  /** Waits until one more request of this class on this key stays within the limit, and takes the slot. */
  async acquire(keyId: string, kind: RequestClass): Promise<Slot> {
    let waited = 0;
    for (;;) {
      const wait = this.#waitFor(keyId, kind);
      if (wait === 0) return { waited, done: this.#take(keyId, kind) };
      this.#onWait?.(wait, keyId, kind);
      await this.#sleep(wait);
      waited += wait;
    }
  }

  /**
   * A request sent before the pacer existed (the run's preflight token
   * request), answered at `answeredAt`: it is in the window like any other.
   */
  sentBefore(keyId: string, kind: RequestClass, answeredAt: number): void {
    this.#take(keyId, kind)();
    const window = this.#window(keyId, kind);
    const entry = window[window.length - 1];
    if (entry) entry.at = Math.min(answeredAt, this.#now());
    window.sort((a, b) => (a.at ?? Number.POSITIVE_INFINITY) - (b.at ?? Number.POSITIVE_INFINITY));
  }

  /** Requests of each class sent on the key (paced and recorded). */
  tally(keyId: string): Tally {
    return { ...(this.#tally.get(keyId) ?? { read: 0, write: 0, token: 0 }) };
  }

  /** 0: a slot is free now; else how long until one may be. */
  #waitFor(keyId: string, kind: RequestClass): number {
    const now = this.#now();
    const window = this.#window(keyId, kind);
    // Forget answers older than a minute; requests in flight stay.
    const recent = window.filter((e) => e.at === undefined || now - e.at < WINDOW_MS);
    window.splice(0, window.length, ...recent);
    if (recent.length < this.#limits[kind]) return 0;
    const settled = recent.flatMap((e) => (e.at === undefined ? [] : [e.at]));
    if (settled.length === 0) return IN_FLIGHT_POLL_MS;
    return WINDOW_MS - (now - Math.min(...settled)) + SLACK_MS;
  }

  #take(keyId: string, kind: RequestClass): () => void {
    const entry: { at: number | undefined } = { at: undefined };
    this.#window(keyId, kind).push(entry);
    const tally = this.#tally.get(keyId) ?? { read: 0, write: 0, token: 0 };
    tally[kind] += 1;
    this.#tally.set(keyId, tally);
    return () => {
      entry.at ??= this.#now();
    };
  }

  #window(keyId: string, kind: RequestClass): { at: number | undefined }[] {
    const id = `${keyId}|${kind}`;
    let window = this.#sent.get(id);
    if (!window) {
      window = [];
      this.#sent.set(id, window);
    }
    return window;
  }
}

/**
 * The least time the documented limits allow for this many requests: each
 * class at its full rate, all classes at once, the slowest deciding.
 */
export function rateFloorMs(tally: Tally, limits = DOCUMENTED_LIMITS): number {
  return Math.max(
    ...(Object.keys(limits) as RequestClass[]).map((k) => (tally[k] / limits[k]) * WINDOW_MS),
  );
}

export function requestClass(method: string, path: string, tokenPath: string): RequestClass {
  // Without queries: a profile's token path may carry one of its own.
  if (path.split('?')[0] === tokenPath.split('?')[0]) return 'token';
  return ['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase()) ? 'read' : 'write';
}

/**
 * The one policy for a 429 on a request whose rule is not the rate
 * limit (API document section 7: "Wait, then retry"). The wait honours
 * Retry-After; the number of retries and the longest wait are bounded by what
 * a check's time limit holds (lib/check/register.ts): with only a partner key
 * a check may wait a window out, with the control API (one minute per check)
 * it may not. Past that, the check could not judge its rule: it ends
 * `not_verifiable` with a reason starting THROTTLED, never `failed` or `error`.
 */
const THROTTLED = 'throttled';

const MAX_RETRIES = 2;
const LONGEST_WAIT_S = { paced: 65, control: 15 } as const;

/** Seconds to wait before retry number `attempt + 1`, or undefined: give up. */
function retryWait(
  retryAfter: string | undefined,
  attempt: number,
  mode: keyof typeof LONGEST_WAIT_S,
): number | undefined {
  if (attempt >= MAX_RETRIES) return undefined;
  const asked = retryAfterSeconds(retryAfter);
  const seconds = asked !== undefined && asked >= 1 ? asked : 1;
  return seconds > LONGEST_WAIT_S[mode] ? undefined : seconds;
}

function throttledReason(
  what: string,
  retryAfter: string | undefined,
  exchange: number,
  tries: number,
): string {
  return `${THROTTLED}: the target kept answering 429 to ${what} (Retry-After ${retryAfter ?? 'absent'}, evidence #${exchange}) after ${tries} ${tries === 1 ? 'try' : 'tries'}; the rule could not be judged`;
}

/**
 * A racer's 429 where the 429 is not the check's subject (a race of orders
 * that the target throttled): a racer cannot wait and go again alone, which
 * would take it out of the race, so the check could not judge its rule.
 */
export function throttledRacer(what: string, res: HttpResponse): NotVerifiable {
  return new NotVerifiable(
    `${throttledReason(what, res.header('retry-after'), res.exchange, 1)} (a racing request is never sent again alone)`,
  );
}

export interface RatePolicyScope {
  /** The 429 is the check's subject (a rate limit, or an error it provokes): left alone. */
  provokes429: boolean;
  /** The request used the partner key: its limits are shared by every check of the run. */
  partner: boolean;
  /** The request in words, for the reason and the progress line: "POST /orders". */
  what?: string;
  note(text: string): void;
  /** Waits; injectable so that tests move no real time. */
  wait?(ms: number): Promise<void>;
}

/**
 * The one answer to a 429 met by a request whose subject it is not: every
 * request of the wire session, except those of the rules that provoke 429s on
 * purpose (`provokes429` in the rule catalogue). A 429 there says nothing
 * about the rule under test, so it is never its violation, nor a harness
 * error. The request waits `Retry-After` and is sent again (section 7: "Wait,
 * then retry") within the bounds of `retryWait` (a partner key's check may wait a window out; a
 * check with the control API has one minute in all); past them the check
 * could not judge its rule: `not_verifiable`, "throttled".
 */
export async function withRatePolicy(
  send: () => Promise<HttpResponse>,
  scope: RatePolicyScope,
): Promise<HttpResponse> {
  const wait = scope.wait ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const what = scope.what ?? 'a request';
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    if (scope.provokes429 || res.status !== 429) return res;
    const header = res.header('retry-after');
    const seconds = retryWait(header, attempt, scope.partner ? 'paced' : 'control');
    if (seconds === undefined) {
      throw new NotVerifiable(throttledReason(what, header, res.exchange, attempt + 1));
    }
    scope.note(
      `the target answered 429 (evidence #${res.exchange}); retried after Retry-After ${seconds} s`,
    );
    announceWait({ what: `Retry-After of ${what} (429)`, ms: seconds * 1000 });
    await wait(seconds * 1000);
  }
}
