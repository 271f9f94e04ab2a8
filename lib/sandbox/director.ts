import { SITUATIONS, type SituationName } from '../../rules/client/index.js';
import { HarnessError } from '../violations/harness-error.js';
import {
  type Answer,
  type Forward,
  type OwnRequest,
  reworded,
  tooManyAnswer,
  waitOneSecond,
} from './answers.js';
import { lacking, type SandboxControl } from './control.js';
import { type ClientExchange, isOrderPost, isQuotePost, ORDERS_PATH } from './exchange.js';
import {
  answered,
  bearerOf,
  codeOf,
  externalIdOf,
  idempotencyKeyOf,
  identityOf,
  isRecord,
  jsonOf,
  retryAfterOf,
} from './facts.js';
import { placeFirst } from './place-first.js';
import type { Play } from './plan.js';

export interface DirectorOptions {
  plays: Play[];
  /** Reword title and detail of every problem answer but the plain playings' (the `reworded` situation). */
  reworded: boolean;
  control: SandboxControl | undefined;
  forward: Forward;
  own: OwnRequest;
  /** `{docs_url}` of the sandbox's problem types, for the answers the layer makes itself. */
  docsUrl: string;
  /** The Retry-After of the situations' 429s and 503s, and how long read-only and unavailable last. */
  retryAfterSeconds: number;
}

/** A token expires 3600 seconds after it is issued (API document section 5); one more second. */
const EXPIRE_SECONDS = 3601;
/** After 401 token_expired, other situations wait for the client's recovery, at most this many requests. */
const RECOVERY_REQUESTS = 20;

/** What one situation does to the sandbox while it waits for the exchange that shows it. */
interface Armed {
  play: Play;
  /** The exchange whose answer is the situation: the client met it there. */
  fires(ex: ClientExchange): boolean;
  /** Done once it fired (a valid card again, the state's end counted from now). */
  then?(ex: ClientExchange): Promise<void>;
}

/**
 * Decides, for each request of the client in turn, whether a situation is
 * played on it, plays it (a 429 answered here; the account's clock, state,
 * card or a fault set through the control API, then the request passed on),
 * and hands back the answer the client gets. Requests are handled one at a
 * time (lib/sandbox/layer.ts queues them), so "the first chance" is
 * well-defined whatever the client sends at once.
 */
export class Director {
  readonly #o: DirectorOptions;
  #armed: Armed | undefined;
  /** `read-only` or `unavailable` in force; `until` is set once its first 503 was answered. */
  #state: { service: 'read_only' | 'unavailable'; until?: number } | undefined;
  /** After 401 token_expired: the tokens that expired, and how many more requests other situations wait. */
  #recovering: { stale: Set<string>; left: number } | undefined;
  /** Identities whose last answer was an error: sending one again is a reaction, never a new chance. */
  readonly #failed = new Set<string>();
  readonly #externalIds = new Set<string>();
  readonly #issued = new Set<string>();
  readonly #usedOk = new Set<string>();
  /** A key that got a 402 on an order keeps that answer (a service keeps a key's first answer). */
  readonly #declined = new Map<string, Answer>();
  #wordings = 0;

  constructor(options: DirectorOptions) {
    this.#o = options;
    for (const play of options.plays) {
      const missing = lacking(options.control, SITUATIONS[play.situation].needs);
      if (missing.length > 0 && play.state === 'pending') {
        play.state = 'unplayable';
        play.note = options.control
          ? `the target's control API lacks ${missing.join(', ')}`
          : 'the target has no control API';
      }
    }
  }

  get plays(): readonly Play[] {
    return this.#o.plays;
  }

  /** The answer for one request of the client (`forward` answers a 502 itself when the target did not). */
  async handle(ex: ClientExchange, body: Buffer | undefined): Promise<Answer> {
    const answer = await this.#answer(ex, body);
    ex.status = answer.status;
    ex.responseHeaders = answer.headers;
    ex.responseBody = answer.body;
    return answer;
  }

