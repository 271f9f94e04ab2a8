import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import type { Capability } from '../../rules/index.js';
import { HttpControlClient } from '../control/control-client.js';
import type { RawExchange } from '../evidence/exchange.js';
import { EvidenceRecorder } from '../evidence/recorder.js';
import { Redactor } from '../evidence/redactor.js';
import { ReplayBook } from '../evidence/trace.js';
import { DOCUMENT_PATHS } from '../target/dialect.js';
import type { RunConfig } from '../target/run-config.js';
import { NotVerifiable } from '../violations/harness-error.js';
import { basicAuthorization, buildRequest } from './build-request.js';
import {
  type Connector,
  type CredentialOrigins,
  guardCredentials,
  newDispatcher,
  newRacerConnection,
  newWire,
  type Wire,
} from './dispatcher.js';
import { HttpClient, type WireRequest, type WireResponse } from './http-client.js';
import { HeldRace } from './last-byte.js';
import {
  KeyPacer,
  type RequestClass,
  requestClass,
  type Tally,
  throttledRacer,
  withRatePolicy,
} from './rate-limits.js';
import { toHttpResponse } from './response.js';
import { type CachedToken, TokenManager } from './token-manager.js';
import type { HttpResponse, Key, RequestSpec } from './types.js';
import { announceWait } from './wait-channel.js';

/** What a session needs of the run: its target, credentials, dialect and what was sent before it. */
export type SessionConfig = Pick<
  RunConfig,
  | 'origin'
  | 'apiBaseUrl'
  | 'controlUrl'
  | 'controlToken'
  | 'partnerKey'
  | 'capabilities'
  | 'requestTimeoutMs'
  | 'dialect'
> &
  Partial<Pick<RunConfig, 'partnerPreflightAt' | 'partnerProbeSent'>>;

/**
 * Where a session's exchanges go: recorded (redacted there) and answered with
 * their evidence id; `pin` keeps one whatever the trimming. The evidence
 * recorder is one; whatever scopes it keeps is its own business.
 */
export interface EvidenceSink {
  record(raw: RawExchange): number;
  pin(id: number): void;
}

/**
 * On whose behalf a request is sent (a check, or the probe): where its
 * exchange is recorded (else the session's recorder), where a note about it
 * goes, and whether a 429 is its subject (`provokes429` of the rule
 * catalogue: answered as it is) or meets the one 429 policy.
 */
export interface Caller {
  recorder?: EvidenceSink;
  note(text: string): void;
  provokes429: boolean;
}

/**
 * What every session of one worker shares. With the control API files are
 * isolated and each has its own; in partner mode files run one after another
 * in one worker, and this is the whole run's: one pacer and one token cache
 * for the one partner key, whose rate limits every check shares.
 */
export interface SessionShared {
  pacer: KeyPacer;
  tokens: Map<string, Promise<CachedToken>>;
  /** Tokens of the partner key: requests carrying them are paced. */
  partnerTokens: Set<string>;
  /** The partner key, one object for the run: scopes learned from its first token serve every file. */
  partnerKey: Key | undefined;
}

export function newSessionShared(): SessionShared {
  return {
    pacer: new KeyPacer(undefined, undefined, (ms, keyId, kind) =>
      announceWait({ what: `the ${kind} window of key ${keyId}`, ms }),
    ),
    tokens: new Map(),
    partnerTokens: new Set(),
    partnerKey: undefined,
  };
}

export interface SessionOptions {
  /** undici dispatcher: tests answer with a MockAgent; else the session makes (and closes) its own (dispatcher.ts). */
  dispatcher?: Dispatcher;
  /** Shared with the other sessions of the worker (partner mode); else the session's own. */
  shared?: SessionShared;
  /** Where exchanges of no caller go; else a recorder nobody reports (clean-up). */
  recorder?: (redactor: Redactor) => EvidenceSink;
  /** Sockets at once: a rate-limit check's hundreds of requests queue instead of opening hundreds. */
  connections?: number;
  /**
   * Connections the session borrows and leaves open (`wireFor`): a worker's check files share
   * theirs. Else the session opens its own (`connections` at once) and closes them with itself.
   */
  wire?: Wire;
  /** What a control call asks before it is sent; else `need` (a missing feature: `not_verifiable`). */
  need?: (capability: Capability) => void;
  /** Told after each request on the partner key: what the key has sent so far in this worker. */
  onPartnerSent?: (tally: Tally) => void;
}

/**
/**
 * What one racer sends through (`Session.racing`): one request, the API's or
 * the control protocol's, held with the others' at its last byte.
 */
