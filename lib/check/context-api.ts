import type { Faker } from '@faker-js/faker';
import type * as fc from 'fast-check';
import type { z } from 'zod';
import type { Capability, Rule } from '../../rules/index.js';
import type { Auth, HttpResponse, Key, RequestSpec } from '../client/types.js';
import type {
  AccountSettings,
  Charge,
  ControlClient,
  KeyOptions,
  Product,
  TestAccount,
} from '../control/types.js';
import type { Dialect, PathName } from '../target/dialect.js';
import type { DialectSeen, RunConfig } from '../target/run-config.js';
import type { Condition, Test } from '../violations/condition.mjs';
import type { Violation } from '../violations/violation.js';
import type { OrderChoices } from './order-body.js';

export type {
  AccountSettings,
  Auth,
  Charge,
  ControlClient,
  HttpResponse,
  Key,
  KeyOptions,
  Product,
  RequestSpec,
  TestAccount,
};

/** How `postOrder` sends an order (send-order.ts sends it). */
export interface PostOrderOptions {
  /** The Idempotency-Key; `null` sends none. Default: a new unique key. */
  idempotencyKey?: string | null;
  /** Headers besides the defaults; `null` removes one (e.g. `content-type`). */
  headers?: Record<string, string | null>;
  /** Sent byte for byte instead of `JSON.stringify(body)` (with `Content-Type: application/json` unless `headers` say otherwise). */
  rawBody?: string;
}

/** An API client bound to one key: bearer tokens from the token manager, renewed on `token_expired`. */
export interface ApiClient {
  send(spec: Omit<RequestSpec, 'auth'>): Promise<HttpResponse>;
  get(path: string, query?: Record<string, string>): Promise<HttpResponse>;
  post(
    path: string,
    json?: unknown,
    headers?: Record<string, string | string[] | null>,
  ): Promise<HttpResponse>;
  delete(path: string): Promise<HttpResponse>;
}

/**
 * What one racer of `CheckContext.race` sends its one request through: the
 * API (`send`, exactly the spec, never retried) or the control protocol.
 */
export interface Racer {
  send(spec: RequestSpec): Promise<HttpResponse>;
  readonly control: ControlClient;
}

/**
 * Matches a header value: exact string, pattern, a test of condition.mjs, or a
 * predicate. All but the predicate are data a reproduction judges again
 * (a predicate leaves it judging whether the run's value comes back).
 */
export type HeaderMatcher = string | RegExp | Test | ((value: string) => boolean);

/**
 * What a check receives. Assertions named `expect*` are soft: they record a
 * violation and answer false, and the check goes on. `require*` and `stop()`
 * record and end the check. A violation of a MUST rule makes the verdict
 * `failed`; of a SHOULD or DIALECT rule, `warning`.
 */
/** An order the target took: its id (read where the dialect says) and its answer. */
export interface PlacedOrder {
  id: string;
  answer: Record<string, unknown>;
}

/** How a property's runs are spread over lanes (`CheckContext.propertyInLanes`). */
export interface LaneOptions {
  /**
   * Each run is a sequence of many requests (a stateful command sequence):
   * a lane's account and key cost little beside its runs, so such a property
   * gets more lanes than files run at a time (property.ts `longRunLanes`). The
   * inputs are the same whatever the number of lanes.
   */
  longRuns?: boolean;
}

export interface CheckContext {
  readonly rule: Rule;
  readonly config: RunConfig;
  readonly dialect: Dialect;
  /**
   * What the dialect probe saw the target take in the profile's shape (an
   * order, a quote): a later 422 to a valid request of that shape is the
   * target's refusal, judged on the check's rule, never a profile gap.
   */
  readonly dialectSeen: readonly DialectSeen[];
  /** The run's seed; generated inputs derive from it. */
  readonly seed: number;
  /** faker seeded from the run seed and the rule id: replays exactly. */
  readonly faker: Faker;

  /** Ends the check as `not_verifiable` when the run lacks one of these. */
  need(...capabilities: Capability[]): void;
  has(capability: Capability): boolean;
  /** Ends the check as `not_verifiable` with this reason. */
  notVerifiable(reason: string, missing?: string[]): never;

