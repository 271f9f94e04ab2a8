import type { Dispatcher } from 'undici';
import type { RequestClass } from '../client/rate-limits.js';
import { type Caller, Session, type SessionConfig } from '../client/session.js';
import type { HttpResponse, Key, RequestSpec } from '../client/types.js';
import type { HttpControlClient } from '../control/control-client.js';
import { EvidenceRecorder } from '../evidence/recorder.js';
import type { Redactor } from '../evidence/redactor.js';
import { ReplayBook } from '../evidence/trace.js';
import { DOCUMENT_PATHS } from '../target/dialect.js';

/** An answer and the request it answers, in words: `POST /api/on-demand/v1/orders`. */
export type Answer = HttpResponse & { request: string };

/** What the probe needs of the run: its target, credentials and dialect. */
export type ProbeConfig = SessionConfig;

/**
 * The probe's side of the one wire session (lib/client/session.ts): every
 * exchange recorded as evidence (redacted where it is recorded, like a
 * check's), the control client of the run, bearer tokens, the partner key's
 * pacing. The probe judges what it gets: a 429 is answered as it is, for its
 * judge to name. Takes a dispatcher so that tests answer with a MockAgent.
 */
export class ProbeSession {
  readonly config: ProbeConfig;
  readonly recorder: EvidenceRecorder;
  readonly #session: Session;
  readonly #caller: Caller;

  constructor(config: ProbeConfig, dispatcher?: Dispatcher) {
    this.config = config;
    const made: EvidenceRecorder[] = [];
    const book = new ReplayBook();
    this.#session = new Session(config, {
      ...(dispatcher ? { dispatcher } : {}),
      // The probe's evidence is the session's own: every exchange, none claimed by a check.
      recorder: (redactor) =>
        made[made.push(new EvidenceRecorder(redactor, book)) - 1] as EvidenceRecorder,
      // The probe asks for a feature only after seeing it among the capabilities.
      need: () => undefined,
    });
    this.recorder = made[0] as EvidenceRecorder;
    this.#caller = { note: () => undefined, provokes429: true };
  }

  /** Knows every secret the probe's exchanges carried: the probe's own words pass through it too. */
  get redactor(): Redactor {
    return this.#session.redactor;
  }

  get control(): HttpControlClient {
    return this.#session.control;
  }

  /** Requests sent so far (API and control). */
  get sent(): number {
    return this.#session.sent;
  }

  /** Requests sent with the partner key, for the checks' pacer (RunConfig.partnerProbeSent). */
  get partnerSent(): { kind: RequestClass; at: number }[] {
    return this.#session.partnerSent;
  }

  /** One API request, exactly as given, with a bearer token or Basic credentials. */
  async send(spec: RequestSpec, token?: string): Promise<Answer> {
    // A token given wins; a key is never resolved here (the probe fetches its tokens itself).
    const given = spec.auth?.kind === 'key' ? undefined : spec.auth;
    const auth = token !== undefined ? { kind: 'bearer' as const, token } : given;
    const res = await this.#session.send({ ...spec, auth: auth ?? { kind: 'none' } }, this.#caller);
    const method = spec.method.toUpperCase();
    return Object.assign(res, { request: `${method} ${res.requestPath}` });
  }

  /** A token for the key (client credentials, API document section 4), or the refusing answer. */
  async token(key: Key): Promise<{ token: string } | { refused: Answer }> {
    const { method } = this.config.dialect.operations.token;
    const res = await this.send({
      method,
      path: DOCUMENT_PATHS.token,
      form: { grant_type: 'client_credentials' },
      auth: { kind: 'basic', accessKeyId: key.accessKeyId, secretKey: key.secretKey },
    });
    const token = (res.json as { access_token?: unknown } | undefined)?.access_token;
    if (res.status !== 200 || typeof token !== 'string') return { refused: res };
    // The partner key's token: the probe's requests with it count against the key.
    if (key.accountId === undefined) this.#session.partnerToken(token);
    return { token };
  }

  async close(): Promise<void> {
    await this.#session.close();
  }
}