interface RacerClient {
  send(spec: RequestSpec): Promise<HttpResponse>;
  readonly control: HttpControlClient;
}

/** A race of `Session.racing`: the client of the racer at each place, and the end of a racer. */
export interface Racing {
  /** The client of the racer at `place` (0, 1, …): last bytes go out in the order of the places. */
  racer(place: number): RacerClient;
  /** A racer settled: one that sent nothing no longer holds the others back. */
  racerEnded(): void;
}

/**
 * The one wire session of the suite: a check file's (lib/check/file-fixture.ts)
 * and the dialect probe's (lib/probe/probe-session.ts). It owns the HTTP
 * client, the control client, the tokens, the partner key's pacing and the
 * one 429 policy, and records every exchange as evidence of whoever it is
 * sent for. Set-up (control calls, token requests) lost to a socket the
 * server closed is sent once more on a new connection (http-client.ts).
 */
export class Session {
  readonly config: SessionConfig;
  /** Knows every secret the session's exchanges carried: words about them pass through it too. */
  readonly redactor: Redactor;
  /** Exchanges no caller claims (clean-up, the probe's own). */
  readonly recorder: EvidenceSink;
  readonly http: HttpClient;
  readonly tokens: TokenManager<Caller | undefined>;
  /** The control client off any caller's record (clean-up). */
  readonly control: HttpControlClient;
  /** Requests on the partner key: their class and when each was answered (ms since the epoch). */
  readonly partnerSent: { kind: RequestClass; at: number }[] = [];
  /**
   * Answers whose body the suite did not read (over the size cap, nested too
   * deep), by evidence id: a judgement of such a body says why it found nothing.
   */
  readonly unreadable = new Map<number, string>();
  readonly #shared: SessionShared;
  /** The session's own dispatcher, closed with it; none when a test gave one. */
  readonly #own: Dispatcher | undefined;
  /** How the session opens its connections (its dispatcher's, and each racer's own); none with a given dispatcher. */
  readonly #connect: Connector | undefined;
  /** Where each credential may go: every dispatcher of the session, racers' included, keeps to it. */
  readonly #origins: CredentialOrigins;
  /** Races sent so far: each one's number marks its exchanges (`together`). */
  #races = 0;
  readonly #need: (capability: Capability) => void;
  readonly #onPartnerSent: ((tally: Tally) => void) | undefined;
  #sent = 0;

  constructor(config: SessionConfig, options: SessionOptions = {}) {
    this.config = config;
    this.redactor = new Redactor(config.dialect.keyPrefix);
    this.redactor.add(config.controlToken, 'control-token');
    this.redactor.add(config.partnerKey?.secretKey, 'secret');
    // Off the record, exchanges still teach the redactor their secrets (a token fetched in clean-up).
    this.recorder =
      options.recorder?.(this.redactor) ?? new EvidenceRecorder(this.redactor, new ReplayBook());
    this.#shared = options.shared ?? newSessionShared();
    const origins = credentialOrigins(config);
    this.#origins = origins;
    const own =
      options.dispatcher || options.wire
        ? undefined
        : wireFor(config, { connections: options.connections });
    const wire = options.dispatcher ? undefined : (options.wire ?? own);
    const connect = wire?.connect;
    this.#connect = connect;
    this.#own = own?.dispatcher;
    this.http = new HttpClient({
      dispatcher: wire?.dispatcher ?? guardCredentials(options.dispatcher as Dispatcher, origins),
      timeoutMs: config.requestTimeoutMs,
      // A set-up request lost to a closing socket is sent again on a connection of its own.
      ...(connect
        ? { freshConnection: () => newDispatcher({ origins, connect, connections: 1 }) }
        : {}),
    });
    this.#need = options.need ?? ((c) => this.need(c));
    this.#onPartnerSent = options.onPartnerSent;
    // A token request is set-up for every check, never its subject (the token checks send
    // theirs exactly through `send`): the one 429 policy applies.
    this.tokens = new TokenManager<Caller | undefined>(
      (spec, caller) =>
        this.send(spec, caller && { ...caller, provokes429: false }, { setUp: true }),
      DOCUMENT_PATHS.token,
      this.#shared.tokens,
    );
    this.control = this.controlFor(undefined);
  }

  /** Requests sent so far (API and control). */
  get sent(): number {
    return this.#sent;
  }

  /** A control client whose requests are evidence of `caller` (none: the session's recorder). */
  controlFor(caller: Caller | undefined): HttpControlClient {
    const recorder = caller?.recorder ?? this.recorder;
    return this.#controlClient((req) => this.#wire(req, recorder, true));
  }

