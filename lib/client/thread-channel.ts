import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';

/**
 * A named channel between the threads of the CLI's process: the check files'
 * workers post to the main thread, or ask it and wait for its answer; the
 * main thread serves (`serveThreadChannel`). Messages a channel object posts
 * arrive in the order it posted them, so an answer comes after everything its
 * asker posted before. A channel keeps its thread alive only while an answer
 * is awaited. Node's BroadcastChannel does all this; its typings lack
 * `ref`/`unref`, which this module alone reaches for.
 */
type Envelope = { post: unknown } | { ask: unknown; id: string } | { answer: unknown; id: string };

type Refable = { ref?: () => void; unref?: () => void };

/** Whether the channel holds its thread alive. */
function holdAlive(channel: BroadcastChannel, alive: boolean): void {
  const refable = channel as unknown as Refable;
  if (alive) refable.ref?.();
  else refable.unref?.();
}

/** A worker's (or any thread's) end of a channel. */
export class ThreadChannel {
  readonly #channel: BroadcastChannel;
  readonly #waiting = new Map<string, (answer: unknown) => void>();
  #closed = false;

  constructor(name: string) {
    this.#channel = new BroadcastChannel(name);
    this.#channel.onmessage = (event) => {
      const data = (event as MessageEvent).data as Partial<{ answer: unknown; id: string }>;
      if (typeof data?.id !== 'string' || !('answer' in data)) return;
      const resolve = this.#waiting.get(data.id);
      if (!resolve) return;
      this.#waiting.delete(data.id);
      holdAlive(this.#channel, this.#waiting.size > 0);
      resolve(data.answer);
    };
    holdAlive(this.#channel, false);
  }

  /** Fire and forget; false once closed (nothing was sent). */
  post(message: unknown): boolean {
    if (this.#closed) return false;
    this.#channel.postMessage({ post: message } satisfies Envelope);
    return true;
  }

  /** The server's answer; undefined once closed (then nothing is asked, and what waits gets undefined). */
  ask<T>(message: unknown): Promise<T | undefined> {
    if (this.#closed) return Promise.resolve(undefined);
    // Unique in the process: answers go to every object on the channel's name, in every thread.
    const id = randomUUID();
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve as (answer: unknown) => void);
      holdAlive(this.#channel, true);
      this.#channel.postMessage({ ask: message, id } satisfies Envelope);
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const resolve of this.#waiting.values()) resolve(undefined);
    this.#waiting.clear();
    this.#channel.close();
  }
}

/**
 * The serving end (the CLI's main thread): `post` gets each message posted,
 * at once and in order; `ask` each question, whose answer (or undefined, if
 * it throws) goes back to the asker alone. Never what keeps the process alive.
 */
export function serveThreadChannel(
  name: string,
  handlers: {
    post?: (message: unknown) => void;
    ask?: (message: unknown) => unknown;
  },
): { close(): void } {
  const channel = new BroadcastChannel(name);
  channel.onmessage = (event) => {
    const data = (event as MessageEvent).data as Partial<{
      post: unknown;
      ask: unknown;
      id: string;
    }>;
    if (data && 'post' in data) handlers.post?.(data.post);
    if (!data || !('ask' in data) || typeof data.id !== 'string') return;
    const id = data.id;
    Promise.resolve()
      .then(() => handlers.ask?.(data.ask))
      .then(
        (answer) => channel.postMessage({ answer, id } satisfies Envelope),
        () => channel.postMessage({ answer: undefined, id } satisfies Envelope),
      );
  };
  holdAlive(channel, false);
  return { close: () => channel.close() };
}
