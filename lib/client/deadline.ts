/**
 * A request's deadline that a busy event loop cannot trip. A timer fires in
 * the first phase of the loop's turn, before the turn reads the sockets: after
 * the loop was held up (a burst of module loading in the same process, a
 * loaded machine), a plain timeout would end a request whose answer is
 * already waiting to be read, and report an answering target as silent. So
 * the deadline, once its time is up, waits out two more turns of the loop
 * (as undici's own connect timeout does) and aborts only a request still
 * unanswered then.
 */
export interface Deadline {
  /** The request settled: the deadline no longer applies. */
  clear(): void;
}

/** Calls `expire` with a TimeoutError once `ms` are up and the loop turned twice more. */
export function deadline(ms: number, expire: (reason: Error) => void): Deadline {
  let turn: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    turn = setImmediate(() => {
      turn = setImmediate(() =>
        // Named TimeoutError like AbortSignal.timeout's: network-error.ts says "no answer within …".
        expire(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')),
      );
    });
  }, ms);
  return {
    clear: () => {
      clearTimeout(timer);
      if (turn) clearImmediate(turn);
    },
  };
}
