import { Agent } from 'undici';
import { afterAll, expect } from 'vitest';
import type { Capability } from '../../rules/index.js';
import { basicAuthorization, buildRequest } from '../client/build-request.js';
import { HttpClient } from '../client/http-client.js';
import { requestClass, type Tally } from '../client/key-pacer.js';
import { toHttpResponse } from '../client/response.js';
import { announceFileTally, announceTally } from '../client/tally-channel.js';
import { TokenManager } from '../client/token-manager.js';
import { type ControlTarget, HttpControlClient } from '../control/control-client.js';
import type { ControlClient } from '../control/types.js';
import { EvidenceRecorder } from '../evidence/recorder.js';
import { Redactor } from '../evidence/redactor.js';
import type { Scoped } from '../evidence/scope.js';
import { pathOf } from '../target/dialect.js';
import { RUN_CONFIG_KEY, type RunConfig } from '../target/run-config.js';
import { HarnessError, NotVerifiable } from '../violations/harness-error.js';
import type { CheckRun } from './check-run.js';
import type { HttpResponse, Key, RequestSpec, TestAccount } from './context.js';
import { withRatePolicy } from './rate-policy.js';
import { runShared } from './run-shared.js';
import { currentRunConfig } from './selected-target.js';

declare module 'vitest' {
  export interface ProvidedContext {
    [RUN_CONFIG_KEY]: RunConfig;
  }
}

/**
 * The state one check file shares between its checks: its own control account,
 * HTTP agent, token cache and clean-up list. vitest isolates modules per test
 * file, so this module-level singleton is per file: files never share
 * accounts, limits, clocks or orders, and can run in parallel.
 */
export class FileFixture {
  readonly config: RunConfig;
  readonly redactor: Redactor;
  readonly http: HttpClient;
  /** The file's control client for what runs outside any check (clean-up): its evidence is kept nowhere. */
  readonly control: HttpControlClient;
  readonly tokens: TokenManager<CheckRun | undefined>;
  readonly #controlTarget: ControlTarget | undefined;
  /** Records every exchange of the file into the evidence scope it is made in (a check's, a run's). */
  readonly recorder: EvidenceRecorder;
  /** Evidence of requests made for no check (end-of-file clean-up): recorded, never reported. */
  readonly #offRecord: EvidenceRecorder;
  /** `{docs_url}` of problem types: from the profile, else learned from the first problem seen. */
  docsUrl: string | undefined;
  readonly #agent: Agent;
  #account: Promise<TestAccount> | undefined;
  readonly #cleanups: (() => Promise<void>)[] = [];
  /** Revocations under way of keys in accounts a finished check made (`revokeLater`). */
  readonly #revoking: Promise<void>[] = [];
  /** Work made once for the file's checks to share (`CheckContext.sharedInFile`), by name. */
  readonly shared = new Map<string, Promise<Scoped<unknown>>>();
  /** Orders placed with the partner key: cancelled at the end (sandbox etiquette). */
  readonly partnerOrders: { key: Key; id: string }[] = [];
  /** Every check of the file touches only accounts it makes itself (`checksUseOwnAccounts`). */
  ownAccounts = false;
  /** What this file sent with the partner key, by class: the next partner run plans its order with it. */
  readonly partnerSent: Tally = { read: 0, write: 0, token: 0 };

