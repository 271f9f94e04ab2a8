import { HarnessError } from '../violations/harness-error.js';
import type { HttpResponse, Key, RequestSpec } from './types.js';

/** Sends a token request on behalf of `via` (whoever asked: its evidence records the exchange). */
type Send<Via> = (spec: RequestSpec, via: Via) => Promise<HttpResponse>;

/**
 * One access token per key and scope set, fetched on first use and renewed
 * when the target says `token_expired` (API document section 5, rule 2).
 * Checks that test the token endpoint itself use `ctx.send` instead.
 */
export class TokenManager<Via> {
  readonly #tokens: Map<string, Promise<string>>;
  /** Which key a token belongs to: pacing and the live-order guard need a token's key. */
  readonly #owners = new Map<string, Key>();
  readonly #send: Send<Via>;
  readonly #tokenPath: string;

  /** `cache` may be shared between files (partner mode: one token for the whole run). */
  constructor(send: Send<Via>, tokenPath: string, cache = new Map<string, Promise<string>>()) {
    this.#send = send;
    this.#tokenPath = tokenPath;
    this.#tokens = cache;
  }

  /** A token for the key; a token request it makes is sent on behalf of `via` (the asking check). */
  token(key: Key, scopes: readonly string[] | undefined, via: Via): Promise<string> {
    const asked = scopes ?? key.tokenScopes;
    const id = cacheKey(key, asked);
    let pending = this.#tokens.get(id);
    if (!pending) {
      pending = this.#fetch(key, asked, via);
      this.#tokens.set(id, pending);
      // A failed fetch is not cached: the next call tries again.
      pending.catch(() => this.#tokens.delete(id));
    }
    return pending;
  }

  forget(key: Key): void {
    for (const id of [...this.#tokens.keys()]) {
      if (id.startsWith(`${key.accessKeyId}|`)) this.#tokens.delete(id);
    }
  }

  ownerOf(token: string): Key | undefined {
    return this.#owners.get(token);
  }

  async #fetch(key: Key, scopes: readonly string[] | undefined, via: Via): Promise<string> {
    const form: Record<string, string> = { grant_type: 'client_credentials' };
    if (scopes) form.scope = scopes.join(' ');
    const res = await this.#send(
      {
        method: 'POST',
        path: this.#tokenPath,
        form,
        auth: { kind: 'basic', accessKeyId: key.accessKeyId, secretKey: key.secretKey },
      },
      via,
    );
    const body = res.json as { access_token?: unknown; scope?: unknown } | undefined;
    if (res.status !== 200 || typeof body?.access_token !== 'string') {
      const code = (res.json as { code?: unknown } | undefined)?.code;
      throw new HarnessError(
        'HARNESS_SETUP',
        `could not get an access token for ${key.accessKeyId}: HTTP ${res.status}${
          typeof code === 'string' ? ` ${code}` : ''
        } (evidence #${res.exchange})`,
      );
    }
    if (key.scopes.length === 0 && typeof body.scope === 'string') {
      // The partner key's scopes are learned from its first token.
      key.scopes.push(...body.scope.split(' ').filter(Boolean));
    }
    this.#owners.set(body.access_token, key);
    return body.access_token;
  }
}

function cacheKey(key: Key, scopes?: readonly string[]): string {
  return `${key.accessKeyId}|${scopes ? [...scopes].sort().join(' ') : '*'}`;
}