  async #answer(ex: ClientExchange, body: Buffer | undefined): Promise<Answer> {
    await this.#endStateIfDue(ex);
    const key = idempotencyKeyOf(ex);
    const kept = isOrderPost(ex) && key !== undefined ? this.#declined.get(key) : undefined;
    if (kept) {
      ex.notes.push(
        'this Idempotency-Key got a 402 before: the sandbox answers the same 402 again, as a service that keeps a key’s answer does',
      );
      return this.#words(ex, kept, undefined);
    }
    const play = this.#pick(ex);
    const newOrder = this.#newOrder(ex);
    if (newOrder !== undefined) this.#externalIds.add(newOrder);
    let answer: Answer;
    let immediate: Play | undefined;
    if (play) {
      const result = await this.#play(play, ex, body);
      answer = result.answer;
      if (result.played) immediate = play;
    } else {
      answer = await this.#o.forward(ex, body);
    }
    // What the armed situation and the judges of later requests read: the answer as it came.
    ex.status = answer.status;
    ex.responseBody = answer.body;
    const fired = immediate ?? (await this.#fire(ex));
    answer = await this.#afterwards(ex, answer, fired);
    this.#learn(ex, answer);
    return this.#words(ex, answer, fired);
  }

  /** The end of the run: a state in force ends, the card is valid again, what never fired says so. */
  async finish(): Promise<void> {
    if (this.#state) await this.#setAccount({ service: 'normal' }).catch(() => undefined);
    this.#state = undefined;
    const armed = this.#armed;
    if (armed && armed.play.state === 'armed') {
      armed.play.note = `${armed.play.note ?? ''}; the client never met it (its requests did not reach that point)`;
      if (armed.play.situation === 'card-declined') {
        await this.#setAccount({ billing: { method: 'invoice' } }).catch(() => undefined);
      }
    }
  }

  /** The first pending playing whose chance this request is, unless another is still in progress. */
  #pick(ex: ClientExchange): Play | undefined {
    if (ex.kind === 'other' || this.#state || this.#recovering) return undefined;
    const reaction = this.#failed.has(identityOf(ex));
    for (const play of this.#o.plays) {
      if (play.state !== 'pending') continue;
      // While one situation waits for its exchange, only a 429 (answered here, arming nothing) may come.
      if (this.#armed && !immediate(play.situation)) continue;
      if (play.reworded && !this.#plainDone(play.situation)) continue;
      if (this.#chance(play.situation, ex, reaction)) return play;
    }
    return undefined;
  }

  #plainDone(situation: SituationName): boolean {
    const plain = this.#o.plays.filter((p) => p.situation === situation && !p.reworded);
    return (
      plain.some((p) => p.state === 'played') &&
      plain.every((p) => p.state === 'played' || p.state === 'unplayable')
    );
  }

  #chance(situation: SituationName, ex: ClientExchange, reaction: boolean): boolean {
    if (reaction) return false;
    switch (situation) {
      case '429-token':
        return ex.kind === 'token';
      case '429-read':
        return ex.kind === 'call' && ex.cls === 'read';
      case '429-write':
        return ex.kind === 'call' && ex.cls === 'write';
      case 'token-expired': {
        const token = bearerOf(ex);
        return ex.kind === 'call' && token !== undefined && this.#usedOk.has(token);
      }
      case '500-after':
      case '500-before':
      case 'card-declined':
      case 'duplicate-external-id':
        return this.#newOrder(ex) !== undefined;
      case 'read-only':
        return this.#newOrder(ex) !== undefined || isQuotePost(ex);
      case 'unavailable':
        return true;
      case 'reworded':
        return false;
    }
  }

  /** The external_id of an order not seen before; undefined for anything else. */
  #newOrder(ex: ClientExchange): string | undefined {
    if (!isOrderPost(ex)) return undefined;
    const id = externalIdOf(ex);
    return id !== undefined && !this.#externalIds.has(id) ? id : undefined;
  }

  /** Plays one situation on `ex`: `played` when this very answer is the situation. */
  async #play(
    play: Play,
    ex: ClientExchange,
    body: Buffer | undefined,
  ): Promise<{ answer: Answer; played: boolean }> {
    try {
      switch (play.situation) {
        case '429-token':
        case '429-read':
        case '429-write':
          play.state = 'played';
          play.exchange = ex.id;
          ex.notes.push(
            'the sandbox answered 429 itself (situation), without passing the request on',
          );
          return {
            answer: tooManyAnswer(this.#o.docsUrl, ex, this.#o.retryAfterSeconds),
            played: true,
          };
        case 'token-expired':
          await this.#control().advanceClock(this.#account(), EXPIRE_SECONDS);
          ex.notes.push(`the account's clock moved ${EXPIRE_SECONDS} seconds forward (situation)`);
          this.#arm(
            play,
            (e) => answered(e, 401, 'token_expired'),
            async () => {
              this.#recovering = {
                stale: new Set([...this.#issued, ...this.#usedOk]),
                left: RECOVERY_REQUESTS,
              };
            },
          );
          break;
        case '500-after':
        case '500-before': {
          const when = play.situation === '500-after' ? 'after_commit' : 'before_commit';
          await this.#control().injectFault(this.#account(), {
            method: 'POST',
            path: ORDERS_PATH,
            when,
            times: 1,
          });
          ex.notes.push(`a fault (${when}) was armed on POST /orders (situation)`);
          this.#arm(play, (e) => isOrderPost(e) && answered(e, 500, 'internal_error'));
          break;
        }
        case 'card-declined':
          await this.#setAccount({
            billing: { method: 'card', card: 'declined', decline_code: 'insufficient_funds' },
          });
          ex.notes.push("the account's card was set to declined (situation)");
          this.#arm(
            play,
            (e) => isOrderPost(e) && e.status === 402,
            async (e) => {
              await this.#setAccount({ billing: { method: 'card', card: 'valid' } });
              e.notes.push("the account's card is valid again (situation)");
            },
          );
          break;
        case 'duplicate-external-id': {
          const placed = await placeFirst(this.#o.own, this.#o.control?.ownKey, ex);
          if (!placed) return { answer: await this.#o.forward(ex, body), played: false };
          const externalId = externalIdOf(ex);
          this.#arm(
            play,
            (e) =>
              isOrderPost(e) &&
              externalIdOf(e) === externalId &&
              answered(e, 409, 'duplicate_external_id'),
          );
          break;
        }
        case 'read-only':
        case 'unavailable': {
          const service = play.situation === 'read-only' ? 'read_only' : 'unavailable';
          await this.#setAccount({ service });
          this.#state = { service };
          ex.notes.push(`the account was switched to ${service} (situation)`);
          const code = play.situation === 'read-only' ? 'read_only' : 'api_unavailable';
          this.#arm(
            play,
            (e) => answered(e, 503, code),
            async () => {
              if (this.#state)
                this.#state.until = performance.now() + this.#o.retryAfterSeconds * 1000;
            },
          );
          break;
        }
        case 'reworded':
          break;
      }
    } catch (error) {
      play.state = 'unplayable';
      play.note = `could not be set up: ${error instanceof Error ? error.message : String(error)}`;
      ex.notes.push(`situation ${play.situation} could not be set up`);
    }
    return { answer: await this.#o.forward(ex, body), played: false };
  }

  #arm(play: Play, fires: Armed['fires'], then?: Armed['then']): void {
    play.state = 'armed';
    this.#armed = { play, fires, ...(then ? { then } : {}) };
  }

  /** The armed situation, when this exchange is the one that shows it. */
  async #fire(ex: ClientExchange): Promise<Play | undefined> {
    const armed = this.#armed;
    if (!armed?.fires(ex)) return undefined;
    this.#armed = undefined;
    armed.play.state = 'played';
    armed.play.exchange = ex.id;
    try {
      await armed.then?.(ex);
    } catch (error) {
      armed.play.note = `its end could not be set up: ${error instanceof Error ? error.message : String(error)}`;
    }
    return armed.play;
  }

  /** What the answer gets besides: a state's Retry-After, a short wait for the sandbox's own limits. */
  async #afterwards(ex: ClientExchange, answer: Answer, fired: Play | undefined): Promise<Answer> {
    let out = answer;
    const code = codeOf(ex);
    if (
      answer.status === 503 &&
      (code === 'read_only' || code === 'api_unavailable') &&
      out.headers['retry-after'] === undefined
    ) {
      const seconds = String(this.#o.retryAfterSeconds);
      out = { ...out, headers: { ...out.headers, 'retry-after': seconds } };
    }
    if (answer.status === 429 && fired === undefined) out = await this.#shortWait(ex, out);
    if (isOrderPost(ex) && answer.status === 402) {
      const key = idempotencyKeyOf(ex);
      if (key !== undefined) this.#declined.set(key, out);
    }
    return out;
  }

  /**
   * The sandbox's own rate limit (a real 429, not a situation): its window is
   * whole minutes of the account's clock, so the wait could be a minute. The
   * clock is moved to a second before the window's end and the answer says
   * Retry-After: 1, which then holds: no client waits more than a second.
   */
  async #shortWait(ex: ClientExchange, answer: Answer): Promise<Answer> {
    const seconds = retryAfterOf({ responseHeaders: answer.headers });
    if (seconds === undefined || seconds <= 1 || !this.#o.control?.features.has('clock'))
      return answer;
    try {
      await this.#control().advanceClock(this.#account(), seconds - 1);
    } catch {
      return answer;
    }
    ex.notes.push(
      `the sandbox's own rate limit: the account's clock moved ${seconds - 1} seconds, so Retry-After: 1 holds`,
    );
    return waitOneSecond(answer);
  }

  /** What later requests are judged against: errors sent again, tokens issued and used. */
  #learn(ex: ClientExchange, answer: Answer): void {
    const identity = identityOf(ex);
    if (answer.status >= 400) this.#failed.add(identity);
    else this.#failed.delete(identity);
    if (ex.kind === 'token' && answer.status >= 200 && answer.status < 300) {
      const body = jsonOf(answer.body);
      if (isRecord(body) && typeof body.access_token === 'string')
        this.#issued.add(body.access_token);
    }
    const token = bearerOf(ex);
    if (ex.kind === 'call' && token !== undefined && answer.status >= 200 && answer.status < 300) {
      this.#usedOk.add(token);
      if (this.#recovering && !this.#recovering.stale.has(token)) this.#recovering = undefined;
    }
    if (this.#recovering && --this.#recovering.left <= 0) this.#recovering = undefined;
  }

  /** The `reworded` situation: every problem answer but a plain playing's, in new words. */
  #words(ex: ClientExchange, answer: Answer, fired: Play | undefined): Answer {
    if (fired) ex.play = { situation: fired.situation, reworded: fired.reworded };
    const rewordThis = fired ? fired.reworded : this.#o.reworded;
    if (!rewordThis) return answer;
    const out = reworded(answer, ++this.#wordings);
    if (!out) return answer;
    ex.reworded = true;
    return out;
  }

  async #endStateIfDue(ex: ClientExchange): Promise<void> {
    const state = this.#state;
    if (state?.until === undefined || performance.now() < state.until) return;
    this.#state = undefined;
    try {
      await this.#setAccount({ service: 'normal' });
      ex.notes.push(`the account is back to normal from ${state.service} (situation ended)`);
    } catch (error) {
      ex.notes.push(
        `the account could not be switched back from ${state.service}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  #control(): SandboxControl['client'] {
    const control = this.#o.control;
    if (!control) throw new HarnessError('HARNESS_CONTROL', 'the target has no control API');
    return control.client;
  }

  #account(): string {
    const control = this.#o.control;
    if (!control) throw new HarnessError('HARNESS_CONTROL', 'the target has no control API');
    return control.accountId;
  }

  async #setAccount(settings: Parameters<SandboxControl['client']['updateAccount']>[1]) {
    await this.#control().updateAccount(this.#account(), settings);
  }
}

/** The 429s: answered by the layer itself at once, they set nothing up that another could disturb. */
function immediate(situation: SituationName): boolean {
  return situation === '429-token' || situation === '429-read' || situation === '429-write';
}
