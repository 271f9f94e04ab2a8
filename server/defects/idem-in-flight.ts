/**
 * `idem-race-unserialized` (idem.ts): the requests being processed, per app, by
 * account, mode and Idempotency-Key. The defect treats a request whose key
 * is already in flight as a new one instead of waiting to replay it.
 *
 * The first request of a key waits at a barrier until a second one with the
 * same key has arrived (and so skipped the lookup): then both go on, and the
 * race is lost every time, however the racers were spread over the event
 * loop. A key nobody races is let through after a bound, so that ordinary
 * orders of this defective server are not held for long. Only the defective
 * server of this one defect ever waits.
 */
const LONE_REQUEST_BOUND_MS = 150;

interface Flight {
  count: number;
  /** Opens the first request's barrier: a racer arrived. */
  open: (() => void) | undefined;
}

export interface FlightTicket {
  /** Another request with this key was already in flight: this one skips the lookup. */
  raced: boolean;
  /** For the first request: resolves when a racer arrives (or after the bound). */
  barrier: Promise<void>;
  leave: () => void;
}

/**
 * The flights of one app: `enter(id)` marks `id` in flight and answers whether
 * another request with it already was, a barrier and a release.
 */
export function flights(): (id: string) => FlightTicket {
  const map = new Map<string, Flight>();
  return (id) => enterFlight(map, id);
}

function enterFlight(map: Map<string, Flight>, id: string): FlightTicket {
  let flight = map.get(id);
  const raced = flight !== undefined;
  if (flight === undefined) {
    flight = { count: 0, open: undefined };
    map.set(id, flight);
  }
  flight.count++;
  const current = flight;
  let barrier: Promise<void> = Promise.resolve();
  if (raced) {
    current.open?.();
  } else {
    barrier = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, LONE_REQUEST_BOUND_MS);
      timer.unref();
      current.open = () => {
        clearTimeout(timer);
        current.open = undefined;
        resolve();
      };
    });
  }
  return {
    raced,
    barrier,
    leave: () => {
      current.count--;
      if (current.count <= 0 && map.get(id) === current) map.delete(id);
    },
  };
}
