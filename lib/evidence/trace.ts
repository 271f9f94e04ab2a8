import type { Condition } from '../violations/condition.mjs';
import type { RawExchange } from './exchange.js';
import { jsonContainer } from './json-text.js';
import { PrefixIndex } from './prefix-index.js';

/**
 * Where a value of a replayed request comes from at replay time:
 * - `answer`: the JSON body of an earlier answer, at `pointer` (an order id, a
 *   key and its secret, a token, an SKU of a made account);
 * - `client`: made by the client (an Idempotency-Key, an external_id): fresh
 *   per replay, the same wherever the run used the same value;
 * - `env`: a credential of the run's, read from the environment;
 * - `made`: a credential the check made up (a forged token, a wrong secret):
 *   made up again, `prefix` then `shape` (`a`: a letter, `A`: a capital,
 *   `0`: a digit, anything else itself). Kept in two parts so that neither
 *   looks like a credential to a redactor: a replay never sends a placeholder.
 */
export type TraceVar =
  /**
   * `untilMinute`: not the value itself but the seconds from the time it
   * shows to the next whole minute (a clock moved to the start of a minute,
   * as the rate checks move it: a replay's clock is elsewhere in its minute).
   */
  | { kind: 'answer'; step: number; pointer: string; untilMinute?: true }
  | { kind: 'client'; shape: string }
  | { kind: 'env'; name: EnvName }
  | { kind: 'made'; prefix: string; shape: string };

export type EnvName = 'CONTROL_TOKEN' | 'PARTNER_ACCESS_KEY_ID' | 'PARTNER_SECRET_KEY';

/**
 * One exchange as a request template: `{{name}}` stands for a variable of the
 * trace (in `url`, percent-encoded), `{{!}}` for a literal `{{` of the text,
 * so that text holding `{{v1}}` is never filled. Holds no secret: every
 * credential is a variable (learned from an answer at replay time, read from
 * the environment, or made up again).
 */
export interface TraceStep {
  id: number;
  channel: 'api' | 'control';
  method: string;
  /** Path and query, templated. */
  url: string;
  headers: Record<string, string>;
  /** `Authorization: Basic`, decoded and templated (`{{v1}}:{{v2}}`, each part form-encoded). */
  basic?: string;
  body?: string;
  /** The body was too large to keep whole: this step cannot be replayed. */
  truncated?: true;
  /** What the run got: its status and problem `code`, if any. */
  status?: number;
  code?: string;
  /** No answer came (network error, timeout): its code. */
  error?: string;
  /** Steps whose answers this one uses. */
  uses: number[];
  /** When it was sent (ms since the epoch) and how long its answer took: which steps were in flight together. */
  at?: number;
  ms?: number;
  /** The number of the race the request was part of (last-byte.ts): sent together again. */
  race?: number;
  /** Its place in that race: a replay releases the racers in this order, as the run did. */
  place?: number;
}

/** A check's exchanges in order with everything they depend on: what a reproduction replays. */
export interface ReplayTrace {
  steps: TraceStep[];
  vars: Record<string, TraceVar>;
}

/** Request bodies beyond this are not kept for replay (a fuzz check's megabyte). */
const MAX_TRACE_BODY = 64 * 1024;
/** At most this many characters of exchanges wait to be made into steps (a rate check's thousand answers). */
const PENDING_CHARS = 1_000_000;
/** Values shorter than this are never taken for identifiers. */
const MIN_VALUE = 6;
const ID_CHAR = /[A-Za-z0-9_]/;
/** Fields whose value is an identifier or credential whatever its characters. */
const ID_FIELD = /(?:^|_)(?:id|key|sku|token|secret)$/i;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** What a step is made of: the exchange without the answer's headers and parsed body. */
type KeptExchange = Omit<RawExchange, 'responseHeaders' | 'responseRead'>;
/** An exchange or a credential of the run's, added and not yet made into the book. */
type Pending = { id: number; raw: KeptExchange } | { env: string; name: EnvName };

