import { BroadcastChannel } from 'node:worker_threads';

/**
 * Keys that a check file no longer needs, revoked by the CLI's main thread
 * (issue 27). A check's keys in accounts it made itself are used by nobody
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

type Message = Revocation | { flush: string } | { flushed: string };

/**
 * Worker side, one per check file: hands keys to the main thread to revoke
 * (fire and forget), and at the end of the file makes sure the main thread
 * has them all (`handedOver`: a local round trip, not the target's).
 */
export class RevocationPoster {
  readonly #channel: BroadcastChannel;
  readonly #controlUrl: string;
  #closed = false;

  constructor(channelName: string, controlUrl: string) {
    this.#channel = new BroadcastChannel(channelName);
    this.#controlUrl = controlUrl;
    (this.#channel as unknown as { unref?: () => void }).unref?.();
  }

  /** Hands the key over; false once handed over for good (`handedOver`): the caller revokes it itself. */
  post(accessKeyId: string): boolean {
    if (this.#closed) return false;
    this.#channel.postMessage({ controlUrl: this.#controlUrl, accessKeyId } satisfies Message);
    return true;
  }

  /** Resolves once the main thread has every key posted here (it answers in order); then closes. */
  async handedOver(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const token = `${process.pid}-${Math.random()}`;
    await new Promise<void>((resolve) => {
      this.#channel.onmessage = (event) => {
        const data = (event as MessageEvent).data as Partial<{ flushed: string }> | undefined;
        if (data?.flushed === token) resolve();
      };
      (this.#channel as unknown as { ref?: () => void }).ref?.();
      this.#channel.postMessage({ flush: token } satisfies Message);
    });
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
 * once, and keeps the revocations under way for `drain`.
 */
export function serveRevocations(
  channelName: string,
  revoke: (revocation: Revocation) => Promise<void>,
): RevocationServer {
  const channel = new BroadcastChannel(channelName);
  const seen = new Set<string>();
  const underWay = new Set<Promise<void>>();
  channel.onmessage = (event) => {
    const data = (event as MessageEvent).data as
      | Partial<Revocation & { flush: string }>
      | undefined;
    if (typeof data?.flush === 'string') {
      channel.postMessage({ flushed: data.flush } satisfies Message);
      return;
    }
    if (typeof data?.controlUrl !== 'string' || typeof data.accessKeyId !== 'string') return;
    const id = `${data.controlUrl} ${data.accessKeyId}`;
    if (seen.has(id)) return;
    seen.add(id);
    const revoking = revoke({ controlUrl: data.controlUrl, accessKeyId: data.accessKeyId })
      .catch(() => undefined)
      .finally(() => underWay.delete(revoking));
    underWay.add(revoking);
  };
  (channel as unknown as { unref?: () => void }).unref?.();
  return {
    async drain() {
      while (underWay.size > 0) await Promise.all(underWay);
    },
    close: () => channel.close(),
  };
}
