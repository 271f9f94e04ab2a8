import { isDeepStrictEqual } from 'node:util';
import type { Faker } from '@faker-js/faker';
// The en_US entry point loads one locale; the package root loads them all (~30 MB a worker).
import { faker } from '@faker-js/faker/locale/en_US';
import type * as fc from 'fast-check';
import type { z } from 'zod';
import type { Capability, Rule } from '../../rules/index.js';
import type { Caller } from '../client/session.js';
import type { Scoped } from '../evidence/scope.js';
import { type Dialect, type PathName, pathOf } from '../target/dialect.js';
import type { DialectSeen, RunConfig } from '../target/run-config.js';
import type { Condition } from '../violations/condition.mjs';
import { CheckStopped, HarnessError, NotVerifiable } from '../violations/harness-error.js';
import type { Violation } from '../violations/violation.js';
import { requireId, succeeded } from './answers.js';
import { absentHeaderViolations, headerViolations } from './assert/header.js';
import { problemFieldViolations, problemViolations } from './assert/problem.js';
import { shapeViolations } from './assert/shape.js';
import { statusViolations } from './assert/status.js';
import { listedProducts } from './catalog-read.js';
import type { CheckRun } from './check-run.js';
import type {
  AccountSettings,
  ApiClient,
  CheckContext,
  ControlClient,
  HeaderMatcher,
  HttpResponse,
  Key,
  KeyOptions,
  LaneOptions,
  PlacedOrder,
  PostOrderOptions,
  Product,
  Racer,
  RequestSpec,
  TestAccount,
} from './context-api.js';
import { fakerLike } from './faker-like.js';
import { FILE_ACCOUNT_SETTINGS, type FileFixture } from './file-fixture.js';
import { MadeOnce } from './made-once.js';
import { type OrderChoices, orderBody } from './order-body.js';
import { type Lanes, longRunLanes, mixSeed, propertyParams, runProperty } from './property.js';
import { orderAnswered, orderRequest, sendOrder } from './send-order.js';

/** The CheckContext of one check: the fixture of its file plus the run of this check. */
export class Context implements CheckContext {
  readonly rule: Rule;
  readonly config: RunConfig;
  readonly dialect: Dialect;
  readonly dialectSeen: readonly DialectSeen[];
  readonly seed: number;
  /** The check's faker, once made (#checkFaker). */
  #faker: Faker | undefined;
  readonly #ownFaker: boolean;
  readonly #fixture: FileFixture;
  readonly #run: CheckRun;
  /** Its requests' evidence and notes go to this check; a 429 is its subject only if the rule says so. */
  readonly #caller: Caller;
  /** The file's control API, its requests recorded as this check's evidence. */
  readonly control: ControlClient;
  /** The check touches only accounts it makes (`CheckOptions.ownAccounts`): `account()` is its own. */
  readonly #ownAccount: boolean;
  readonly #account = new MadeOnce<TestAccount>();
  /** The key that came with an account made ahead, for the check's first plain `key()` in it. */
  readonly #readyKeys = new Map<string, Key>();