/** The exchange without what no step uses, so that a pending one holds no more than it needs. */
function kept(raw: RawExchange): KeptExchange {
  const { responseHeaders: _headers, responseRead: _read, ...rest } = raw;
  return rest;
}

/**
 * Every exchange of a session as a template, and the values its answers
 * gave: a later request that sends one of them names the variable instead,
 * so a replay takes it from the same answer it gets then. Kept for the
 * whole session (a check file: lib/check/file-fixture.ts), because a check
 * uses set-up made before it: the file's account, a cached token. It also
 * numbers the exchanges, so ids are unique across everything a check can
 * draw on (work shared by the file's checks, a cached token) and evidence
 * moves between scopes without renumbering.
 */
export class ReplayBook {
  readonly #steps = new Map<number, TraceStep>();
  readonly #vars = new Map<string, TraceVar>();
  /** Known value → variable name. */
  readonly #byValue = new Map<string, string>();
  /** Known values by their first MIN_VALUE characters: finds those a text holds in one pass. */
  readonly #byPrefix = new PrefixIndex(MIN_VALUE);
  /** Percent-encoded forms of known values that differ from them: matched in URLs only. */
  readonly #encoded = new Set<string>();
  /** When the request being added was sent: a value only an answer after it gave is not its. */
  #sending: number | undefined;
  /** The last answer of each account clock (control `POST …/clock`): its step and the time it showed. */
  readonly #clocks = new Map<string, { step: number; now: string }>();
  /**
   * What was added and not yet made into steps, in the order it came: most
   * checks pass, and no trace of theirs is ever asked for, so an exchange
   * becomes a step only when something reads the book (a failed check's
   * trace). Made in that same order, the steps are those made at once would
   * have been: what a step may use depends on the order and on when each
   * request went and each answer came, never on when it is made.
   */
  readonly #pending: Pending[] = [];
  /** Characters the pending exchanges hold: past PENDING_CHARS they are made into steps. */
  #pendingChars = 0;
  #next = 1;
  #nextExchange = 1;

  /**
   * Lets go of every exchange, step and value: the file's checks have all ended, and nothing
   * reads its book again (FileFixture.checkEnded). Ids go on from where they were.
   */
  forget(): void {
    this.#steps.clear();
    this.#vars.clear();
    this.#byValue.clear();
    this.#byPrefix.clear();
    this.#encoded.clear();
    this.#clocks.clear();
    this.#pending.length = 0;
    this.#pendingChars = 0;
  }

  /** The id of the next exchange recorded into this book. */
  exchangeId(): number {
    return this.#nextExchange++;
  }

  /** A credential of the run's, replayed from the environment. */
  env(value: string | undefined, name: EnvName): void {
    if (!value || value.length < MIN_VALUE) return;
    this.#pending.push({ env: value, name });
  }

