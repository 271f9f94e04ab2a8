/**
 * The numbers the API document fixes, in one place, each with its section.
 * Everything time-based is measured on the ACCOUNT clock (contract §3), so the
 * suite moves time through the control API instead of sleeping.
 */

/** §9: the version is part of the path. */
export const API_BASE = '/api/on-demand/v1';

/** Contract §3: the control protocol lives outside the API's base path. */
export const CONTROL_BASE = '/__control';

/** Contract §2: the fixed prefix of keys and tokens. */
export const KEY_PREFIX = 'odp';

/** Length of the random base62 part of ids and credentials (contract §2: 24+). */
export const ACCESS_KEY_ID_CHARS = 24;
export const SECRET_CHARS = 40;
export const TOKEN_CHARS = 40;
export const OBJECT_ID_CHARS = 24;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** §5.2, §8: a token lasts 3600 seconds; it is valid while at most that old (contract §2). */
export const TOKEN_TTL_SECONDS = 3600;

/** §8: requests per minute per key, by class. Fixed 60-second windows (contract §2). */
export const DEFAULT_RATE_LIMITS = { read: 300, write: 60, token: 20 } as const;
export const RATE_WINDOW_MS = 60_000;

/** §3: up to 10 keys may be active at once. */
export const MAX_ACTIVE_KEYS = 10;

/** §4, §8: Idempotency-Key up to 255 characters. */
export const IDEMPOTENCY_KEY_MAX = 255;

/** Contract §2: idempotency records are kept at least 24 hours. */
export const IDEMPOTENCY_RETENTION_MS = DAY_MS;

/** §6, §8: webhook endpoints per mode. */
export const WEBHOOK_ENDPOINTS_PER_MODE = 5;

/** §3: a new live key's first 24 hours: at most 3 orders or $500.00. */
export const PROBATION = { durationMs: DAY_MS, maxOrders: 3, maxTotalCents: 50_000 } as const;

/** §3, §8: the order cancel window. */
export const CANCEL_WINDOW_MS = DAY_MS;

/** Reference choice: quotes stay valid for 24 hours. */
export const QUOTE_TTL_MS = DAY_MS;

/** Contract §2: lists take `limit` 1..100, default 20. */
export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** Largest request body accepted; larger gets 413. An order of 100 items is about 10 KB. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/** Deepest JSON nesting accepted; the deepest valid body is 3 levels. */
export const MAX_JSON_DEPTH = 32;

/** Realm of the `WWW-Authenticate` challenges (RFC 9110 §11.6.1). */
export const AUTH_REALM = 'partner-ordering-api';

/**
 * Reference choice: failed token requests per client address and minute,
 * whatever key they name (limits/failed-token-requests.ts; a known key's
 * failures are limited per key and address as well, never in the key's own
 * §8 budget, so nobody else's failures can lock its owner out).
 */
export const FAILED_TOKEN_REQUESTS_PER_ADDRESS = 60;
