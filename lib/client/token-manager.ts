import { HarnessError } from '../violations/harness-error.js';
import type { HttpResponse, Key, RequestSpec } from './types.js';

/** Sends a token request on behalf of `via` (whoever asked: its evidence records the exchange). */
type Send<Via> = (spec: RequestSpec, via: Via) => Promise<HttpResponse>;

/** A token and when it stops being worth using (ms on the manager's clock). */
export interface CachedToken {
  token: string;
  renewAt: number;
}

/** A token this close to its `expires_in` is renewed before use rather than sent to meet `token_expired`. */
const RENEW_BEFORE_MS = 60_000;

/**
 * One access token per key and scope set, fetched on first use, reused (by
 * every file of the run, in partner mode) until it nears its `expires_in`,
 * and renewed early then or when the target says `token_expired` (API
 * document section 5, rule 2). Checks that test the token endpoint itself
 * use `ctx.send` instead.
 */
export class TokenManager<Via> {
  readonly #tokens: Map<string, Promise<CachedToken>>;
  /** Which key a token belongs to: pacing and the live-order guard need a token's key. */
  readonly #owners = new Map<string, Key>();
  readonly #send: Send<Via>;
  readonly #tokenPath: string;
  readonly #now: () => number;

  /** `cache` may be shared between files (partner mode: one token for the whole run). */
  constructor(
    send: Send<Via>,
    tokenPath: string,
    cache = new Map<string, Promise<CachedToken>>(),
    now: () => number = Date.now,
  ) {
    this.#send = send;
    this.#tokenPath = tokenPath;
    this.#tokens = cache;
    this.#now = now;
  }

  /** A token for the key; a token request it makes is sent on behalf of `via` (the asking check). */
  async token(key: Key, scopes: readonly string[] | undefined, via: Via): Promise<string> {
    const asked = scopes ?? key.tokenScopes;
    const id = cacheKey(key, asked);
    const cached = this.#tokens.get(id);
    if (cached) {
      // A failed request fails every caller that shared it (it is not cached: the next one tries again).
      const held = await cached;
      if (this.#now() < held.renewAt) return held.token;
      // Expiring: renewed once, by whoever asks first; the others share that request.
      if (this.#tokens.get(id) !== cached) return this.token(key, scopes, via);
    }
    const pending = this.#fetch(key, asked, via);
    this.#tokens.set(id, pending);
    // A failed fetch is not cached: the next call tries again.
    pending.catch(() => {
      if (this.#tokens.get(id) === pending) this.#tokens.delete(id);
    });
    return (await pending).token;
  }

  /**
   * A token for the key, fetched now and not cached: one made ahead for another
   * thread's check (lib/runner/accounts-ahead.ts), which adopts it.
   */
  fresh(key: Key, via: Via): Promise<CachedToken> {
    return this.#fetch(key, key.tokenScopes, via);
  }

  /** Takes a token fetched elsewhere (`fresh`) for the key's default scopes, as if fetched here. */
  adopt(key: Key, token: CachedToken): void {
    this.#owners.set(token.token, key);
    this.#tokens.set(cacheKey(key, key.tokenScopes), Promise.resolve(token));
  }

  forget(key: Key): void {
    for (const id of [...this.#tokens.keys()]) {
      if (id.startsWith(`${key.accessKeyId}|`)) this.#tokens.delete(id);
    }
  }

  ownerOf(token: string): Key | undefined {
    return this.#owners.get(token);
  }

  async #fetch(key: Key, scopes: readonly string[] | undefined, via: Via): Promise<CachedToken> {
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
    const body = res.json as
      | { access_token?: unknown; scope?: unknown; expires_in?: unknown }
      | undefined;
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
    // Section 8: a token lives 3600 s; the target's own `expires_in` decides when one is there.
    const lifetimeS =
      typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    return {
      token: body.access_token,
      renewAt: this.#now() + Math.max(0, lifetimeS * 1000 - RENEW_BEFORE_MS),
    };
  }
}

function cacheKey(key: Key, scopes?: readonly string[]): string {
  return `${key.accessKeyId}|${scopes ? [...scopes].sort().join(' ') : '*'}`;
}
