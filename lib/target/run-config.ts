import type { Capability } from '../../rules/index.js';
import type { Dialect } from './dialect.js';

/**
 * What the profile shapes that a request of the dialect probe showed the
 * target taking: `orderBody` (an order placed), `quoteBody` (a quote made).
 */
export type DialectSeen = 'orderBody' | 'quoteBody';

/**
 * Everything a check needs to know about the run. Built once by the CLI from
 * flags, environment and profile (lib/config), then handed to every suite
 * worker over the run's channel (lib/client/run-config-channel.ts). Serializable.
 * It holds secrets (control token, partner secret): never write it anywhere.
 */
export interface RunConfig {
  /** The target's origin, e.g. `http://127.0.0.1:4010`. */
  origin: string;
  /** Origin plus `/api/on-demand/v1`. */
  apiBaseUrl: string;
  /** Base URL of the control protocol, when the run has one. */
  controlUrl?: string;
  controlToken?: string;
  /** The key used when there is no control API (PARTNER_ACCESS_KEY_ID / PARTNER_SECRET_KEY). */
  partnerKey?: { accessKeyId: string; secretKey: string };
  /**
   * When the preflight's token request with the partner key was answered (ms
   * since the epoch): the key's token window holds it, so the checks' pacer
   * counts it too.
   */
  partnerPreflightAt?: number;
  /**
   * The partner key's requests of the dialect probe (lib/probe), by class and
   * when each was answered (ms since the epoch): the checks' pacer counts
   * them too, so the key's windows hold what the run sent before the checks.
   */
  partnerProbeSent?: { kind: 'read' | 'write' | 'token'; at: number }[];
  /**
   * What the dialect probe saw the target take in the profile's shape (lib/probe):
   * a later refusal of a valid request of that shape is the target's, judged
   * on the check's rule, never a profile gap. Absent: nothing was seen.
   */
  dialectSeen?: DialectSeen[];
  /** Control features the target announced, plus `live_orders` when `--allow-live-orders` allows (without it no order is ever placed with a live key). */
  capabilities: Capability[];
  /** Seed of every generated input; the same seed replays the same inputs. */
  seed: number;
  /** fast-check runs per property. */
  numRuns: number;
  /**
   * How far the checks go side by side (`--concurrency` or the runner's
   * default: lib/plan/concurrency.ts). Above 1, the checks of a file on
   * accounts of their own run side by side (`checksUseOwnAccounts`), and a
   * generated property whose runs each have an account of their own has this
   * many in flight (`CheckContext.propertyInLanes`). It is also the check
   * files at a time, but against the bundled reference, whose default runs
   * one file at a time with its checks side by side. Absent: 1.
   */
  concurrency?: number;
  /**
   * Check files at a time (lib/plan/concurrency.ts): 1 against the bundled
   * reference and in partner mode, whatever `concurrency` is. Above 1, the
   * workers: each runs a lane of the bundled check files side by side
   * (`lanes`), or one file at a time when the files are the user's. Above 1 the
   * target is elsewhere and a check's waits are round trips: a burst of
   * requests then keeps as many in flight as a worker has sockets (the
   * rate-limit checks' suites/rate/burst.ts). Absent: `concurrency`.
   */
  filesAtATime?: number;
  /**
   * The check files of each worker's lane (lib/plan/lanes.ts), paths below `suites/`: set
   * when a run of several files at a time runs the bundled checks in lanes
   * (lib/runner/check-lanes.ts). Absent: vitest's files are the check files or the folders'.
   */
  lanes?: string[][];
  /**
   * The channel on which a check file hands keys it no longer needs to the
   * CLI's main thread to revoke (lib/control/revocations.ts), so that it need
   * not wait for them. Absent: the file revokes them itself and waits at its end.
   */
  revocations?: string;
  /**
   * The channel on which a check file asks the CLI's main thread for an
   * account made ahead (lib/control/ready-accounts.ts): set when files run
   * side by side against a target with accounts and keys. Absent: each
   * check makes its own.
   */
  readyAccounts?: string;
  /** Timeout of every single request. */
  requestTimeoutMs: number;
  dialect: Dialect;
}
