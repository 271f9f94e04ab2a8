import type { Wire } from '../client/dispatcher.js';
import { newSessionShared, wireFor } from '../client/session.js';
import { ReplayBook } from '../evidence/trace.js';
import { workerConnections } from '../plan/concurrency.js';
import type { RunConfig } from '../target/run-config.js';

/**
 * State shared by every check file in one worker, in partner mode: the files
 * run one after another in a single worker, so this is the whole run's: one
 * pacer and one token cache for the one partner key, whose rate limits every
 * check shares. With the control API each file has its own (its keys are its
 * own: file-fixture.ts).
 */
export const runShared = newSessionShared();

/**
 * The replay book of partner mode's files, for the same reason: a token one
 * file fetched and cached is set-up that another file's replay needs.
 */
export const runBook = new ReplayBook();

/**
 * The connections of every check file in one worker, whatever the mode: a file's requests go
 * out on the sockets the worker's earlier files opened, which close with the worker. Files
 * opening and closing their own cost ~700 connections more a run against the bundled
 * reference, each paid on both ends (open, accept, tear-down). Files share no state through
 * them: an HTTP exchange holds none, and each file still has its own session, tokens and
 * evidence. A race's racers still open connections of their own (last-byte.ts). By where the
 * connections go: a worker runs one target, but the project's own tests start targets of their
 * own.
 */
export function workerWire(config: RunConfig): Wire {
  const key = JSON.stringify([config.origin, config.controlUrl, config.requestTimeoutMs]);
  let wire = wires.get(key);
  if (!wire) {
    wire = wireFor(config, { connections: workerConnections(filesAtATime(config)) });
    wires.set(key, wire);
  }
  return wire;
}
const wires = new Map<string, Wire>();

/**
 * How many requests of one burst (a rate-limit check's hundreds) go out at once. Against a
 * target elsewhere each of a burst's turns is a round trip: as many as the worker has sockets,
 * so that through 50 ms of round-trip time 300 reads take ten turns, not twenty (full runs
 * through bench/latency-proxy.ts: 7.6 s against 8.0 s, medians of five). Against the bundled
 * reference, one file at a time, the run waits on this machine's CPU, not on round trips, and
 * 32 at once only lengthened the queues: 16 (4.12 s against 3.96 s at 32, medians of five).
 */
export function burstInFlight(config: RunConfig): number {
  const files = filesAtATime(config);
  return files > 1 ? workerConnections(files) : LOCAL_BURST_IN_FLIGHT;
}
const LOCAL_BURST_IN_FLIGHT = 16;

/** Check files at a time in this run (RunConfig.filesAtATime; before it was set, `concurrency`). */
export function filesAtATime(config: RunConfig): number {
  return config.filesAtATime ?? config.concurrency ?? 1;
}