  constructor(config: RunConfig) {
    this.config = config;
    this.redactor = new Redactor(config.dialect.keyPrefix);
    this.redactor.add(config.controlToken, 'control-token');
    this.redactor.add(config.partnerKey?.secretKey, 'secret');
    this.docsUrl = config.dialect.docsUrl;
    // Bounded connections: a rate-limit check's hundreds of requests queue instead of opening hundreds of sockets.
    this.#agent = new Agent({ connections: 32, keepAliveTimeout: 10_000 });
    this.http = new HttpClient({ dispatcher: this.#agent, timeoutMs: config.requestTimeoutMs });
    this.recorder = new EvidenceRecorder(this.redactor);
    // A replay reads the run's own credentials from the environment (issue 21).
    this.recorder.credential(config.controlToken, 'CONTROL_TOKEN');
    this.recorder.credential(config.partnerKey?.secretKey, 'PARTNER_SECRET_KEY');
    this.recorder.credential(config.partnerKey?.accessKeyId, 'PARTNER_ACCESS_KEY_ID');
    this.#offRecord = new EvidenceRecorder(this.redactor);
    this.#controlTarget =
      config.controlUrl && config.controlToken
        ? { controlUrl: config.controlUrl, controlToken: config.controlToken }
        : undefined;
    this.control = this.controlFor(undefined);
    this.tokens = new TokenManager<CheckRun | undefined>(
      // A token request is set-up for every check, never its subject (the token checks send
      // theirs exactly through ctx.send): the one 429 policy applies (rate-policy.ts).
      (spec, run) =>
        withRatePolicy(() => this.send(spec, run), {
          rateRule: false,
          partner: this.isPartnerRequest(spec),
          what: `${spec.method} ${spec.path}`,
          note: (text) => run?.notes.push(text),
        }),
      config.dialect.paths.token,
      runShared.tokens,
    );
  }

  /** A control client whose requests are evidence of `run` (none: off the record). */
  controlFor(run: CheckRun | undefined): HttpControlClient {
    const recorder = run ? this.recorder : this.#offRecord;
    return new HttpControlClient(
      (req) => this.http.send(req, recorder),
      this.#controlTarget,
      (c) => this.need(c),
    );
  }

  has(capability: Capability): boolean {
    return this.config.capabilities.includes(capability);
  }

  need(capability: Capability): void {
    if (this.has(capability)) return;
    throw new NotVerifiable(missingReason(capability), [capability]);
  }

  /** The file's own account, made through `control` (the first asking check's): generous limits so that checks of other rules never hit them. */
  account(control: ControlClient): Promise<TestAccount> {
    this.need('accounts');
    if (!this.#account) {
      this.#account = control.createAccount({
        limits: { max_order_value: 10_000_000, max_orders_per_day: 10_000 },
      });
      this.#account.catch(() => {
        this.#account = undefined;
      });
    }
    return this.#account;
  }

  partnerKey(): Key {
    const partner = this.config.partnerKey;
    if (!partner) {
      throw new NotVerifiable(
        'needs an API key: the run has no control API to make one and no PARTNER_ACCESS_KEY_ID / PARTNER_SECRET_KEY',
        ['keys'],
      );
    }
    if (!runShared.partnerKey) {
      runShared.partnerKey = {
        accessKeyId: partner.accessKeyId,
        secretKey: partner.secretKey,
        mode: partner.accessKeyId.includes('_live_') ? 'live' : 'test',
        scopes: [],
      };
      // The preflight's token request (lib/runner/preflight.ts) used the key's token window too.
      if (this.config.partnerPreflightAt !== undefined)
        runShared.pacer.sentBefore(partner.accessKeyId, 'token', this.config.partnerPreflightAt);
      // So did the dialect probe's (lib/probe/dialect-probe.ts).
      for (const sent of this.config.partnerProbeSent ?? [])
        runShared.pacer.sentBefore(partner.accessKeyId, sent.kind, sent.at);
    }
    return runShared.partnerKey;
  }

  /**
   * Sends an API request exactly as specified, resolving `auth`, on behalf of
   * `run` (the check whose evidence records the exchange; none: off the
   * record). Requests on the partner key are paced to its documented limits,
   * except in the rate-limit checks, whose subject the limit is. What a 429
   * means for a check is decided in one place: `Context.send` (rate-policy.ts).
   */
  async send(spec: RequestSpec, run: CheckRun | undefined): Promise<HttpResponse> {
    const recorder = run ? this.recorder : this.#offRecord;
    const authorization = await this.#authorization(spec, run);
    const wire = buildRequest(spec, this.config, authorization);
    const kind = requestClass(spec.method, spec.path, this.config.dialect.paths.token);
    // In partner mode every token request shares the key's token budget, also those with made-up
    // or no credentials: a target may count failed ones per client address (ours is one for the run).
    const paced = this.isPartnerRequest(spec) || (kind === 'token' && this.#partnerMode());
    if (!paced) return toHttpResponse(await this.http.send(wire, recorder));
    const keyId = this.partnerKey().accessKeyId;
    // A rate-limit check's requests are its subject: never held back, but counted, so that
    // the requests after it wait for what it used up instead of meeting a 429.
    const slot =
      run?.rule.area === 'RATE'
        ? runShared.pacer.record(keyId, kind)
        : await runShared.pacer.acquire(keyId, kind);
    this.partnerSent[kind] += 1;
    if (slot.waited > 0)
      run?.notes.push(
        `waited ${Math.round(slot.waited / 1000)} s to stay within the partner key's ${kind} limit`,
      );
    try {
      return toHttpResponse(await this.http.send(wire, recorder));
    } finally {
      slot.done();
      announceTally(runShared.pacer.tally(keyId));
    }
  }

  /** A token for the key; the partner key's tokens are remembered so their requests are paced. */
  async tokenFor(
    key: Key,
    scopes: readonly string[] | undefined,
    run: CheckRun | undefined,
  ): Promise<string> {
    const token = await this.tokens.token(key, scopes, run);
    if (key.accountId === undefined) runShared.partnerTokens.add(token);
    return token;
  }

  /** A partner key and no control API: the one key's limits are the whole run's. */
  #partnerMode(): boolean {
    return this.config.partnerKey !== undefined && !this.has('keys');
  }

  /** Whether the request is made with the partner key (its limits are shared by the whole run). */
  isPartnerRequest(spec: RequestSpec): boolean {
    const partnerId = this.config.partnerKey?.accessKeyId;
    if (!partnerId || this.has('keys')) return false;
    const auth = spec.auth;
    if (!auth) return false;
    switch (auth.kind) {
      case 'key':
        return auth.key.accountId === undefined;
      case 'basic':
        return auth.accessKeyId === partnerId;
      case 'bearer':
        return runShared.partnerTokens.has(auth.token);
      default:
        // Credentials written by hand (a form's client_id, a raw Authorization header): the target
        // still counts them against the key, so they are paced as the key's too.
        return mentionsKey(spec, partnerId);
    }
  }

  async #authorization(spec: RequestSpec, run: CheckRun | undefined): Promise<string | undefined> {
    const auth = spec.auth ?? { kind: 'none' };
    switch (auth.kind) {
      case 'none':
        return undefined;
      case 'bearer':
        return `Bearer ${auth.token}`;
      case 'basic':
        return basicAuthorization(auth.accessKeyId, auth.secretKey);
      case 'key': {
        this.guardLiveOrder(auth.key, spec);
        return `Bearer ${await this.tokenFor(auth.key, auth.scopes, run)}`;
      }
    }
  }

  /** Never place an order with a live key unless the user allowed it (`--allow-live-orders`). */
  guardLiveOrder(key: Key, spec: RequestSpec): void {
    if (key.mode !== 'live' || spec.method.toUpperCase() !== 'POST') return;
    // Compare without queries: a profile's orders path may carry one of its own.
    if (spec.path.split('?')[0] !== this.config.dialect.paths.orders.split('?')[0]) return;
    if (!this.has('live_orders')) {
      throw new NotVerifiable(
        'placing an order with a live key is real: run with --allow-live-orders to check this',
        ['live_orders'],
      );
    }
  }

  /**
   * Revokes a key no further check uses (one in an account a finished check
   * made) without waiting for it, off the record; the end of the file waits.
   */
  revokeLater(key: Key): void {
    this.#revoking.push(this.control.revokeKey(key).catch(() => undefined));
  }

  onCleanup(fn: () => Promise<void>): void {
    this.#cleanups.push(fn);
  }

  /** End of file: cancel partner orders, run registered clean-ups, close sockets. Never throws. */
  async close(): Promise<void> {
    for (const { key, id } of this.partnerOrders) {
      const path = pathOf(this.config.dialect, 'orderCancel', { id });
      await this.send({ method: 'POST', path, auth: { kind: 'key', key } }, undefined).catch(
        () => undefined,
      );
    }
    for (const fn of this.#cleanups.reverse()) await fn().catch(() => undefined);
    await Promise.all(this.#revoking);
    await this.#agent.close().catch(() => undefined);
  }
}

/** Whether a request names the key anywhere a target could read it from: form, headers (Basic decoded), body, path. */
function mentionsKey(spec: RequestSpec, accessKeyId: string): boolean {
  const texts: string[] = [spec.path, ...Object.values(spec.form ?? {})];
  for (const value of Object.values(spec.headers ?? {})) {
    for (const v of value === null ? [] : Array.isArray(value) ? value : [value]) {
      texts.push(v);
      const basic = /^\s*basic\s+(\S+)/i.exec(v);
      if (basic?.[1]) texts.push(Buffer.from(basic[1], 'base64').toString('latin1'));
    }
  }
  if (typeof spec.body === 'string') texts.push(spec.body);
  else if (spec.body) texts.push(Buffer.from(spec.body).toString('latin1'));
  if (spec.json !== undefined) texts.push(JSON.stringify(spec.json) ?? '');
  return texts.some((text) => text.includes(accessKeyId));
}

function missingReason(capability: Capability): string {
  if (capability === 'live_orders') {
    return 'needs orders placed with a live key: run with --allow-live-orders (never against production)';
  }
  return `needs the control API feature "${capability}", which this run does not have`;
}

const fixtures = new Map<string, FileFixture>();

/**
 * The fixture of the test file being collected or run, made on first use.
 * Keyed by the file's path: in partner mode files share one worker without
 * isolation, and each must still get its own fixture and clean-up.
 */
export function fileFixture(): FileFixture {
  const file = expect.getState().testPath ?? '(unknown file)';
  let fixture = fixtures.get(file);
  if (!fixture) {
    const config = currentRunConfig();
    if (!config) {
      throw new HarnessError(
        'HARNESS_CONFIG',
        'no run configuration: suites run through `npm run conformance`, not plain vitest',
      );
    }
    const made = new FileFixture(config);
    fixture = made;
    fixtures.set(file, made);
    afterAll(async () => {
      fixtures.delete(file);
      await made.close();
      if (made.partnerSent.read + made.partnerSent.write + made.partnerSent.token > 0)
        announceFileTally(file, made.partnerSent);
    }, 60_000);
  }
  return fixture;
}
