// A client of the Partner Ordering API, written to the API document alone, with
// plain Node.js (its global fetch): no dependency. It is the example the sandbox
// grades as honouring every client rule (docs/client-rules.md); copy what you need.
//
// What it does about each answer, and the sentence of the API document behind it:
//   - one access token, reused until shortly before it expires (§5: "At most 20
//     token requests a minute per key"), asked for with Basic credentials and a
//     form body (§4); the Secret Key goes nowhere else (§5.4);
//   - Authorization: Bearer on every other call (§5.1), JSON bodies (§4);
//   - 401 token_expired or invalid_token: a new token, then the request again (§5.2, §7);
//   - 429: wait Retry-After, then the request again (§7 "Wait, then retry");
//   - 503 read_only / api_unavailable: again later (§7), after Retry-After when given;
//   - 500 internal_error: again with the same Idempotency-Key (§4 rule 6);
//   - every decision reads `code`, never `title` or `detail` (§7: they may be reworded).
// Orders (placeOrder) add the order's own rules: one Idempotency-Key per order (§4
// rule 1), a 402 means no order exists and it is sent again only with a new key
// (§4 rule 5), 409 duplicate_external_id means the order exists: fetch it by its
// external id (§4 rule 4, §7).

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const API_BASE = '/api/on-demand/v1';
/** A token is renewed this long before it expires, so a call never carries one about to lapse. */
const RENEW_BEFORE_SECONDS = 60;

/** An answer the client could not turn into success: its problem `code` says what it was. */
export class ApiError extends Error {
  constructor(method, path, status, problem) {
    super(`${method} ${path} answered ${status} ${problem?.code ?? ''}`.trim());
    this.name = 'ApiError';
    this.status = status;
    /** The problem's code (§2: "Stable machine-readable code. Never changes."). */
    this.code = problem?.code;
    this.problem = problem;
  }
}

export class PartnerClient {
  #baseUrl;
  #accessKeyId;
  #secretKey;
  #maxAttempts;
  #log;
  /** The current token and when (this process's clock, ms) it should be renewed. */
  #token;
  #renewAt = 0;
  /** A token request in flight: concurrent calls wait for it instead of asking for their own. */
  #tokenRequest;

  /**
   * @param {object} options
   * @param {string} options.baseUrl origin of the service, e.g. process.env.TARGET_BASE_URL
   * @param {string} options.accessKeyId
   * @param {string} options.secretKey never logged, never put in a URL or a body
   * @param {number} [options.maxAttempts] how many times one call is sent at most (default 6)
   * @param {(line: string) => void} [options.log]
   */
  constructor({ baseUrl, accessKeyId, secretKey, maxAttempts = 6, log = () => {} }) {
    if (!baseUrl || !accessKeyId || !secretKey) {
      throw new Error('baseUrl, accessKeyId and secretKey are required');
    }
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
    this.#accessKeyId = accessKeyId;
    this.#secretKey = secretKey;
    this.#maxAttempts = maxAttempts;
    this.#log = log;
  }

