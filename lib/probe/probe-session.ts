import { Agent, type Dispatcher } from 'undici';
import { basicAuthorization, buildRequest } from '../client/build-request.js';
import { HttpClient } from '../client/http-client.js';
import { type RequestClass, requestClass } from '../client/key-pacer.js';
import { toHttpResponse } from '../client/response.js';
import type { HttpResponse, Key, RequestSpec } from '../client/types.js';
import { HttpControlClient } from '../control/control-client.js';
import { EvidenceRecorder } from '../evidence/recorder.js';
import { Redactor } from '../evidence/redactor.js';
import type { RunConfig } from '../target/run-config.js';

/** An answer and the request it answers, in words: `POST /api/on-demand/v1/orders`. */
export type Answer = HttpResponse & { request: string };

/** What the probe needs of the run: its target, credentials and dialect. */
export type ProbeConfig = Pick<
  RunConfig,
  | 'origin'
  | 'apiBaseUrl'
  | 'controlUrl'
  | 'controlToken'
  | 'partnerKey'
  | 'capabilities'
  | 'requestTimeoutMs'
  | 'dialect'
>;

/**
 * The probe's HTTP: every exchange recorded as evidence (redacted where it is
 * recorded, like a check's), the control client of the run, bearer tokens.
 * Takes a dispatcher so that tests answer with a MockAgent.
 */
export class ProbeSession {
  readonly config: ProbeConfig;
  readonly recorder: EvidenceRecorder;
  /** Knows every secret the probe's exchanges carried: the probe's own words pass through it too. */
  readonly redactor: Redactor;
  readonly control: HttpControlClient;
  readonly #http: HttpClient;
  readonly #agent: Agent | undefined;
  #sent = 0;
  /** Requests sent with the partner key, for the checks' pacer (RunConfig.partnerProbeSent). */
  readonly partnerSent: { kind: RequestClass; at: number }[] = [];

  constructor(config: ProbeConfig, dispatcher?: Dispatcher) {
    this.config = config;
    const redactor = new Redactor(config.dialect.keyPrefix);
    this.redactor = redactor;
    redactor.add(config.controlToken, 'control-token');
    redactor.add(config.partnerKey?.secretKey, 'secret');
    this.recorder = new EvidenceRecorder(redactor);
    this.#agent = dispatcher ? undefined : new Agent({ keepAliveTimeout: 1_000 });
    this.#http = new HttpClient({
      dispatcher: dispatcher ?? (this.#agent as Agent),
      timeoutMs: config.requestTimeoutMs,
    });
    this.control = new HttpControlClient(
      (req) => {
        this.#sent += 1;
        return this.#http.send(req, this.recorder);
      },
      config.controlUrl && config.controlToken
        ? { controlUrl: config.controlUrl, controlToken: config.controlToken }
        : undefined,
      // The probe asks for a feature only after seeing it among the capabilities.
      () => undefined,
    );
  }

  /** Requests sent so far (API and control). */
  get sent(): number {
    return this.#sent;
  }

  /** One API request, exactly as given, with a bearer token or Basic credentials. */
  async send(spec: RequestSpec, token?: string): Promise<Answer> {
    const auth = spec.auth;
    const authorization =
      token !== undefined
        ? `Bearer ${token}`
        : auth?.kind === 'basic'
          ? basicAuthorization(auth.accessKeyId, auth.secretKey)
          : undefined;
    this.#sent += 1;
    const wire = buildRequest(spec, this.config, authorization);
    const res = toHttpResponse(await this.#http.send(wire, this.recorder));
    if (this.#isPartner(spec, token)) {
      const kind = requestClass(wire.method, spec.path, this.config.dialect.paths.token);
      this.partnerSent.push({ kind, at: Date.now() });
    }
    return Object.assign(res, { request: `${wire.method} ${res.requestPath}` });
  }

  /** A token for the key (client credentials, API document section 4), or the refusing answer. */
  async token(key: Key): Promise<{ token: string } | { refused: Answer }> {
    const { method } = this.config.dialect.operations.token;
    const res = await this.send({
      method,
      path: this.config.dialect.paths.token,
      form: { grant_type: 'client_credentials' },
      auth: { kind: 'basic', accessKeyId: key.accessKeyId, secretKey: key.secretKey },
    });
    const token = (res.json as { access_token?: unknown } | undefined)?.access_token;
    if (res.status !== 200 || typeof token !== 'string') return { refused: res };
    if (key.accountId === undefined) this.partnerToken = token;
    return { token };
  }

  /** The partner key's token, once the probe has one: its requests count against the key. */
  partnerToken: string | undefined;

  #isPartner(spec: RequestSpec, token: string | undefined): boolean {
    const partner = this.config.partnerKey;
    if (!partner) return false;
    if (token !== undefined) return token === this.partnerToken;
    return spec.auth?.kind === 'basic' && spec.auth.accessKeyId === partner.accessKeyId;
  }

  async close(): Promise<void> {
    await this.#agent?.close().catch(() => undefined);
  }
}
