import { describe, expect, it } from 'vitest';
import type { Caller, Session } from '../../lib/client/session.js';
import type { AccountSettings } from '../../lib/control/types.js';
import type { RawExchange } from '../../lib/evidence/exchange.js';
import { AccountsAhead } from '../../lib/runner/accounts-ahead.js';

/**
 * A control API in memory: counts what is made and revoked, records each call as a raw
 * exchange; `refuseTokens`: the token endpoint answers 401.
 */
function fakeSession({ refuseTokens = false } = {}) {
  const made: AccountSettings[] = [];
  const revoked: string[] = [];
  let next = 0;
  const exchange = (url: string): RawExchange => ({
    channel: 'control',
    startedAt: new Date(),
    durationMs: 1,
    method: 'POST',
    url,
    requestHeaders: {},
    status: 201,
  });
  const session = {
    controlFor: (caller: Caller) => ({
      createAccount: async (settings: AccountSettings) => {
        made.push(settings);
        const id = `acct_${++next}`;
        caller.recorder?.record(exchange('/__control/accounts'));
        return { id, settings: { ...settings, id } };
      },
      createKey: async (accountId: string) => {
        caller.recorder?.record(exchange(`/__control/accounts/${accountId}/keys`));
        return {
          accessKeyId: `ak_${accountId}`,
          secretKey: 'sk',
          mode: 'test',
          scopes: [],
          accountId,
        };
      },
    }),
    tokens: {
      fresh: async (key: { accessKeyId: string }, caller: Caller) => {
        caller.recorder?.record({ ...exchange('/api/on-demand/v1/oauth/token'), channel: 'api' });
        if (refuseTokens) throw new Error(`could not get an access token for ${key.accessKeyId}`);
        return { token: `at_${key.accessKeyId}`, renewAt: Date.now() + 3_540_000 };
      },
    },
    control: {
      revokeKey: async (key: { accessKeyId: string }) => {
        revoked.push(key.accessKeyId);
      },
    },
  };
  return { session: session as unknown as Session, made, revoked };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const A = { limits: { max_order_value: 1, max_orders_per_day: 1 } };
const B = { suspended: true };

describe('accounts made ahead (lib/runner/accounts-ahead.ts)', () => {
  it('settings asked for once cost nothing; asked again, accounts are made ahead up to the limit', async () => {
    const { session, made } = fakeSession();
    const ahead = new AccountsAhead(session, { each: 3, most: 3 });
    const first = await ahead.take(A);
    expect(first?.account.settings).toMatchObject(A);
    // The account, its key and the key's token, as raw exchanges the taker records as its own evidence.
    expect(first?.exchanges.map((e) => e.url)).toEqual([
      '/__control/accounts',
      `/__control/accounts/${first?.account.id}/keys`,
      '/api/on-demand/v1/oauth/token',
    ]);
    expect(first?.key.accountId).toBe(first?.account.id);
    expect(first?.token?.token).toBe(`at_${first?.key.accessKeyId}`);
    await settle();
    expect(made).toHaveLength(1);
    await ahead.take(A);
    await settle();
    expect(made).toHaveLength(3); // the second, and one ahead
    const third = await ahead.take(A);
    await settle();
    // The third was ready; two more are made ahead now (asked 3 times, 2 ahead).
    expect(third?.account.id).toBe('acct_3');
    expect(made).toHaveLength(5);
  });

  it('a token the target refuses: the account and key still come, without one (the check asks itself)', async () => {
    const { session } = fakeSession({ refuseTokens: true });
    const ahead = new AccountsAhead(session, { each: 1, most: 1 });
    const ready = await ahead.take(A);
    expect(ready?.key.accountId).toBe(ready?.account.id);
    expect(ready?.token).toBeUndefined();
    // The refused request is evidence all the same.
    expect(ready?.exchanges.map((e) => e.url).at(-1)).toBe('/api/on-demand/v1/oauth/token');
  });

  it('at most `each` ahead of one settings, `most` of all together', async () => {
    const { session, made } = fakeSession();
    const ahead = new AccountsAhead(session, { each: 2, most: 3 });
    for (let i = 0; i < 6; i++) await ahead.take(A);
    await settle();
    expect(made.length - 6).toBe(2);
    for (let i = 0; i < 6; i++) await ahead.take(B);
    await settle();
    expect(made.length - 12).toBe(3);
  });

  it('at most `most` ahead, all settings together (each as large)', async () => {
    const { session, made } = fakeSession();
    const ahead = new AccountsAhead(session, { each: 2, most: 2 });
    for (let i = 0; i < 5; i++) await ahead.take(A);
    for (let i = 0; i < 5; i++) await ahead.take(B);
    await settle();
    expect(made.length - 10).toBeLessThanOrEqual(2);
  });

  it('stops making ahead when told, and revokes the keys of those never taken at close', async () => {
    const { session, made, revoked } = fakeSession();
    const ahead = new AccountsAhead(session, { each: 4, most: 4 });
    for (let i = 0; i < 4; i++) await ahead.take(A);
    ahead.stopMaking();
    await settle();
    const before = made.length;
    await ahead.take(A);
    await settle();
    expect(made.length).toBe(before); // handed out one made ahead, made none in its place
    const takenAll = made.length;
    await ahead.close();
    const left = takenAll - 5;
    expect(left).toBeGreaterThan(0);
    expect(revoked).toHaveLength(left);
    expect(await ahead.take(A)).toBeUndefined();
  });

  describe('with a forecast (the asks of the last run of the same shape)', () => {
    const a = JSON.stringify(A);
    const b = JSON.stringify(B);

    it('makes the first `most` foreseen before any ask, and hands them out as asked', async () => {
      const { session, made } = fakeSession();
      const ahead = new AccountsAhead(session, { each: 1, most: 3, forecast: [a, a, b, a, b] });
      await settle();
      // Made at once, before any check asked: the first burst of asks finds them.
      expect(made).toEqual([A, A, B]);
      const first = await ahead.take(A);
      expect(first?.account.id).toBe('acct_1');
      await settle();
      // One taken, the forecast's next made in its place.
      expect(made).toEqual([A, A, B, A]);
      expect((await ahead.take(B))?.account.id).toBe('acct_3');
      expect((await ahead.take(A))?.account.id).toBe('acct_2');
      expect((await ahead.take(A))?.account.id).toBe('acct_4');
      await settle();
      expect(made).toEqual([A, A, B, A, B]);
    });

    it('an ask before its turn is made on demand, and its turn makes nothing', async () => {
      const { session, made } = fakeSession();
      const ahead = new AccountsAhead(session, { each: 1, most: 1, forecast: [a, b] });
      await settle();
      expect(made).toEqual([A]);
      // B comes first: none made yet, so on demand; the forecast's B is then not made again.
      await ahead.take(B);
      await settle();
      expect(made).toEqual([A, B]);
      await ahead.take(A);
      await settle();
      expect(made).toEqual([A, B]);
    });

    it('settings it did not foresee are made on demand, none ahead', async () => {
      const { session, made } = fakeSession();
      const ahead = new AccountsAhead(session, { each: 4, most: 4, forecast: [a] });
      for (let i = 0; i < 3; i++) await ahead.take(B);
      await settle();
      expect(made.filter((settings) => JSON.stringify(settings) === b)).toHaveLength(3);
    });

    it("remembers this run's asks in order, for the next run", async () => {
      const { session } = fakeSession();
      const ahead = new AccountsAhead(session, { each: 1, most: 1, forecast: [a] });
      await ahead.take(B);
      await ahead.take(A);
      await ahead.take(B);
      expect(ahead.asked()).toEqual([b, a, b]);
    });

    it('revokes the keys of the foreseen accounts never asked for at close', async () => {
      const { session, revoked } = fakeSession();
      const ahead = new AccountsAhead(session, { each: 1, most: 2, forecast: [a, b] });
      await ahead.close();
      expect(revoked).toHaveLength(2);
    });
  });
});