  /** GET a path under the API base; answers the parsed JSON body. */
  async get(path) {
    return (await this.#call('GET', path)).body;
  }

  /** POST JSON; answers the parsed JSON body. `idempotencyKey` is sent as given (orders need one). */
  async post(path, body, { idempotencyKey } = {}) {
    return (await this.#call('POST', path, { body, idempotencyKey })).body;
  }

  /**
   * Places an order. The order gets one Idempotency-Key of its own, kept for
   * every retry of that order (§4 rules 1 and 6). Answers `{ order, replayed,
   * existing }`: `replayed` when the service found the key's order already
   * placed (a retry after a 500 that had stored it), `existing` when an order
   * with this external_id was already there (409 duplicate_external_id, §4
   * rule 4): it is fetched by its external id instead. Throws an ApiError with
   * `code` for anything else; after a 402 (`card_declined`, …) no order exists
   * and it may be placed again later with placeOrder, which takes a new key.
   */
  async placeOrder(order) {
    const idempotencyKey = randomUUID();
    try {
      const answer = await this.#call('POST', '/orders', { body: order, idempotencyKey });
      return {
        order: answer.body,
        replayed: answer.headers.get('idempotent-replayed') === 'true',
        existing: false,
      };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'duplicate_external_id') {
        const existing = await this.get(
          `/orders/by-external-id/${encodeURIComponent(order.external_id)}`,
        );
        return { order: existing, replayed: false, existing: true };
      }
      throw error;
    }
  }

  /** One call with everything the document asks of a client around it. */
  async #call(method, path, { body, idempotencyKey } = {}) {
    let lastError;
    for (let attempt = 1; attempt <= this.#maxAttempts; attempt++) {
      const token = await this.#currentToken();
      const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
      const response = await fetch(`${this.#baseUrl}${API_BASE}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const parsed = await readJson(response);
      if (response.ok) return { status: response.status, headers: response.headers, body: parsed };
      lastError = new ApiError(method, path, response.status, parsed);
      const wait = this.#whatNext(lastError, response, attempt, token);
      if (wait === undefined) throw lastError;
      this.#log(`${method} ${path}: ${lastError.code}, again in ${wait} ms`);
      if (wait > 0) await sleep(wait);
    }
    throw lastError;
  }

  /**
   * After an error: how long to wait before sending the same request again
   * (the same body and Idempotency-Key), or undefined when sending it again
   * cannot help. Only `code` decides.
   */
  #whatNext(error, response, attempt, token) {
    switch (error.code) {
      case 'token_expired': // §5.2: a new token is requested and the request repeated.
      case 'invalid_token': // §7: get a new token (this one is never sent again).
        if (this.#token === token) this.#token = undefined;
        return 0;
      case 'rate_limited': // §7: wait (Retry-After), then retry.
      case 'read_only': // §7: retry writes later.
      case 'api_unavailable': // §7: try again later.
        return retryAfterMs(response) ?? backoffMs(attempt);
      case 'internal_error': // §4 rule 6: retried with the same key (the caller's key is kept).
        return retryAfterMs(response) ?? backoffMs(attempt) / 4;
      default:
        return undefined;
    }
  }

  /** The token to call with: the one held while it lasts, else a new one (one request at a time). */
  async #currentToken() {
    if (this.#token && Date.now() < this.#renewAt) return this.#token;
    this.#tokenRequest ??= this.#requestToken().finally(() => {
      this.#tokenRequest = undefined;
    });
    return this.#tokenRequest;
  }

  /** POST /oauth/token (§4): Basic credentials, a form body; waits out a 429 or a 503 like any call. */
  async #requestToken() {
    const basic = Buffer.from(`${this.#accessKeyId}:${this.#secretKey}`).toString('base64');
    let lastError;
    for (let attempt = 1; attempt <= this.#maxAttempts; attempt++) {
      const response = await fetch(`${this.#baseUrl}${API_BASE}/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
      });
      const parsed = await readJson(response);
      if (response.ok && typeof parsed?.access_token === 'string') {
        this.#token = parsed.access_token;
        const lifetime = Number(parsed.expires_in) || 3600;
        this.#renewAt = Date.now() + Math.max(0, lifetime - RENEW_BEFORE_SECONDS) * 1000;
        return this.#token;
      }
      lastError = new ApiError('POST', '/oauth/token', response.status, parsed);
      const transient = ['rate_limited', 'api_unavailable', 'internal_error'];
      if (!transient.includes(lastError.code)) throw lastError;
      const wait = retryAfterMs(response) ?? backoffMs(attempt);
      this.#log(`POST /oauth/token: ${lastError.code}, again in ${wait} ms`);
      await sleep(wait);
    }
    throw lastError;
  }
}

/** Retry-After in whole seconds (RFC 9110 §10.2.3), as milliseconds; undefined when absent. */
function retryAfterMs(response) {
  const value = response.headers.get('retry-after');
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) * 1000 : undefined;
}

/** 1 s, 2 s, 4 s, … when the answer says nothing of when. */
function backoffMs(attempt) {
  return 1000 * 2 ** (attempt - 1);
}

async function readJson(response) {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { code: undefined, text };
  }
}
