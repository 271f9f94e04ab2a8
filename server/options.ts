import type { Durability } from './store/db.js';

/** Options of `buildApp` (and of `startServer`, which adds host and port). */
export interface AppOptions {
  /** SQLite file path; `:memory:` (the default for buildApp) keeps nothing after close. */
  db?: string;
  /**
   * `durable` (default): a 2xx for a write is sent only after its commit is
   * fsynced. `relaxed`: no fsync at commit (a power loss may drop acknowledged
   * writes; a killed process does not). Only matters for a file database.
   */
  durability?: Durability;
  /**
   * `postgres://…`: keep everything in this PostgreSQL database instead of
   * SQLite, so that several instances share it (docs/sandbox.md). `db` and
   * `durability` then do not apply.
   */
  databaseUrl?: string;
  /** Connections per instance to PostgreSQL (default 10). */
  databasePoolMax?: number;
  /**
   * How long to wait for a PostgreSQL database that cannot be reached at
   * start (ms). Meanwhile the server is up, `/readyz` and every API request
   * answer 503 `api_unavailable`. Default 0: `buildApp` throws at once.
   */
  databaseWaitMs?: number;
  /** Called when `databaseWaitMs` is over and the database never answered (the CLI exits 1). */
  onDatabaseGiveUp?: (error: Error) => void;
  /**
   * Proxies (addresses or CIDRs) whose `X-Forwarded-For` names the client
   * (Fastify's `trustProxy`): the client address of IP allowlists, failed
   * token request limits and the log is then the forwarded one. Default none:
   * the peer address.
   */
  trustProxy?: readonly string[];
  /** Mounts the control protocol at `/__control` (contract §3) when given; never mounted without. */
  controlToken?: string;
  /** `{docs_url}` of problem `type` URIs. Default `https://docs.example.com` (contract §2). */
  docsUrl?: string;
  /** Request logging to stderr (credentials in URLs are masked). Default off. */
  logger?: boolean;
  /** Time limits and the connection cap of a listening server (see ServerLimits). */
  limits?: ServerLimits;
  /**
   * A target profile (the parsed JSON of a profile file, docs/profiles.md):
   * the server then speaks its dialect (paths, methods, statuses, bodies,
   * answers, key prefix, docs_url) instead of the reference's. Default none:
   * the reference dialect. A bad profile throws a ProfileError (dialect/profile.ts).
   */
  profile?: unknown;
  /**
   * A flat shipping charge in cents, added to every order's and quote's
   * total. Default 0: the reference charges no shipping (contract §2). The
   * API document allows one (the limits of §4 rule 5 apply to the total), so
   * the dialect matrix runs a server that charges it: a suite that adds up
   * prices instead of reading totals is caught.
   */
  shippingCents?: number;
  /**
   * Test-only switches that each break one rule on purpose (see defects/catalogue.ts).
   * Default none. Set only in-process, never over HTTP.
   */
  defects?: readonly string[];
}

/**
 * Connection limits of a listening server (not used by `inject`). Slow or
 * unfinished requests are closed (408 problem+json where HTTP allows),
 * ordinary clients never come near them.
 */
export interface ServerLimits {
  /** Time to receive the request line and headers. Default 10 s. */
  headersTimeoutMs?: number;
  /** Time to receive the whole request, body included. Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * Socket inactivity limit; default 0 (off): a connection that sends nothing
   * is already closed by `headersTimeoutMs`, and a per-socket timer refreshed
   * on every read and write costs throughput.
   */
  idleTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this. Default 5 s. */
  keepAliveTimeoutMs?: number;
  /** Requests served on one keep-alive connection before it is closed. Default 10,000. */
  maxRequestsPerSocket?: number;
  /** Connections open at once; more are closed at once. Default 1,024. */
  maxConnections?: number;
  /**
   * Connections one client address may hold at once (its share of
   * `maxConnections`); more from it are closed on arrival, so one address
   * cannot take every slot. Trusted proxies (`trustProxy`) are exempt.
   * Default 512: half the cap, room for a conformance run of 8 check files at
   * 32 connections each (the suite against a remote target) from one machine.
   */
  maxConnectionsPerAddress?: number;
  /**
   * How long a request may wait for its database in all (PostgreSQL): a free
   * connection, every statement, every lock. Past it, 503. Default 10 s.
   */
  databaseWaitPerRequestMs?: number;
}

export const DEFAULT_LIMITS: Required<ServerLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 0,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 10_000,
  maxConnections: 1_024,
  maxConnectionsPerAddress: 512,
  databaseWaitPerRequestMs: 10_000,
};

export const DEFAULT_DOCS_URL = 'https://docs.example.com';
