import { BroadcastChannel } from 'node:worker_threads';
import type { Tally } from './key-pacer.js';

/**
 * Tells the CLI's main thread how many reads, writes and token requests the
 * partner key has sent so far (the pacer lives in the worker that runs the
 * checks), so that the end of a partner run can print the rate-limit floor
 * of that traffic. Same mechanism as wait-channel.ts; fire and forget.
 */
const CHANNEL = 'partner-ordering-conformance:tally';

export function announceTally(tally: Tally): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(tally);
  channel.close();
}

/** Keeps the latest tally heard; `stop()` ends listening. */
export function listenForTally(): { latest(): Tally | undefined; stop(): void } {
  let latest: Tally | undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event) => {
    const data = (event as MessageEvent).data as Partial<Tally> | undefined;
    if (
      typeof data?.read === 'number' &&
      typeof data.write === 'number' &&
      typeof data.token === 'number'
    ) {
      // Counts only grow: a late message never takes the total back.
      if (
        !latest ||
        data.read + data.write + data.token >= latest.read + latest.write + latest.token
      )
        latest = { read: data.read, write: data.write, token: data.token };
    }
  };
  (channel as unknown as { unref?: () => void }).unref?.();
  return { latest: () => latest, stop: () => channel.close() };
}