  constructor(
    fixture: FileFixture,
    run: CheckRun,
    options: { ownFaker?: boolean; ownAccount?: boolean } = {},
  ) {
    this.#fixture = fixture;
    this.#run = run;
    this.rule = run.rule;
    this.config = fixture.config;
    this.dialect = fixture.config.dialect;
    this.dialectSeen = fixture.config.dialectSeen ?? [];
    this.seed = fixture.config.seed;
    this.#ownFaker = options.ownFaker ?? false;
    // The file's one instance is reseeded now, as each check starts: the suites' generators draw
    // from it too, in between.
    if (!this.#ownFaker) this.#checkFaker();
    this.#caller = fixture.callerOf(run);
    this.control = fixture.session.controlFor(this.#caller);
    this.#ownAccount = options.ownAccount ?? false;
  }

  /**
   * One instance, reseeded per check, while checks of a file run one after another; a check
   * running beside others draws from its own (same seed, same values), made when it first does:
   * most checks never do, and making and seeding one was ~30 ms of a run's worker.
   */
  #checkFaker(): Faker {
    if (!this.#faker) {
      this.#faker = this.#ownFaker ? fakerLike(faker) : faker;
      this.#faker.seed(mixSeed(this.seed, this.rule.id) >>> 0);
    }
    return this.#faker;
  }

  /** The check's faker; inside one of a property's runs in lanes, that run's own (property-lanes.ts). */
  get faker(): Faker {
    return this.#run.scopedFaker() ?? this.#checkFaker();
  }

  need(...capabilities: Capability[]): void {
    const missing = capabilities.filter((c) => !this.#fixture.has(c));
    if (missing.length === 0) return;
    if (missing.length === 1) this.#fixture.need(missing[0]!);
    throw new NotVerifiable(
      `needs the control API features ${missing.map((c) => `"${c}"`).join(', ')}, which this run does not have`,
      missing,
    );
  }

  has(capability: Capability): boolean {
    return this.#fixture.has(capability);
  }

  notVerifiable(reason: string, missing: string[] = []): never {
    throw new NotVerifiable(reason, missing);
  }

  account(): Promise<TestAccount> {
    if (!this.#ownAccount) return this.#fixture.account(this.control);
    // A check on accounts of its own gets one like the file's, made for it alone, whether or not
    // it runs beside the file's other checks: the same requests and verdicts either way.
    this.#fixture.need('accounts');
    return this.#account.get(() => this.newAccount(structuredClone(FILE_ACCOUNT_SETTINGS)));
  }

  async newAccount(settings: AccountSettings = {}): Promise<TestAccount> {
    this.#fixture.need('accounts');
    // An account made ahead comes with its key's token, whose request the key's token window
    // counts: a check that provokes 429s counts that window itself, so it makes its own.
    const ready = this.#run.rule.provokes429
      ? undefined
      : await this.#fixture.readyAccount(settings);
    if (ready) {
      // Made ahead by the CLI's main thread (lib/control/ready-accounts.ts): the requests that
      // made it, its key and the key's token become this check's evidence, as if it had sent
      // them itself, and the token is the one its requests with the key carry.
      for (const exchange of ready.exchanges) this.#run.recorder.record(exchange);
      if (ready.token) this.#fixture.session.tokens.adopt(ready.key, ready.token);
      this.#run.accounts.add(ready.account.id);
      this.#run.keys.push(ready.key);
      this.#readyKeys.set(ready.account.id, ready.key);
      return ready.account;
    }
    const account = await this.control.createAccount(settings);
    this.#run.accounts.add(account.id);
    return account;
  }

  async key(options: KeyOptions = {}): Promise<Key> {
    if (this.has('keys')) {
      const account = options.account ?? (await this.account());
      const { account: _ignored, ...keyOptions } = options;
      const ready = this.#readyKeys.get(account.id);
      if (ready) {
        this.#readyKeys.delete(account.id);
        // The key that came with an account made ahead is one with the defaults: the check's first
        // such key. Asked for another first, it is revoked as the other is made (2 keys meanwhile,
        // far from 10), so that once this returns the account holds only the keys the check made
        // (10 active at most, section 8).
        if (Object.values(keyOptions).every((value) => value === undefined)) return ready;
        const [revoked, made] = await Promise.allSettled([
          this.control.revokeKey(ready),
          this.control.createKey(account.id, keyOptions),
        ]);
        if (made.status === 'fulfilled') this.#run.keys.push(made.value);
        if (revoked.status === 'rejected') throw revoked.reason;
        this.#run.keys.splice(this.#run.keys.indexOf(ready), 1);
        if (made.status === 'rejected') throw made.reason;
        return made.value;
      }
      const key = await this.control.createKey(account.id, keyOptions);
      this.#run.keys.push(key);
      return key;
    }
    const partner = this.#fixture.session.partnerKey();
    if (options.account || options.ip_allowlist) {
      this.notVerifiable(
        'needs a key made for this check (own account or IP allowlist): control feature "keys"',
        ['keys'],
      );
    }
    if (options.mode && options.mode !== partner.mode) {
      this.notVerifiable(`needs a ${options.mode} key; the partner key is a ${partner.mode} key`, [
        'keys',
      ]);
    }
    // The partner key stands in for a key with fewer scopes by asking its tokens for the subset.
    return options.scopes ? { ...partner, tokenScopes: options.scopes } : partner;
  }

  async advanceClock(account: TestAccount | string, seconds: number): Promise<void> {
    const id = typeof account === 'string' ? account : account.id;
    await this.control.advanceClock(id, seconds);
  }

  /**
   * Exactly the request asked for. A 429 is answered as it is to the rules
   * that provoke 429s on purpose (`provokes429` in the catalogue); elsewhere
   * the session's one 429 policy applies (lib/client/rate-limits.ts).
   */
  send(spec: RequestSpec): Promise<HttpResponse> {
    return this.#fixture.session.send(spec, this.#caller);
  }

  token(key: Key, scopes?: string[]): Promise<string> {
    return this.#fixture.session.tokenFor(key, scopes, this.#caller);
  }

  forgetTokens(key: Key): void {
    this.#fixture.session.tokens.forget(key);
  }

  api(key: Key, scopes?: string[]): ApiClient {
    const auth = { kind: 'key' as const, key, ...(scopes ? { scopes } : {}) };
    const send = async (spec: Omit<RequestSpec, 'auth'>): Promise<HttpResponse> => {
      const res = await this.send({ ...spec, auth });
      // Section 5, rule 2: after token_expired, a new token is requested and the request repeated.
      if (
        res.status === 401 &&
        (res.json as { code?: unknown } | undefined)?.code === 'token_expired'
      ) {
        this.forgetTokens(key);
        return this.send({ ...spec, auth });
      }
      return res;
    };
    return {
      send,
      get: (path, query) => send({ method: 'GET', path, ...(query ? { query } : {}) }),
      post: (path, json, headers) =>
        send({
          method: 'POST',
          path,
          ...(json === undefined ? {} : { json }),
          ...(headers ? { headers } : {}),
        }),
      delete: (path) => send({ method: 'DELETE', path }),
    };
  }

  path(name: PathName, params?: Record<string, string>): string {
    return pathOf(this.dialect, name, params);
  }

  async orderBody(
    choices?: OrderChoices,
    account?: TestAccount | string,
  ): Promise<Record<string, unknown>> {
    return orderBody(this, { products: await this.#products(account) }, choices);
  }

  async placeOrder(key: Key, body?: Record<string, unknown>): Promise<PlacedOrder> {
    const order = body ?? (await this.orderBody(undefined, key.accountId));
    const res = await this.postOrder(key, order);
    const placed = res.json as Record<string, unknown> | undefined;
    // A first creation (the dialect's status) or a replay (200, section 4).
    if (!succeeded(this.dialect, 'orderCreate', res.status) && res.status !== 200) {
      const code = (res.json as { code?: unknown } | undefined)?.code;
      throw new HarnessError(
        'HARNESS_SETUP',
        `could not place the order this check needs: HTTP ${res.status}${typeof code === 'string' ? ` ${code}` : ''} (evidence #${res.exchange})`,
      );
    }
    const id = requireId(this.dialect, 'order', placed, 'the order placed', res.exchange);
    return { id, answer: placed as Record<string, unknown> };
  }

  postOrder(key: Key, body: unknown, options: PostOrderOptions = {}): Promise<HttpResponse> {
    return sendOrder(
      this.api(key),
      this.path('orders'),
      key,
      body,
      options,
      this.#placedByPartner(key),
      this.dialect,
    );
  }

  orderRequest(key: Key, body: unknown, options: PostOrderOptions = {}): RequestSpec {
    return { ...orderRequest(this.path('orders'), body, options), auth: { kind: 'key', key } };
  }

  /** Remembers an order the partner key placed, to cancel it at the end of the file. */
  #placedByPartner(key: Key): (id: string) => void {
    return (id) => {
      const orders = this.#fixture.partnerOrders;
      if (!orders.some((o) => o.id === id)) orders.push({ key, id });
    };
  }

  async race<T>(racers: readonly ((racer: Racer) => Promise<T>)[]): Promise<T[]> {
    const racing = this.#fixture.session.racing(racers.length, this.#caller);
    const racerAt = (place: number): Racer => {
      const client = racing.racer(place);
      return {
        send: async (spec) => {
          const res = await client.send(spec);
          // An order, however it raced, is answered like any other (send-order.ts).
          const key = spec.auth?.kind === 'key' ? spec.auth.key : undefined;
          const orders = this.path('orders').split('?')[0];
          if (key && spec.method.toUpperCase() === 'POST' && spec.path.split('?')[0] === orders)
            orderAnswered(res, key, this.#placedByPartner(key), this.dialect);
          return res;
        },
        control: client.control,
      };
    };
    const settled = await Promise.allSettled(
      racers.map((run, place) => {
        const going = run(racerAt(place));
        // A racer that ended without sending (its set-up failed) holds the others back no longer.
        void going.then(racing.racerEnded, racing.racerEnded);
        return going;
      }),
    );
    const failed = settled.find((one) => one.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((one) => (one as PromiseFulfilledResult<T>).value);
  }

  raceRequests(specs: readonly RequestSpec[]): Promise<HttpResponse[]> {
    return this.race(specs.map((spec) => (racer: Racer) => racer.send(spec)));
  }

  async #products(account?: TestAccount | string): Promise<readonly Product[]> {
    if (this.has('accounts')) {
      const target = account ?? (await this.account());
      const resolved =
        typeof target === 'string' || !target.settings.products
          ? await this.control.getAccount(typeof target === 'string' ? target : target.id)
          : target;
      if (resolved.settings.products) return resolved.settings.products;
    }
    // No control API: the catalog says what the partner key may order.
    return listedProducts(this.api(this.#fixture.session.partnerKey()), this.dialect);
  }

  expectStatus(res: HttpResponse, expected: number | readonly number[]): boolean {
    const held = this.#record(statusViolations(res, expected));
    if (held) {
      const allowed = typeof expected === 'number' ? [expected] : [...expected];
      this.#held(res, { at: '/status', is: { oneOf: allowed } });
    }
    return held;
  }

  expectProblem(
    res: HttpResponse,
    expected: { status: number; code: string },
    unless?: Condition,
  ): boolean {
    const held = this.#record(problemViolations(res, expected, unless));
    const status: Condition = { at: '/status', is: { equals: expected.status } };
    if (held) this.#held(res, unless ? { any: [unless, status] } : status);
    return held;
  }

  expectProblemFields(res: HttpResponse): boolean {
    const { violations, docsUrl } = problemFieldViolations(
      res,
      res.requestPath,
      this.#fixture.docsUrl,
    );
    this.#fixture.docsUrl ??= docsUrl;
    return this.#record(violations);
  }

  expectHeader(res: HttpResponse, name: string, matcher: HeaderMatcher, what?: string): boolean {
    return this.#record(headerViolations(res, name, matcher, what));
  }

  expectNoHeader(res: HttpResponse, name: string, why?: string): boolean {
    return this.#record(absentHeaderViolations(res, name, why));
  }

  expectShape<S extends z.ZodType>(
    value: unknown,
    schema: S,
    pointer = '/body',
    exchange?: number,
  ): z.output<S> | undefined {
    const unread =
      exchange === undefined ? undefined : this.#fixture.session.unreadable.get(exchange);
    if (value === undefined && exchange !== undefined && unread) {
      // A body the suite did not read (too large, nested too deep): the target's answer, in its words.
      this.#record([
        {
          code: 'NOT_JSON',
          pointer,
          expected: 'a JSON body',
          received: unread,
          message: `${pointer}: ${unread}`,
          exchange,
        },
      ]);
      return undefined;
    }
    const { data, violations } = shapeViolations(value, schema, pointer, exchange);
    this.#record(violations);
    return data;
  }

  expectEqual(
    pointer: string,
    expected: unknown,
    received: unknown,
    message: string,
    res?: HttpResponse,
  ): boolean {
    if (isDeepStrictEqual(expected, received)) return this.#record([]);
    const place = res && /^\/(body|status$|headers\/)/.test(pointer);
    return this.#record([
      {
        code: 'VALUE',
        pointer,
        expected,
        received,
        message,
        ...(res ? { exchange: res.exchange } : {}),
        ...(place ? { must: { at: pointer, is: { equals: expected } } } : {}),
      },
    ]);
  }

  expectTrue(
    condition: boolean,
    violation: Omit<Violation, 'code'> & { code?: Violation['code'] },
  ): boolean {
    if (!condition) return this.#record([{ code: 'VALUE', ...violation }]);
    // Held, its condition kept for a reproduction (the status a step had; a race's rule).
    this.#run.hold({ code: 'VALUE', ...violation });
    return this.#record([]);
  }

  violate(violation: Violation): void {
    this.#run.violate(violation);
  }

  requireStatus(res: HttpResponse, expected: number | readonly number[]): void {
    if (!this.expectStatus(res, expected)) throw new CheckStopped('stopped on a wrong status');
  }

  stop(violation?: Violation): never {
    if (violation) this.violate(violation);
    throw new CheckStopped('stopped by the check');
  }

  fcParams<T>(extra?: fc.Parameters<T>): fc.Parameters<T> {
    return propertyParams(this.seed, this.rule.id, this.config.numRuns, extra);
  }

  property<T>(
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<boolean | void>,
    extra?: fc.Parameters<[T]>,
  ): Promise<void> {
    // The plain case of the one runner: one lane, with no state of its own.
    return runProperty(
      this.#run,
      this.#fixture.redactor,
      arbitrary,
      { count: 1, make: async () => undefined },
      (value) => predicate(value),
      this.fcParams(extra),
      this.#checkFaker(),
    );
  }

  propertyInLanes<T, L>(
    arbitrary: fc.Arbitrary<T>,
    makeLane: () => Promise<L>,
    predicate: (value: T, lane: L) => Promise<boolean | void>,
    extra?: fc.Parameters<[T]>,
    options: LaneOptions = {},
  ): Promise<void> {
    // Lanes each get an account of their own: without accounts and keys to make, one lane.
    const own = this.has('accounts') && this.has('keys');
    const files = this.config.concurrency ?? 1;
    const count = options.longRuns ? longRunLanes(files) : files;
    const lanes: Lanes<L> = { count: own ? count : 1, make: makeLane };
    return runProperty(
      this.#run,
      this.#fixture.redactor,
      arbitrary,
      lanes,
      predicate,
      this.fcParams(extra),
      this.#checkFaker(),
    );
  }

  note(text: string): void {
    this.#run.notes.push(text);
  }

  async sharedInFile<T>(name: string, make: () => Promise<T>): Promise<T> {
    let made = this.#fixture.shared.get(name);
    if (!made) {
      // Its own evidence scope: every check that draws on it keeps its exchanges, under their ids.
      made = this.#run.recorder.scope<unknown>(make);
      this.#fixture.shared.set(name, made);
    }
    const recorded = (await made) as Scoped<T>;
    this.#run.recorder.keep(recorded);
    this.#run.notes.push(...recorded.notes);
    if ('error' in recorded) throw recorded.error;
    return recorded.value;
  }

  onCleanup(fn: () => Promise<void>): void {
    this.#run.cleanups.push(fn);
  }

  judged(): void {
    this.#run.judged();
  }

  /** A status the check required of an answer and got: a reproduction tells a fix from another answer by it. */
  #held(res: HttpResponse, must: Condition): void {
    this.#run.hold({
      code: 'STATUS',
      pointer: '/status',
      expected: null,
      received: res.status,
      message: 'held',
      exchange: res.exchange,
      must,
    });
  }

  /** One judgement: it held (no violation) or it did not (each violation recorded). */
  #record(violations: Violation[]): boolean {
    if (violations.length === 0) this.#run.judged();
    for (const violation of violations) this.#run.violate(violation);
    return violations.length === 0;
  }
}
