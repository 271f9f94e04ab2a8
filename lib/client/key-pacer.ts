/**
 * Keeps one key under the API document's rate limits (section 8): reads 300,
 * writes 60, token requests 20 per minute per key. The suite uses it for the
 * partner key, whose limits every check of the run shares; keys the run makes
 * through the control API are fresh per check and need no pacing. A small
 * margin leaves room for clocks that disagree by a little.
 */
export type RequestClass = 'read' | 'write' | 'token';

const LIMITS: Record<RequestClass, number> = { read: 300, write: 60, token: 20 };
const MARGIN = 0.9;
const WINDOW_MS = 60_000;

export class KeyPacer {
  readonly #sent = new Map<string, number[]>();
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #onWait: ((ms: number, keyId: string, kind: RequestClass) => void) | undefined;

  constructor(
    now: () => number = Date.now,
    sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
    /** Told before each wait: the progress line says what the run waits for. */
    onWait?: (ms: number, keyId: string, kind: RequestClass) => void,
  ) {
    this.#now = now;
    this.#sleep = sleep;
    this.#onWait = onWait;
  }

  /** Waits until one more request of this class on this key stays within the limit; answers the wait in ms. */
  async acquire(keyId: string, kind: RequestClass): Promise<number> {
    const id = `${keyId}|${kind}`;
    const budget = Math.floor(LIMITS[kind] * MARGIN);
    let waited = 0;
    for (;;) {
      const now = this.#now();
      const recent = (this.#sent.get(id) ?? []).filter((at) => now - at < WINDOW_MS);
      if (recent.length < budget) {
        recent.push(now);
        this.#sent.set(id, recent);
        return waited;
      }
      const wait = WINDOW_MS - (now - recent[0]!) + 50;
      this.#sent.set(id, recent);
      this.#onWait?.(wait, keyId, kind);
      await this.#sleep(wait);
      waited += wait;
    }
  }
}

export function requestClass(method: string, path: string, tokenPath: string): RequestClass {
  if (path.split('?')[0] === tokenPath) return 'token';
  return ['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase()) ? 'read' : 'write';
}
