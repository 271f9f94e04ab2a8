import { describe, expect, it } from 'vitest';
import { RevocationPoster, serveRevocations } from '../../lib/control/revocations.js';
import type { RunConfig } from '../../lib/target/run-config.js';
import {
  newRunChannelName,
  receiveRunConfigs,
  serveRunConfigs,
} from '../../lib/target/run-config-channel.js';

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

describe("the run's configuration over its channel (lib/target/run-config-channel.ts)", () => {
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
