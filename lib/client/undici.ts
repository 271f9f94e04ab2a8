import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/**
 * The parts of undici the suite uses, each loaded from its own module rather
 * than through the package's index. The index also loads what the suite never
 * uses (fetch, WebSocket, EventSource, the cache, mocks, proxies), and it is
 * loaded on both threads of a run, the CLI's and the checks' worker.
 * Measured, eight alternating pairs of full runs against the bundled
 * reference: 0.7 CPU-seconds and ~9 MB of peak memory less, 6.43 s wall
 * against 6.85 s (median).
 *
 * These are the very files the index re-exports, so the classes are the same
 * (an `instanceof` holds whichever way a module loaded them, a test's
 * MockAgent included), at the version package-lock.json pins;
 * test/engine/undici-parts.test.ts fails if an upgrade moves one.
 */
const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const Client = require('undici/lib/dispatcher/client.js') as typeof Undici.Client;
export const buildConnector = require('undici/lib/core/connect.js') as typeof Undici.buildConnector;
export const errors = require('undici/lib/core/errors.js') as typeof Undici.errors;

/** undici's request as a dispatcher's method (the index puts it on Dispatcher's prototype). */
const requestOn = require('undici/lib/api/api-request.js') as (
  this: Undici.Dispatcher,
  options: Undici.Dispatcher.RequestOptions,
) => Promise<Undici.Dispatcher.ResponseData>;

export type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & {
  dispatcher: Undici.Dispatcher;
};

/**
 * undici's `request` with a URL: what the index's does with a URL and a
 * dispatcher (an origin and a path with its query, sent through that
 * dispatcher).
 */
export function request(
  url: URL,
  { dispatcher, ...options }: RequestOptions,
): Promise<Undici.Dispatcher.ResponseData> {
  return requestOn.call(dispatcher, {
    ...options,
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
  });
}