  /**
   * One exchange, to be turned into a step that registers the values its
   * answer gives. Kept as it came until the book is read (#pending), or until
   * the pending ones hold more than PENDING_CHARS characters.
   */
  add(id: number, raw: RawExchange): void {
    if (raw.warmUp) return;
    const chars = raw.url.length + (raw.requestBody?.length ?? 0) + (raw.responseBody?.length ?? 0);
    this.#pending.push({ id, raw: kept(raw) });
    this.#pendingChars += chars;
    if (this.#pendingChars > PENDING_CHARS) this.#settle();
  }

  /** Makes every pending exchange into its step, in the order they came. */
  #settle(): void {
    for (const next of this.#pending.splice(0)) {
      if ('env' in next) {
        if (!this.#byValue.has(next.env)) this.#define(next.env, { kind: 'env', name: next.name });
      } else this.#step(next.id, next.raw);
    }
    this.#pendingChars = 0;
  }

  #step(id: number, raw: KeptExchange): void {
    const json = {
      request: jsonContainer(raw.requestBody),
      response: jsonContainer(raw.responseBody),
    };
    this.#sending = raw.sentAt;
    const uses = new Set<number>();
    this.#clientValues(raw, json.request);
    const headers: Record<string, string> = {};
    let basic: string | undefined;
    for (const [name, value] of Object.entries(raw.requestHeaders)) {
      const lower = name.toLowerCase();
      const credentials = lower === 'authorization' && /^basic\s+(\S+)$/i.exec(value)?.[1];
      if (credentials) {
        const decoded = Buffer.from(credentials, 'base64').toString('utf8');
        basic = decoded
          .split(':')
          .map((part) => this.#template(decodeForm(part), uses))
          .join(':');
        continue;
      }
      headers[lower] = this.#template(value, uses);
    }
    const step: TraceStep = {
      id,
      channel: raw.channel,
      method: raw.method,
      url: this.#template(raw.url, uses, true),
      headers,
      uses: [],
      at: raw.sentAt ?? new Date(raw.startedAt).getTime(),
      ms: raw.durationMs,
    };
    if (basic !== undefined) step.basic = basic;
    if (raw.requestBody !== undefined) {
      if (raw.requestBody.length > MAX_TRACE_BODY) step.truncated = true;
      else step.body = this.#clockToMinute(raw, this.#template(raw.requestBody, uses), uses);
    }
    if (raw.together !== undefined) step.race = raw.together;
    if (raw.place !== undefined) step.place = raw.place;
    if (raw.status !== undefined) step.status = raw.status;
    if (raw.error) step.error = raw.error.code;
    const answer = json.response;
    const code = (answer as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') step.code = code;
    uses.delete(id);
    step.uses = [...uses].sort((a, b) => a - b);
    this.#steps.set(id, step);
    this.#sending = undefined;
    if (answer !== undefined) this.#answerValues(id, answer, '');
    const now = (answer as { now?: unknown } | undefined)?.now;
    if (isClock(raw) && typeof now === 'string') this.#clocks.set(raw.url, { step: id, now });
  }

  /**
   * A clock moved to the start of the next whole minute (the seconds it
   * advances are those from the time its last answer showed to that minute):
   * the seconds become a variable a replay works out from the time its own
   * clock shows, so that what follows starts a window there too.
   */
  #clockToMinute(raw: KeptExchange, body: string, uses: Set<number>): string {
    const last = isClock(raw) ? this.#clocks.get(raw.url) : undefined;
    const advance = /^\{\s*"advance_seconds"\s*:\s*(\d+)\s*\}$/.exec(body);
    if (!last || !advance || Number(advance[1]) !== secondsToMinute(last.now)) return body;
    const name = `v${this.#next++}`;
    this.#vars.set(name, { kind: 'answer', step: last.step, pointer: '/now', untilMinute: true });
    uses.add(last.step);
    return body.replace(advance[1] as string, `{{${name}}}`);
  }

  /** Replaces known values in `text` by their variables (no new variable is made). */
  template(text: string): string {
    this.#settle();
    return this.#template(text, new Set());
  }

  /**
   * The variable standing for a credential the check made up (a forged token,
   * a wrong secret) that a redactor would hide: one per value, made up again
   * at replay time in the same shape.
   */
  made(value: string): string {
    this.#settle();
    const known = this.#byValue.get(value);
    if (known) return known;
    const cut = value.lastIndexOf('_', 24) + 1;
    const shape = value
      .slice(cut)
      .replace(/[a-z]/g, 'a')
      .replace(/[A-Z]/g, 'A')
      .replace(/[0-9]/g, '0');
    const name = `v${this.#next++}`;
    this.#vars.set(name, { kind: 'made', prefix: value.slice(0, cut), shape });
    this.#byValue.set(value, name);
    return name;
  }

  /** A variable's definition. */
  variable(name: string): TraceVar | undefined {
    this.#settle();
    return this.#vars.get(name);
  }

  /**
   * The steps `ids` with every step they depend on, in the order they ran,
   * and the variables they (or `also`, the judgement's text) name.
   */
  trace(ids: Iterable<number>, also = ''): ReplayTrace {
    this.#settle();
    const wanted = new Set<number>();
    const visit = (id: number) => {
      if (wanted.has(id)) return;
      const step = this.#steps.get(id);
      if (!step) return;
      wanted.add(id);
      for (const used of step.uses) visit(used);
    };
    for (const id of ids) visit(id);
    const steps = [...wanted]
      .sort((a, b) => a - b)
      .map((id) => this.#steps.get(id) as TraceStep)
      .map((step) => ({ ...step, headers: { ...step.headers }, uses: [...step.uses] }));
    const vars: Record<string, TraceVar> = {};
    const text = JSON.stringify(steps) + also;
    for (const [name, def] of this.#vars) {
      // A value the judgement names from an answer no replayed step gets cannot be learned.
      if (!text.includes(`{{${name}}}`)) continue;
      if (def.kind === 'answer' && !wanted.has(def.step)) continue;
      vars[name] = def;
    }
    return { steps, vars };
  }

  #define(value: string, def: TraceVar): string {
    const name = `v${this.#next++}`;
    this.#vars.set(name, def);
    this.#byValue.set(value, name);
    this.#byPrefix.add(value);
    // An id with reserved characters (`acct:1`) travels percent-encoded in a path or query.
    const encoded = encodeURIComponent(value);
    if (encoded !== value && !this.#byValue.has(encoded)) {
      this.#byValue.set(encoded, name);
      this.#byPrefix.add(encoded);
      this.#encoded.add(encoded);
    }
    return name;
  }

  /** Values the client makes up: Idempotency-Keys, external_ids, UUIDs. */
  #clientValues(raw: KeptExchange, body: unknown): void {
    const texts: string[] = [];
    const key = Object.entries(raw.requestHeaders).find(
      ([name]) => name.toLowerCase() === 'idempotency-key',
    )?.[1];
    if (key && key.length >= MIN_VALUE && /[0-9]/.test(key)) this.#client(key);
    texts.push(raw.url, raw.requestBody ?? '', key ?? '');
    for (const text of texts) for (const uuid of text.match(UUID) ?? []) this.#client(uuid);
    if (body !== undefined) {
      walk(body, '', (value, last) => {
        if (last === 'external_id' && value.length >= MIN_VALUE) this.#client(value);
      });
    }
  }

