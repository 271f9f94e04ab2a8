import type { Server } from 'node:http';

/**
 * A client that sends a complete request and then closes its sending side
 * (a half-close: `shutdown(SHUT_WR)`, `curl` with stdin at end of file)
 * still gets its answer. By default Node aborts such a request and ends the
 * socket before the answer is written: the order was placed, nobody was told.
 * With half-open sockets allowed, the answer is written, then the connection
 * closed (Node marks the last response of the half-closed socket).
 */
export function allowHalfClose(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}
