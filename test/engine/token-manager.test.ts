import { describe, expect, it } from 'vitest';
import { TokenManager } from '../../lib/client/token-manager.js';
import type { HttpResponse, Key, RequestSpec } from '../../lib/client/types.js';
import { HarnessError } from '../../lib/violations/harness-error.js';

const TOKEN_PATH = '/api/on-demand/v1/oauth/token';

function tokenAnswer(status: number, body: unknown, exchange: number): HttpResponse {
  return {
    requestPath: TOKEN_PATH,
    status,
    headers: {},
    header: () => undefined,
    text: JSON.stringify(body),
    json: body,
    exchange,
    durationMs: 1,
  };
}

/** A token endpoint on an injected clock: counts requests, answers `expires_in` 3600 unless told. */
function endpoint(expiresIn: unknown = 3600) {
  const clock = { t: 0 };
  const sent: RequestSpec[] = [];
  let fail = false;
  const send = async (spec: RequestSpec) => {
    sent.push(spec);
    if (fail) return tokenAnswer(401, { code: 'invalid_client' }, sent.length);
    return tokenAnswer(
      200,
      {
        access_token: `odp_at_${sent.length}`,
        scope: 'orders:read orders:write',
        expires_in: expiresIn,
      },
      sent.length,
    );
  };
  const manager = new TokenManager<undefined>(send, TOKEN_PATH, undefined, () => clock.t);
  return {
    clock,
    sent,
    manager,
    failing: (value: boolean) => {
      fail = value;
    },
  };
}

const key = (): Key => ({
  accessKeyId: 'odp_test_ak_tm',
  secretKey: 's',
  mode: 'test',
  scopes: [],
});

describe('token manager: one token reused until it nears expiry', () => {
  it('reuses one token for every caller of the same key and scopes, however they interleave', async () => {
    const { sent, manager } = endpoint();
    const k = key();
    const tokens = await Promise.all([1, 2, 3].map(() => manager.token(k, undefined, undefined)));
    expect(await manager.token(k, undefined, undefined)).toBe(tokens[0]);
    expect(new Set(tokens).size).toBe(1);
    expect(sent).toHaveLength(1);
    // Another scope set is another token.
    await manager.token(k, ['orders:read'], undefined);
    expect(sent).toHaveLength(2);
    expect(k.scopes).toEqual(['orders:read', 'orders:write']);
  });

  it('renews a token a minute before its expires_in, once for all callers', async () => {
    const { clock, sent, manager } = endpoint(3600);
    const k = key();
    const first = await manager.token(k, undefined, undefined);
    clock.t = 3_539_000;
    expect(await manager.token(k, undefined, undefined)).toBe(first);
    clock.t = 3_541_000;
    const renewed = await Promise.all([1, 2].map(() => manager.token(k, undefined, undefined)));
    expect(renewed[0]).not.toBe(first);
    expect(renewed[1]).toBe(renewed[0]);
    expect(sent).toHaveLength(2);
  });

  it('takes 3600 s (section 8) when the answer has no usable expires_in', async () => {
    const { clock, sent, manager } = endpoint('soon');
    const k = key();
    const first = await manager.token(k, undefined, undefined);
    clock.t = 3_000_000;
    expect(await manager.token(k, undefined, undefined)).toBe(first);
    expect(sent).toHaveLength(1);
  });

  it('does not cache a failure: every caller that shared it sees it, the next one asks again', async () => {
    const { sent, manager, failing } = endpoint();
    const k = key();
    failing(true);
    const both = await Promise.allSettled([1, 2].map(() => manager.token(k, undefined, undefined)));
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((both[0] as PromiseRejectedResult).reason).toBeInstanceOf(HarnessError);
    expect(sent).toHaveLength(1);
    failing(false);
    await manager.token(k, undefined, undefined);
    expect(sent).toHaveLength(2);
  });

  it('forgets a key on request (after token_expired): the next call fetches again', async () => {
    const { sent, manager } = endpoint();
    const k = key();
    await manager.token(k, undefined, undefined);
    manager.forget(k);
    await manager.token(k, undefined, undefined);
    expect(sent).toHaveLength(2);
  });
});

// An account made ahead comes with its key's token, fetched by the main thread's manager.
describe('token manager: a token fetched for another thread (fresh, adopt)', () => {
  it('fresh fetches without caching; the adopting manager uses it until it nears expiry', async () => {
    const ahead = endpoint();
    const k = key();
    const made = await ahead.manager.fresh(k, undefined);
    expect(made.token).toBe('odp_at_1');
    // Not cached where it was fetched: that manager's next ask is a request of its own.
    expect(await ahead.manager.token(k, undefined, undefined)).toBe('odp_at_2');

    const worker = endpoint();
    worker.manager.adopt(k, made);
    expect(await worker.manager.token(k, undefined, undefined)).toBe('odp_at_1');
    expect(worker.sent).toHaveLength(0);
    expect(worker.manager.ownerOf('odp_at_1')).toBe(k);
    // Other scopes are another token, asked for as before.
    await worker.manager.token(k, ['orders:read'], undefined);
    expect(worker.sent.map((spec) => spec.form?.scope)).toEqual(['orders:read']);
  });
});
