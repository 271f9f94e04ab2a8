import type { Capability } from '../../rules/index.js';
import { OVER_CAP_WORDS, type WireRequest, type WireResponse } from '../client/http-client.js';
import type { Key } from '../client/types.js';
import { headOf } from '../evidence/detached.js';
import { readJsonText, tooDeepWords } from '../evidence/json-text.js';
import { HarnessError } from '../violations/harness-error.js';
import type {
  AccountSettings,
  Charge,
  ControlClient,
  FaultSpec,
  KeyOptions,
  TestAccount,
} from './types.js';

export interface ControlTarget {
  controlUrl: string;
  controlToken: string;
}

/**
 * The control protocol of the target contract, section 3. Every method first
 * asks `need` for its feature, so a run without it ends the check as
 * `not_verifiable` instead of failing. Any refusal is a harness error: the
 * target's control API is test support, not what is being certified.
 */
export class HttpControlClient implements ControlClient {
  /** Sends one control request, recording it where the caller's evidence goes. */
  readonly #http: (req: WireRequest) => Promise<WireResponse>;
  readonly #target: ControlTarget | undefined;
  readonly #need: (capability: Capability) => void;

  constructor(
    http: (req: WireRequest) => Promise<WireResponse>,
    target: ControlTarget | undefined,
    need: (capability: Capability) => void,
  ) {
    this.#http = http;
    this.#target = target;
    this.#need = need;
  }

  async capabilities(): Promise<{ protocol: string; features: string[] }> {
    return (await this.#call('GET', '/capabilities')) as { protocol: string; features: string[] };
  }

  async whoami(): Promise<{ ip: string }> {
    this.#need('whoami');
    return (await this.#call('GET', '/whoami')) as { ip: string };
  }

  async createAccount(settings: AccountSettings = {}): Promise<TestAccount> {
    this.#need('accounts');
    return toAccount(await this.#call('POST', '/accounts', settings, 201));
  }

  async updateAccount(id: string, settings: AccountSettings): Promise<TestAccount> {
    this.#need('accounts');
    return toAccount(await this.#call('PATCH', `/accounts/${enc(id)}`, settings));
  }

  async getAccount(id: string): Promise<TestAccount> {
    this.#need('accounts');
    return toAccount(await this.#call('GET', `/accounts/${enc(id)}`));
  }

  async createKey(accountId: string, options: Omit<KeyOptions, 'account'> = {}): Promise<Key> {
    this.#need('keys');
    const body = (await this.#call('POST', `/accounts/${enc(accountId)}/keys`, options, 201)) as {
      access_key_id: string;
      secret_key: string;
      mode: 'test' | 'live';
      scopes: string[];
    };
    return {
      accessKeyId: body.access_key_id,
      secretKey: body.secret_key,
      mode: body.mode,
      scopes: body.scopes,
      accountId,
    };
  }

  async rollKey(key: Key): Promise<Key> {
    this.#need('keys');
    const body = (await this.#call('POST', `/keys/${enc(key.accessKeyId)}/roll`)) as {
      secret_key: string;
    };
    return { ...key, secretKey: body.secret_key };
  }

  async revokeKey(key: Pick<Key, 'accessKeyId'>): Promise<void> {
    this.#need('keys');
    await this.#call('POST', `/keys/${enc(key.accessKeyId)}/revoke`, undefined, 204);
  }

  async endProbation(key: Key): Promise<void> {
    this.#need('keys');
    await this.#call('POST', `/keys/${enc(key.accessKeyId)}/end-probation`, undefined, 204);
  }

  async advanceClock(accountId: string, seconds: number): Promise<string> {
    this.#need('clock');
    const body = (await this.#call('POST', `/accounts/${enc(accountId)}/clock`, {
      advance_seconds: seconds,
    })) as { now: string };
    return body.now;
  }

  async startProduction(accountId: string, orderId: string): Promise<void> {
    this.#need('production');
    await this.#call(
      'POST',
      `/accounts/${enc(accountId)}/orders/${enc(orderId)}/start-production`,
      undefined,
      204,
    );
  }

  async ship(accountId: string, orderId: string): Promise<void> {
    this.#need('shipping');
    await this.#call(
      'POST',
      `/accounts/${enc(accountId)}/orders/${enc(orderId)}/ship`,
      undefined,
      204,
    );
  }

  async injectFault(accountId: string, fault: FaultSpec): Promise<void> {
    this.#need('faults');
    await this.#call(
      'POST',
      `/accounts/${enc(accountId)}/faults`,
      { status: 500, times: 1, ...fault },
      201,
    );
  }

  async charges(accountId: string): Promise<Charge[]> {
    this.#need('charges');
    const body = await this.#call('GET', `/accounts/${enc(accountId)}/charges`, undefined, 200);
    const data = (body as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(data) || !data.every(isCharge)) {
      throw new HarnessError(
        'HARNESS_CONTROL',
        'control GET /accounts/{id}/charges did not answer {"data": [charges]} (each with id, order_id, external_id and an integer amount)',
      );
    }
    return data;
  }

  async #call(method: string, path: string, body?: unknown, expected?: number): Promise<unknown> {
    if (!this.#target) {
      throw new HarnessError('HARNESS_CONTROL', 'this run has no control API');
    }
    const res = await this.#http({
      method,
      url: this.#target.controlUrl.replace(/\/$/, '') + path,
      headers: {
        'x-control-token': this.#target.controlToken,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      channel: 'control',
    });
    const ok =
      expected === undefined ? res.status >= 200 && res.status < 300 : res.status === expected;
    if (!ok) {
      throw new HarnessError(
        'HARNESS_CONTROL',
        `control ${method} ${path} answered ${res.status}${expected ? ` (expected ${expected})` : ''}: ${headOf(res.text, 200)} (evidence #${res.exchange})`,
        { status: res.status },
      );
    }
    if (res.text.length === 0) return undefined;
    const read = res.over ? undefined : (res.read ?? readJsonText(res.text));
    if (read?.kind === 'json') return read.value;
    const what = res.over
      ? OVER_CAP_WORDS
      : read?.kind === 'too_deep'
        ? tooDeepWords(read.depth)
        : 'non-JSON';
    throw new HarnessError(
      'HARNESS_CONTROL',
      `control ${method} ${path} answered ${what} (evidence #${res.exchange})`,
    );
  }
}

function isCharge(value: unknown): value is Charge {
  if (value === null || typeof value !== 'object') return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.id === 'string' &&
    (c.order_id === null || typeof c.order_id === 'string') &&
    typeof c.external_id === 'string' &&
    Number.isSafeInteger(c.amount)
  );
}

function toAccount(body: unknown): TestAccount {
  const settings = body as TestAccount['settings'];
  if (typeof settings?.id !== 'string') {
    throw new HarnessError('HARNESS_CONTROL', 'control API answered an account without an id');
  }
  return { id: settings.id, settings };
}

function enc(value: string): string {
  return encodeURIComponent(value);
}
