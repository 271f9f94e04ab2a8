/**
 * What a defect that loses a race waits between a read and the write that
 * depends on it: the round trip to a database over the network, which a
 * server on an asynchronous driver (PostgreSQL, a network cache) makes
 * between the two, and during which other requests run. The correct server
 * reads and writes under the account's lock in one transaction (or counts in
 * one step); the defects of races read before the lock, wait this, then
 * write what they read. On SQLite the reference's store answers at once, so
 * without this wait the race would have no window at all; with it, requests
 * that arrive within this many milliseconds of each other all read the same
 * state. 20, a slow database's round trip: a replay's racers are released
 * together, but on a busy two-core machine the replaying process can lose the
 * CPU between two of them for longer than a fast one's (at 2 ms, CI once saw
 * one replay in ten of a race defect come out NOT REPRODUCED).
 */
const ROUND_TRIP_MS = 20;

export function databaseRoundTrip(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ROUND_TRIP_MS));
}
