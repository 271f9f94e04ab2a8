import { describe, expect, it } from 'vitest';
import {
  newRunChannelName,
  receiveRunConfigs,
  serveRunConfigs,
} from '../../lib/client/run-config-channel.js';
import { ReadyAccountClient, serveReadyAccounts } from '../../lib/control/ready-accounts.js';
import { RevocationPoster, serveRevocations } from '../../lib/control/revocations.js';
import type { RunConfig } from '../../lib/target/run-config.js';

const CONTROL = 'http://control.test/__control';

/** A promise with its resolve, to hold a revocation open until the test lets it end. */
function held(): { promise: Promise<void>; release: () => void } {
  let release = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

describe('keys handed to the main thread to revoke (lib/control/revocations.ts)', () => {
  it('revokes each key once, and drain waits for every revocation asked', async () => {
    const name = `${newRunChannelName()}:revocations`;
    const asked: string[] = [];
    const gate = held();
    const server = serveRevocations(name, async ({ accessKeyId, controlUrl }) => {
      expect(controlUrl).toBe(CONTROL);
      asked.push(accessKeyId);
      await gate.promise;
    });
    try {
      const file = new RevocationPoster(name, CONTROL);
      for (const id of ['ak_1', 'ak_2', 'ak_1', 'ak_3']) file.post(id);
      // The end of a file: the main thread has every key it posted, before any is revoked.
      await file.handedOver();
      expect(asked.sort()).toEqual(['ak_1', 'ak_2', 'ak_3']);
      let drained = false;
      const draining = server.drain().then(() => {
        drained = true;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(drained).toBe(false);
      gate.release();
      await draining;
      expect(drained).toBe(true);
    } finally {
      server.close();
    }
  });

  it("a key posted after the hand-over is the poster's to revoke (a check still running after its file ended)", async () => {
    const name = `${newRunChannelName()}:revocations`;
    const server = serveRevocations(name, async () => {});
    try {
      const file = new RevocationPoster(name, CONTROL);
      expect(file.post('ak_1')).toBe(true);
      await file.handedOver();
      expect(file.post('ak_2')).toBe(false);
    } finally {
      server.close();
    }
  });

  it('a revocation that fails is clean-up: drain still ends', async () => {
    const name = `${newRunChannelName()}:revocations`;
    const server = serveRevocations(name, async () => {
      throw new Error('503');
    });
    try {
      const file = new RevocationPoster(name, CONTROL);
      file.post('ak_1');
      await file.handedOver();
      await expect(server.drain()).resolves.toBeUndefined();
    } finally {
      server.close();
    }
  });
});

describe("the run's configuration over its channel (lib/client/run-config-channel.ts)", () => {
  const config = { origin: 'http://target.test', seed: 7 } as unknown as RunConfig;

  it('a worker that asks before the configuration is known gets it once it is', async () => {
    let settle: (value: { one: RunConfig }) => void = () => {};
    const server = serveRunConfigs(
      new Promise((resolve) => {
        settle = resolve;
      }),
    );
    try {
      const asking = receiveRunConfigs(server.name);
      settle({ one: config });
      await expect(asking).resolves.toEqual({ one: config });
    } finally {
      server.close();
      delete (globalThis as Record<symbol, unknown>)[
        Symbol.for('partner-ordering-conformance:run-configs')
      ];
    }
  });

  it('a run called off tells the waiting worker why', async () => {
    const server = serveRunConfigs(Promise.reject(new Error('the key was refused')));
    try {
      await expect(receiveRunConfigs(server.name)).rejects.toThrow(
        'the run was called off: the key was refused',
      );
    } finally {
      server.close();
    }
  });
});

describe('accounts made ahead, asked for over the run channel (lib/control/ready-accounts.ts)', () => {
  const ready = {
    account: { id: 'acct_1', settings: { id: 'acct_1', suspended: true } },
    key: { accessKeyId: 'ak_1', secretKey: 'sk', mode: 'test' as const, scopes: [] },
    exchanges: [],
  };

  it('asks with the settings and gets the account; none made is undefined; closed, none is asked', async () => {
    const name = `${newRunChannelName()}:ready-accounts`;
    const asked: unknown[] = [];
    const server = serveReadyAccounts(name, async (settings) => {
      asked.push(settings);
      return asked.length === 1 ? ready : undefined;
    });
    try {
      const file = new ReadyAccountClient(name);
      await expect(file.take({ suspended: true })).resolves.toEqual(ready);
      await expect(file.take({})).resolves.toBeUndefined();
      expect(asked).toEqual([{ suspended: true }, {}]);
      file.close();
      await expect(file.take({})).resolves.toBeUndefined();
      expect(asked).toHaveLength(2);
    } finally {
      server.close();
    }
  });
});