  /**
   * The file's own account, made once through the control API (needs
   * `accounts`); in a check on accounts of its own (`ownAccounts`), an
   * account with the same settings made for this check alone.
   */
  account(): Promise<TestAccount>;
  /** A further, isolated account (needs `accounts`). */
  newAccount(settings?: AccountSettings): Promise<TestAccount>;
  /**
   * A key. With `keys`: a new key in the given (default: the file's) account.
   * Without: the partner key, if it fits the options; otherwise `not_verifiable`.
   */
  key(options?: KeyOptions): Promise<Key>;
  /** The file's control client; its methods `need` their feature. */
  readonly control: ControlClient;
  /** Moves the account's clock (needs `clock`). */
  advanceClock(account: TestAccount | string, seconds: number): Promise<void>;

  /** Sends exactly what the spec says and records it as evidence. */
  send(spec: RequestSpec): Promise<HttpResponse>;
  /** A bearer token for the key (cached per key and scope set). */
  token(key: Key, scopes?: string[]): Promise<string>;
  /** Forgets cached tokens of a key (after roll, revoke, clock moves). */
  forgetTokens(key: Key): void;
  /**
   * An API client bound to the key. Outside the RATE area a 429 is never the
   * rule's: the one policy of rate-policy.ts waits and retries on the partner
   * key (then `not_verifiable`), and is a harness error on a key the run made.
   * `send` stays exact: it returns whatever the target answers.
   */
  api(key: Key, scopes?: string[]): ApiClient;
  /** Fills a path template, the document's or the dialect's: `ctx.path('order', { id })`. */
  path(name: PathName, params?: Record<string, string>): string;

  /**
   * A valid order body for an account's products: the given account (or id),
   * else the file's own; without the control API, the partner key's catalog.
   */
  orderBody(
    choices?: OrderChoices,
    account?: TestAccount | string,
  ): Promise<Record<string, unknown>>;
  /**
   * Places an order with a fresh Idempotency-Key; records it for cleanup. Stops
   * the check (harness error) unless it succeeds; without an id where the
   * profile says (`dialect.answers.order.id`), not verifiable.
   */
  placeOrder(key: Key, body?: Record<string, unknown>): Promise<PlacedOrder>;
  /**
   * `POST` of the dialect's order path exactly as the check wants it (the one
   * way orders are sent; `placeOrder` uses it), answering the raw response so
   * that the check judges status, headers and body itself. Orders placed with
   * the partner key are cancelled at the end of the file.
   */
  postOrder(key: Key, body: unknown, options?: PostOrderOptions): Promise<HttpResponse>;
  /** The request `postOrder` sends (with its Idempotency-Key drawn now), for a race. */
  orderRequest(key: Key, body: unknown, options?: PostOrderOptions): RequestSpec;

  /**
   * Requests that race (lib/client/last-byte.ts): each racer sends exactly one
   * request through the `Racer` it is given, on a connection of its own;
   * every request is written but for its last byte, and once all are, their
   * last bytes are written at once, in the racers' order, so that they reach
   * the target together however busy this machine is. Each exchange is recorded as evidence,
   * marked with the race's number (`together`). Answers the racers' values in
   * their order; the first failure is thrown once all have settled. A racer
   * that meets a 429 the rule does not provoke ends the check
   * `not_verifiable` (throttled). Orders the partner key places are cancelled
   * at the end of the file, as with `postOrder`.
   */
  race<T>(racers: readonly ((racer: Racer) => Promise<T>)[]): Promise<T[]>;
  /** `race` of these requests, one racer each; answers in their order. */
  raceRequests(specs: readonly RequestSpec[]): Promise<HttpResponse[]>;