  #client(value: string): void {
    if (this.#byValue.has(value)) return;
    this.#define(value, { kind: 'client', shape: value.replace(/[0-9]/g, '0') });
  }

  #answerValues(step: number, json: unknown, root: string): void {
    walk(json, root, (value, last, pointer) => {
      if (value.length < MIN_VALUE || this.#byValue.has(value) || /\s/.test(value)) return;
      // Identifiers, keys, tokens: named so (`id`, `access_key_id`, `sku`, `access_token`), or
      // letters with digits. Statuses and words are left alone.
      const named = ID_FIELD.test(last);
      if (!named && (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value))) return;
      if (/^\d{4}-\d{2}-\d{2}/.test(value)) return;
      // Paths and URLs (a problem's `instance`) are where a request goes, not an identifier.
      if (value.startsWith('/') || /^[a-z]+:\/\//i.test(value)) return;
      this.#define(value, { kind: 'answer', step, pointer: pointer() });
    });
  }

  /**
   * Whether the request being added could have taken `value` from where the
   * book learned it: an answer that came before the request was sent. One
   * sent at once with that answer's request (an echo of a value both carry)
   * did not use it.
   */
  #knownWhenSent(value: string): boolean {
    const sending = this.#sending;
    if (sending === undefined) return true;
    const def = this.#vars.get(this.#byValue.get(value) ?? '');
    if (def?.kind !== 'answer') return true;
    const from = this.#steps.get(def.step);
    return from?.at === undefined || from.at + (from.ms ?? 0) <= sending;
  }

  /** `url`: the text is a path and query, where values also appear percent-encoded. */
  #template(text: string, uses: Set<number>, url = false): string {
    if (this.#byValue.size === 0 || text.length < MIN_VALUE) return literal(text);
    let out = '';
    let copied = 0;
    this.#byPrefix.scan(text, (at, candidates) => {
      let found: string | undefined;
      for (let i = 0; i < candidates.length; i++) {
        const value = candidates[i] as string;
        if (!url && this.#encoded.has(value)) continue;
        if (!this.#knownWhenSent(value)) continue;
        const longer = found === undefined || value.length > found.length;
        if (longer && text.startsWith(value, at) && bounded(text, at, value.length)) found = value;
      }
      if (found === undefined) return undefined;
      const name = this.#byValue.get(found) as string;
      const def = this.#vars.get(name);
      if (def?.kind === 'answer') uses.add(def.step);
      out += `${literal(text.slice(copied, at))}{{${name}}}`;
      copied = at + found.length;
      return copied;
    });
    return out + literal(text.slice(copied));
  }
}

