import type { Socket } from 'node:net';
import type { Dispatcher, buildConnector as UndiciConnector } from 'undici';
import { Agent, buildConnector, Client } from './undici.js';

/**
 * The one place the suite makes its HTTP connections: every request it sends
 * (the start-up probe, pre-flight, capabilities, the dialect probe, checks,
 * control) goes through a dispatcher made here, and through HttpClient
 * (http-client.ts), which reads, caps, times and records each exchange.
 *
 * Neither follows a redirect: undici's `request` follows none unless its
 * redirect interceptor is composed, and none is. A 3xx is an answer like any
 * other, judged where it came. On top, `credentialsGuard` refuses to send a
 * credential anywhere but the origin it belongs to, whatever URL a caller
 * built (a path taken from a target's answer included).
 */

/**
 * Idle sockets are closed well before a server closes them, so a request
 * never goes out on a socket the server is closing. A server that says
 * `Keep-Alive: timeout=N` is believed, less `KEEP_ALIVE_MARGIN_MS`; one that
 * says nothing gets `KEEP_ALIVE_IDLE_MS`, below the 5 s of Node's and many
 * proxies' defaults.
 */
const KEEP_ALIVE_IDLE_MS = 4_000;
const KEEP_ALIVE_MARGIN_MS = 2_000;

/** Where each kind of credential may go: origins (`http://host:port`). */
export interface CredentialOrigins {
  /** The target's: `Authorization` (Bearer, Basic) goes here only. */
  api?: string | undefined;
  /** The control API's: `X-Control-Token` goes here only. */
  control?: string | undefined;
}

export interface DispatcherOptions {
  origins: CredentialOrigins;
  /** Sockets at once per origin: a rate-limit check's hundreds of requests queue instead of opening hundreds. */
  connections?: number;
  /** How long a connection may take to open (default undici's 10 s). */
  connectTimeoutMs?: number;
  /** How connections are opened: a wire's own (`newWire`), which its racers share too. */
  connect?: Connector;
}

/** How the suite opens a connection to an origin: an undici connector. */
export type Connector = UndiciConnector.connector;

/** A connector whose connections give up after `timeoutMs` of trying to open. */
function newConnector(timeoutMs: number | undefined): Connector {
  return buildConnector(timeoutMs === undefined ? {} : { timeout: timeoutMs });
}

/** A dispatcher of the suite's own: an Agent with the credentials guard composed on it. */
export function newDispatcher(options: DispatcherOptions): Dispatcher {
  const agent = new Agent({
    ...(options.connections === undefined ? {} : { connections: options.connections }),
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeout: options.connectTimeoutMs }),
    keepAliveTimeout: KEEP_ALIVE_IDLE_MS,
    keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
    ...(options.connect === undefined ? {} : { connect: options.connect }),
  });
  return guardCredentials(agent, options.origins);
}

/**
 * Connections to one target: how they are opened (the racers' own too) and the
 * pool the requests go out on. A session opens a wire of its own and closes
 * it with itself, or borrows one that outlives it (the checks' worker's, which
 * its check files share: lib/check/run-shared.ts).
 */
export interface Wire {
  readonly connect: Connector;
  /** The pool, with the credentials guard composed on it. */
  readonly dispatcher: Dispatcher;
}

export function newWire(
  origins: CredentialOrigins,
  options: { connectTimeoutMs?: number | undefined; connections?: number | undefined },
): Wire {
  const connect = newConnector(options.connectTimeoutMs);
  return {
    connect,
    dispatcher: newDispatcher({
      origins,
      connect,
      ...(options.connections === undefined ? {} : { connections: options.connections }),
    }),
  };
}

/**
 * One connection to `origin` of a racer's own (last-byte.ts), opened with
 * `connect` like the session's others; `onSocket` sees each socket before
 * the first byte goes out (a target that closes the warm-up's connection gets
 * the request on a new one, seen all the same). The credentials guard is
 * composed on it as on every dispatcher of the suite.
 */
export function newRacerConnection(
  origin: URL,
  connect: Connector,
  origins: CredentialOrigins,
  onSocket: (socket: Socket) => void,
): Dispatcher {
  const client = new Client(origin.origin, {
    pipelining: 1,
    connect: (_options, callback) => {
      connect(connectOptions(origin), (error, socket) => {
        if (error || !socket) {
          callback(error ?? new Error('no connection'), null);
          return;
        }
        onSocket(socket as Socket);
        callback(null, socket);
      });
    },
  });
  return guardCredentials(client, origins);
}

/** The connect options undici's connector takes for an origin. */
function connectOptions(origin: URL): UndiciConnector.Options {
  return {
    hostname: origin.hostname.replace(/^\[|\]$/g, ''),
    host: origin.host,
    protocol: origin.protocol,
    port: origin.port || (origin.protocol === 'https:' ? '443' : '80'),
    servername: origin.hostname,
    localAddress: null,
  };
}

/** `dispatcher` (a test's MockAgent too) with the credentials guard composed on it. */
export function guardCredentials(dispatcher: Dispatcher, origins: CredentialOrigins): Dispatcher {
  return dispatcher.compose(credentialsGuard(origins));
}

/** Which origin each credential header belongs to; any other header goes anywhere. */
const OWNER: Record<string, keyof CredentialOrigins> = {
  authorization: 'api',
  'proxy-authorization': 'api',
  'x-control-token': 'control',
};

/** Refused before a byte is sent: the request names a credential another origin owns. */
export class CredentialOriginError extends Error {
  override name = 'CredentialOriginError';
}

/**
 * An undici interceptor: a request carrying `Authorization` to anywhere but
 * the target's origin, or `X-Control-Token` to anywhere but the control
 * API's, fails before it is sent.
 */
function credentialsGuard(origins: CredentialOrigins): Dispatcher.DispatcherComposeInterceptor {
  const allowed = {
    api: origins.api ? new URL(origins.api).origin : undefined,
    control: origins.control ? new URL(origins.control).origin : undefined,
  };
  // Origins as the URL standard writes them, by the text a request gave: every request is
  // checked, and parsing its origin anew each time was ~1.5 KB of garbage a request.
  const seen = new Map<string, string>();
  const originOf = (given: string): string => {
    let origin = seen.get(given);
    if (origin === undefined) {
      origin = new URL(given).origin;
      // A dispatcher talks to one or two origins; anything else is not worth keeping.
      if (seen.size >= 8) seen.clear();
      seen.set(given, origin);
    }
    return origin;
  };
  return (dispatch) => (opts, handler) => {
    const origin = opts.origin ? originOf(String(opts.origin)) : undefined;
    for (const name of headerNames(opts.headers)) {
      const owner = OWNER[name];
      if (!owner || (origin !== undefined && origin === allowed[owner])) continue;
      throw new CredentialOriginError(
        `the suite sends ${name} only to the ${owner === 'api' ? "target's" : "control API's"} origin ${allowed[owner] ?? '(none)'}, not to ${origin ?? 'an unknown origin'}`,
      );
    }
    return dispatch(opts, handler);
  };
}

/** Header names (lower case) in any form undici takes: an object, a flat array, pairs, an iterable. */
function headerNames(headers: Dispatcher.DispatchOptions['headers']): string[] {
  if (!headers) return [];
  if (Array.isArray(headers)) {
    const flat = headers.flat() as unknown[];
    return flat.filter((_, i) => i % 2 === 0).map((name) => String(name).toLowerCase());
  }
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    return [...(headers as Iterable<[string, unknown]>)].map(([name]) =>
      String(name).toLowerCase(),
    );
  }
  return Object.keys(headers).map((name) => name.toLowerCase());
}
