import type { Tally } from './rate-limits.js';
import { serveThreadChannel, ThreadChannel } from './thread-channel.js';

/**
 * Tells the CLI's main thread how many reads, writes and token requests the
 * partner key has sent so far (the pacer lives in the worker that runs the
 * checks), so that the end of a partner run can print the rate-limit floor
 * of that traffic. Same mechanism as wait-channel.ts; fire and forget.
 */
const CHANNEL = 'partner-ordering-conformance:tally';

export function announceTally(tally: Tally): void {
  const channel = new ThreadChannel(CHANNEL);
  channel.post(tally);
  channel.close();
}

/** What one check file sent with the key, told as the file ends. */
export function announceFileTally(file: string, tally: Tally): void {
  const channel = new ThreadChannel(CHANNEL);
  channel.post({ file, tally });
  channel.close();
}

function isTally(data: Partial<Tally> | undefined): data is Tally {
  return (
    typeof data?.read === 'number' &&
    typeof data.write === 'number' &&
    typeof data.token === 'number'
  );
}

/** Keeps the latest tally heard, and each file's; `stop()` ends listening. */
export function listenForTally(): {
  latest(): Tally | undefined;
  files(): Map<string, Tally>;
  stop(): void;
} {
  let latest: Tally | undefined;
  const files = new Map<string, Tally>();
  const served = serveThreadChannel(CHANNEL, {
    post: (posted) => {
      const message = posted as { file?: unknown; tally?: Partial<Tally> };
      if (typeof message?.file === 'string' && isTally(message.tally)) {
        files.set(message.file, message.tally);
        return;
      }
      const data = message as Partial<Tally> | undefined;
      // Counts only grow: a late message never takes the total back.
      if (
        isTally(data) &&
        (!latest ||
          data.read + data.write + data.token >= latest.read + latest.write + latest.token)
      )
        latest = { read: data.read, write: data.write, token: data.token };
    },
  });
  return { latest: () => latest, files: () => files, stop: served.close };
}