/** Text as it is in a template: a `{{` of its own is written `{{!}}`, never read as a variable. */
function literal(text: string): string {
  return text.includes('{{') ? text.replaceAll('{{', '{{!}}') : text;
}

/** A value matched inside a longer identifier is not that value. */
function bounded(text: string, at: number, length: number): boolean {
  const before = text[at - 1];
  const after = text[at + length];
  return !(before && ID_CHAR.test(before)) && !(after && ID_CHAR.test(after));
}

/**
 * Every string inside `value`, in document order, with the last token of its
 * JSON pointer (escaped) and its whole pointer below `root`, made only when
 * asked for: most strings of an answer are looked at and left, and building
 * every pointer was most of what recording an exchange allocated.
 */
function walk(
  value: unknown,
  root: string,
  visit: (text: string, last: string, pointer: () => string) => void,
): void {
  const tokens: string[] = [];
  const pointer = () => (tokens.length === 0 ? root : `${root}/${tokens.join('/')}`);
  const inner = (node: unknown): void => {
    if (typeof node === 'string') visit(node, tokens.at(-1) ?? '', pointer);
    else if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        tokens.push(String(i));
        inner(node[i]);
        tokens.pop();
      }
    } else if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node)) {
        tokens.push(
          key.includes('~') || key.includes('/')
            ? key.replaceAll('~', '~0').replaceAll('/', '~1')
            : key,
        );
        inner((node as Record<string, unknown>)[key]);
        tokens.pop();
      }
    }
  };
  inner(value);
}

/** A control request that moves an account's clock (the control protocol's `POST /accounts/{id}/clock`). */
function isClock(raw: KeptExchange): boolean {
  return raw.channel === 'control' && raw.method === 'POST' && /\/clock$/.test(raw.url);
}

/** Seconds from an ISO time to the next whole minute (60 at a whole minute): as a replay works it out. */
function secondsToMinute(time: string): number {
  const ms = Date.parse(time);
  return Number.isFinite(ms) ? 60 - Math.floor((ms / 1000) % 60) : Number.NaN;
}

function decodeForm(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, '%20'));
  } catch {
    return part;
  }
}

/**
 * One violation to judge again on replay: the step's answer at `pointer`.
 * `observed` is what the run saw there (variables named, as in the steps);
 * absent when the evidence could not say (a body cut for length).
 */
export interface Judgement {
  code: string;
  pointer: string;
  /** The step whose answer shows it; none: the check judged across answers. */
  exchange?: number;
  expected: unknown;
  received: unknown;
  observed?: { value: unknown } | { absent: true };
  /** What the answer must show for the rule to hold (variables named): judged first when present. */
  holds?: { pointer: string; equals: unknown }[];
  /** The rule's condition as data (variables named): what a reproduction judges again. */
  must?: Condition;
  /** The steps whose answers `must` judges as one (requests sent together). */
  exchanges?: number[];
  /** The sentence of the document this judgement rests on, when not the rule's first. */
  sentence?: { section: string; quote: string };
  /** The check's judgement held in the run (a race's rule over all its answers): judged again too. */
  held?: true;
  message: string;
}

/** What a reproduction replays and judges: a failed, warning or error result's trace and violations. */
export interface Replay {
  trace: ReplayTrace;
  judge: Judgement[];
  /**
   * The statuses the check required of steps and got (held judgements): a
   * reproduction tells "this answer breaks a rule too" from "cannot tell" by them.
   */
  expects?: { exchange: number; must: Condition }[];
  /** Why this result cannot be replayed standalone, when it cannot. */
  unreplayable?: string;
}
