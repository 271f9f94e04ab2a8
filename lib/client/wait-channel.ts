import { serveThreadChannel, ThreadChannel } from './thread-channel.js';

/**
 * Tells the progress line that a check is waiting on purpose (the pacer
 * keeping a key under its limits, or a target's Retry-After), so a run that
 * goes quiet for a minute says why. Checks run in worker threads of the CLI's
 * process; a BroadcastChannel reaches the main thread without going through
 * vitest. Fire and forget: nobody listening costs nothing.
 */
const CHANNEL = 'partner-ordering-conformance:waits';

export interface WaitNotice {
  /** What is awaited, in words: "the write window of key odp_test_ak_…". */
  what: string;
  ms: number;
}

export function announceWait(notice: WaitNotice): void {
  const channel = new ThreadChannel(CHANNEL);
  channel.post(notice);
  channel.close();
}

/** Listens until the answered function is called. */
export function listenForWaits(onWait: (notice: WaitNotice) => void): () => void {
  const served = serveThreadChannel(CHANNEL, {
    post: (message) => {
      const data = message as Partial<WaitNotice> | undefined;
      if (typeof data?.what === 'string' && typeof data.ms === 'number') onWait(data as WaitNotice);
    },
  });
  return served.close;
}
