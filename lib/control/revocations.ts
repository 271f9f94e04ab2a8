import { serveThreadChannel, ThreadChannel } from '../client/thread-channel.js';

/**
 * Keys that a check file no longer needs, revoked by the CLI's main thread
 * instead of the worker. A check's keys in accounts it made itself are used by nobody
 * after it, so their revocation need not hold the file up: against a target
 * far away, a check file that waited for its last revocations waited one
 * round trip more, ~62 times a run. The worker posts the Access Key ID (never
 * the secret) on the run's channel; the main thread revokes it at once; each
 * file ends only once the main thread has its keys, and the run ends only
 * once every revocation is answered, so none is lost with a worker that
 * stops. A key posted twice is revoked once.
 */
export interface Revocation {
  /** The control API of the target the key belongs to (a run against several targets has several). */
  controlUrl: string;
  accessKeyId: string;
}

/**
 * Worker side, one per check file: hands keys to the main thread to revoke
 * (fire and forget), and at the end of the file makes sure the main thread
 * has them all (`handedOver`: a local round trip, not the target's).
 */
export class RevocationPoster {
  readonly #channel: ThreadChannel;
  readonly #controlUrl: string;
  #handedOver = false;

  constructor(channelName: string, controlUrl: string) {
    this.#channel = new ThreadChannel(channelName);
    this.#controlUrl = controlUrl;
  }

  /** Hands the key over; false once handed over for good (`handedOver`): the caller revokes it itself. */
  post(accessKeyId: string): boolean {
    if (this.#handedOver) return false;
    return this.#channel.post({ controlUrl: this.#controlUrl, accessKeyId } satisfies Revocation);
  }

  /** Resolves once the main thread has every key posted here (it answers after them); then closes. */
  async handedOver(): Promise<void> {
    if (this.#handedOver) return;
    this.#handedOver = true;
    await this.#channel.ask('handed over?');
    this.#channel.close();
  }
}

export interface RevocationServer {
  /** Waits for every revocation asked so far (each failure is ignored: clean-up, not evidence). */
  drain(): Promise<void>;
  close(): void;
}

/**
 * Main-thread side: revokes each key posted on `channelName` with `revoke`,
 * once, and keeps the revocations under way for `drain`. A question is a
 * poster's end of file: answered as it comes, after that poster's keys.
 */
export function serveRevocations(
  channelName: string,
  revoke: (revocation: Revocation) => Promise<void>,
): RevocationServer {
  const seen = new Set<string>();
  const underWay = new Set<Promise<void>>();
  const served = serveThreadChannel(channelName, {
    post: (message) => {
      const data = message as Partial<Revocation> | undefined;
      if (typeof data?.controlUrl !== 'string' || typeof data.accessKeyId !== 'string') return;
      const id = `${data.controlUrl} ${data.accessKeyId}`;
      if (seen.has(id)) return;
      seen.add(id);
      const revoking = revoke({ controlUrl: data.controlUrl, accessKeyId: data.accessKeyId })
        .catch(() => undefined)
        .finally(() => underWay.delete(revoking));
      underWay.add(revoking);
    },
    ask: () => true,
  });
  return {
    async drain() {
      while (underWay.size > 0) await Promise.all(underWay);
    },
    close: served.close,
  };
}
