import { BroadcastChannel } from 'node:worker_threads';

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
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(notice);
  channel.close();
}

/** Listens until the answered function is called. */
export function listenForWaits(onWait: (notice: WaitNotice) => void): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event) => {
    const data = (event as MessageEvent).data as Partial<WaitNotice> | undefined;
    if (typeof data?.what === 'string' && typeof data.ms === 'number') onWait(data as WaitNotice);
  };
  // Never what keeps the process alive.
  (channel as unknown as { unref?: () => void }).unref?.();
  return () => channel.close();
}