  expectStatus(res: HttpResponse, expected: number | readonly number[]): boolean;
  /**
   * An error answer with this HTTP status and this `code` (a JSON body is
   * needed to read the code). Media type and field-by-field shape are
   * `expectProblemFields`' job, so that a broken field fails the ERR rule that
   * owns it, not every check. `unless`: what else the answer may be, as data
   * (a racer the race let through): a reproduction judges the refusal only
   * on an answer that is not that.
   */
  expectProblem(
    res: HttpResponse,
    expected: { status: number; code: string },
    unless?: Condition,
  ): boolean;
  /**
   * Every field of the error object (API document sections 2 and 7): type URI
   * `{docs_url}/errors#error-<code-with-hyphens>`, title, status = HTTP status,
   * detail, instance = request path, code, request_id, errors[] entries with
   * detail, decline_code only on card_declined, required_scope only on
   * insufficient_scope. `docs_url` comes from the profile or is learned from
   * the first problem the file sees.
   */
  expectProblemFields(res: HttpResponse): boolean;
  expectHeader(res: HttpResponse, name: string, matcher: HeaderMatcher, what?: string): boolean;
  expectNoHeader(res: HttpResponse, name: string, why?: string): boolean;
  /** Validates a value with zod; each issue becomes a SCHEMA violation at its pointer. */
  expectShape<S extends z.ZodType>(
    value: unknown,
    schema: S,
    pointer?: string,
    exchange?: number,
  ): z.output<S> | undefined;
  /**
   * `received` equals `expected`. With `res`, the answer `received` was read
   * from at `pointer` (`/body/…`, `/status`, `/headers/…`): the judgement
   * names it, and a reproduction judges that place of its own answer again.
   */
  expectEqual(
    pointer: string,
    expected: unknown,
    received: unknown,
    message: string,
    res?: HttpResponse,
  ): boolean;
  expectTrue(
    condition: boolean,
    violation: Omit<Violation, 'code'> & { code?: Violation['code'] },
  ): boolean;
  violate(violation: Violation): void;
  /**
   * Counts a judgement the check made by its own logic and that held (a
   * failing one is a `violate`). A check that ends without any judgement
   * is `not_verifiable`, never `passed`; the `expect*` helpers count themselves.
   */
  judged(): void;

  requireStatus(res: HttpResponse, expected: number | readonly number[]): void;
  /** Records the violation (if any) and ends the check. */
  stop(violation?: Violation): never;

  /** fast-check parameters that replay with the run's seed and record the counterexample. */
  fcParams<T>(extra?: fc.Parameters<T>): fc.Parameters<T>;
  /** Runs an async property; a failure becomes a violation carrying the shrunk counterexample, seed and path. */
  property<T>(
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<boolean | void>,
    extra?: fc.Parameters<[T]>,
  ): Promise<void>;

  /**
   * Runs an async property as `property` does (same inputs, same replay by
   * seed and path), with its runs spread over lanes: up to the run's
   * concurrency at a time (`--concurrency`, one against the bundled
   * reference; one without the control features `accounts` and `keys`,
   * e.g. with only a partner key), each lane with the state
   * `makeLane` makes for it (an account and key of its own; or nothing, when
   * the runs may share the check's key and its limits), so that a
   * target far away is not asked one round trip after another. For
   * properties whose runs are independent of each other; inside a run,
   * `faker` is that run's own. Runs that are long (`options.longRuns`) get
   * more lanes against a target far away (property.ts `longRunLanes`).
   */
  propertyInLanes<T, L>(
    arbitrary: fc.Arbitrary<T>,
    makeLane: () => Promise<L>,
    predicate: (value: T, lane: L) => Promise<boolean | void>,
    extra?: fc.Parameters<[T]>,
    options?: LaneOptions,
  ): Promise<void>;

  note(text: string): void;
  /**
   * `make`'s value, made once per check file under `name` and shared by every
   * check of the file that asks (work several rules judge alike, e.g. the ERR
   * area's provoked errors). The first asking check runs it, its requests and
   * notes recorded in an evidence scope of its own; every asking check then
   * keeps those exchanges (under their own ids) and notes in its evidence.
   * A failure of `make` is every asker's.
   */
  sharedInFile<T>(name: string, make: () => Promise<T>): Promise<T>;
  /**
   * Runs when the check ends, before the keys it made are revoked (cancel
   * orders, delete webhook endpoints): a clean-up still holds a working key.
   */
  onCleanup(fn: () => Promise<void>): void;
}