  #controlClient(http: (req: WireRequest) => Promise<WireResponse>): HttpControlClient {
    const target =
      this.config.controlUrl && this.config.controlToken
        ? { controlUrl: this.config.controlUrl, controlToken: this.config.controlToken }
        : undefined;
    return new HttpControlClient(http, target, this.#need);
  }

  /**
   * A race of `size` racers on behalf of `caller`: each racer sends one
   * request through the client of its place (`racer(place).send` for the
   * API, exactly as `send` would but never retried; `.control` for the
   * control protocol), and every request is held at its last byte until all
   * are ready, then released together in the order of the places, each on a
   * connection of its own (last-byte.ts). A racer that
   * settles without sending calls `racerEnded`, so the others go without it.
   * Requests on the partner key take their slots of its limits before the
   * race; a 429 a racer meets is no subject of a caller that does not
   * provoke 429s: `not_verifiable` ("throttled"), never retried alone, which
   * would take it out of the race.
   */
  racing(size: number, caller?: Caller): Racing {
    this.#races += 1;
    const connect = this.#connect;
    const open = connect
      ? (origin: URL, onSocket: (socket: Socket) => void) =>
          newRacerConnection(origin, connect, this.#origins, onSocket)
      : undefined;
    const race = new HeldRace(size, this.http, open, this.#races);
    const recorder = caller?.recorder ?? this.recorder;
    return {
      racer: (place) => {
        const wire = (req: WireRequest): Promise<WireResponse> => {
          this.#sent += 1;
          return race.send(req, recorder, place);
        };
        return {
          send: async (spec) => {
            const res = await this.#sendOnce(spec, caller, false, wire);
            if (res.status === 429 && !caller?.provokes429) {
              throw throttledRacer(`${spec.method} ${spec.path}`, res);
            }
            return res;
          },
          control: this.#controlClient(wire),
        };
      },
      racerEnded: () => race.racerEnded(),
    };
  }

  has(capability: Capability): boolean {
    return this.config.capabilities.includes(capability);
  }

  need(capability: Capability): void {
    if (this.has(capability)) return;
    throw new NotVerifiable(missingReason(capability), [capability]);
  }

  /** The partner key, one object for the worker; its windows hold what the preflight and the probe sent. */
  partnerKey(): Key {
    const partner = this.config.partnerKey;
    if (!partner) {
      throw new NotVerifiable(
        'needs an API key: the run has no control API to make one and no PARTNER_ACCESS_KEY_ID / PARTNER_SECRET_KEY',
        ['keys'],
      );
    }
    const shared = this.#shared;
    if (!shared.partnerKey) {
      shared.partnerKey = {
        accessKeyId: partner.accessKeyId,
        secretKey: partner.secretKey,
        mode: partner.accessKeyId.includes('_live_') ? 'live' : 'test',
        scopes: [],
      };
      // The preflight's token request (lib/prepare/preflight.ts) used the key's token window too.
      if (this.config.partnerPreflightAt !== undefined)
        shared.pacer.sentBefore(partner.accessKeyId, 'token', this.config.partnerPreflightAt);
      // So did the dialect probe's (lib/probe/dialect-probe.ts).
      for (const sent of this.config.partnerProbeSent ?? [])
        shared.pacer.sentBefore(partner.accessKeyId, sent.kind, sent.at);
    }
    return shared.partnerKey;
  }

  /** A token for the key; the partner key's tokens are remembered so that their requests are paced. */
  async tokenFor(
    key: Key,
    scopes: readonly string[] | undefined,
    caller: Caller | undefined,
  ): Promise<string> {
    const token = await this.tokens.token(key, scopes, caller);
    if (key.accountId === undefined) this.#shared.partnerTokens.add(token);
    return token;
  }

  /** Requests carrying this token are the partner key's (the probe gets its tokens itself). */
  partnerToken(token: string): void {
    this.#shared.partnerTokens.add(token);
  }

  /**
   * Sends an API request exactly as specified, resolving `auth`, on behalf of
   * `caller` (its evidence records the exchange). Requests on the partner key
   * wait for a slot of its documented limits (rate-limits.ts). A 429 is
   * answered as it is to a caller whose subject it is (`provokes429`); to any
   * other, the one 429 policy applies: wait Retry-After, send again, and past
   * its bounds `not_verifiable` ("throttled").
   */
  send(
    spec: RequestSpec,
    caller?: Caller,
    options: { setUp?: boolean } = {},
  ): Promise<HttpResponse> {
    const once = () => this.#sendOnce(spec, caller, options.setUp ?? false);
    if (caller?.provokes429) return once();
    return withRatePolicy(once, {
      provokes429: false,
      partner: this.isPartnerRequest(spec),
      what: `${spec.method} ${spec.path}`,
      note: (text) => caller?.note(text),
    });
  }

  async #sendOnce(
    spec: RequestSpec,
    caller: Caller | undefined,
    setUp: boolean,
    racing?: (req: WireRequest) => Promise<WireResponse>,
  ): Promise<HttpResponse> {
    const recorder = caller?.recorder ?? this.recorder;
    const send = racing ?? ((req: WireRequest) => this.#wire(req, recorder, setUp));
    const authorization = await this.#authorization(spec, caller);
    const wire = buildRequest(spec, this.config, authorization);
    const kind = requestClass(spec.method, spec.path, DOCUMENT_PATHS.token);
    // In partner mode every token request shares the key's token budget, also those with made-up
    // or no credentials: a target may count failed ones per client address (ours is one for the run).
    const paced = this.isPartnerRequest(spec) || (kind === 'token' && this.#partnerMode());
    if (!paced) return this.#answer(await send(wire), caller);
    const keyId = this.partnerKey().accessKeyId;
    const slot = await this.#shared.pacer.acquire(keyId, kind);
    if (slot.waited > 0)
      caller?.note(
        `waited ${Math.round(slot.waited / 1000)} s to stay within the partner key's ${kind} limit`,
      );
    try {
      return this.#answer(await send(wire), caller);
    } finally {
      slot.done();
      this.partnerSent.push({ kind, at: Date.now() });
      this.#onPartnerSent?.(this.#shared.pacer.tally(keyId));
    }
  }

  /** The answer for the check; a body the suite did not read is told in its notes, whatever it judges. */
  #answer(wire: WireResponse, caller: Caller | undefined): HttpResponse {
    const res = toHttpResponse(wire);
    if (res.unreadable) {
      this.unreadable.set(res.exchange, res.unreadable);
      caller?.note(`${wire.requestPath} (evidence #${wire.exchange}): ${res.unreadable}`);
    }
    return res;
  }

  #wire(req: WireRequest, recorder: EvidenceSink, setUp: boolean): Promise<WireResponse> {
    this.#sent += 1;
    return this.http.send(req, recorder, { setUp });
  }

  /** What this session sent with the partner key, by class. */
  partnerTally(): Tally {
    const tally: Tally = { read: 0, write: 0, token: 0 };
    for (const { kind } of this.partnerSent) tally[kind] += 1;
    return tally;
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
        return this.#shared.partnerTokens.has(auth.token);
      default:
        // Credentials written by hand (a form's client_id, a raw Authorization header): the target
        // still counts them against the key, so they are paced as the key's too.
        return mentionsKey(spec, partnerId);
    }
  }

  async #authorization(spec: RequestSpec, caller: Caller | undefined): Promise<string | undefined> {
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
        return `Bearer ${await this.tokenFor(auth.key, auth.scopes, caller)}`;
      }
    }
  }

  /** Never place an order with a live key unless the user allowed it (`--allow-live-orders`). */
  guardLiveOrder(key: Key, spec: RequestSpec): void {
    if (key.mode !== 'live' || spec.method.toUpperCase() !== 'POST') return;
    // The document's orders path (section 4), whatever query the request carries.
    if (spec.path.split('?')[0] !== DOCUMENT_PATHS.orders) return;
    if (!this.has('live_orders')) {
      throw new NotVerifiable(
        'placing an order with a live key is real: run with --allow-live-orders to check this',
        ['live_orders'],
      );
    }
  }

  /** Closes the session's own sockets. Never throws. */
  async close(): Promise<void> {
    await this.#own?.close().catch(() => undefined);
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

/**
 * Connections to `config`'s target and control API, each credential kept to its origin, opened
 * within the request timeout: what a session opens for itself, or borrows (`SessionOptions.wire`).
 */
export function wireFor(
  config: SessionConfig,
  options: { connections?: number | undefined },
): Wire {
  return newWire(credentialOrigins(config), {
    connectTimeoutMs: config.requestTimeoutMs,
    connections: options.connections,
  });
}

/** Where the session's credentials may go: Bearer and Basic to the target, the control token to the control API. */
function credentialOrigins(config: SessionConfig): CredentialOrigins {
  return { api: config.origin, control: config.controlUrl };
}

function missingReason(capability: Capability): string {
  if (capability === 'live_orders') {
    return 'needs orders placed with a live key: run with --allow-live-orders (never against production)';
  }
  return `needs the control API feature "${capability}", which this run does not have`;
}
