/**
 * What the HTTP layer sends and answers, and the key it authenticates with.
 * The check layer re-exports these; the client and control layers import
 * them from here (imports flow one way: lower layers never import lib/check).
 */

/** An API key as the suite holds it. The secret never leaves the engine in clear. */
export interface Key {
  accessKeyId: string;
  secretKey: string;
  mode: 'test' | 'live';
  scopes: string[];
  /** The control account that owns it; undefined for the partner key. */
  accountId?: string;
  /**
   * Scopes to ask for at the token endpoint by default. Set when the partner
   * key stands in for a key with fewer scopes: its tokens ask for the subset.
   */
  tokenScopes?: string[];
}

/** Who authenticates a request. */
export type Auth =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  | { kind: 'basic'; accessKeyId: string; secretKey: string }
  /** A token from the token manager for this key (and scope subset). */
  | { kind: 'key'; key: Key; scopes?: string[] };

export interface RequestSpec {
  method: string;
  /** Relative to the API base (`/orders`), may carry a query string; or absolute from the origin when `raw` is set. */
  path: string;
  query?: Record<string, string>;
  /** Exactly these headers besides the defaults; `null` removes a default (e.g. content-type). */
  headers?: Record<string, string | string[] | null>;
  /** A JSON body: serialized, `Content-Type: application/json` unless headers say otherwise. */
  json?: unknown;
  /** A raw body, sent byte for byte. */
  body?: string | Uint8Array;
  /** A form body (`application/x-www-form-urlencoded`). */
  form?: Record<string, string>;
  auth?: Auth;
  /** Treat `path` as relative to the origin, not the API base. */
  raw?: boolean;
}

export interface HttpResponse {
  /** Path and query as sent, from the origin (`/api/on-demand/v1/orders?limit=2`). */
  requestPath: string;
  status: number;
  /** Lower-cased names; repeated headers joined with `, ` except set-cookie. */
  headers: Record<string, string>;
  header(name: string): string | undefined;
  text: string;
  /** The parsed body when it is JSON (any media type); `undefined` otherwise. */
  json: unknown;
  /**
   * Why the suite did not read the body as JSON though the target sent one:
   * `answer over 2 MiB …`, `JSON nested deeper than 100 levels …`. The
   * target's answer, judged as such: a check that needs the body fails with
   * these words.
   */
  unreadable?: string;
  /** Id of the evidence exchange. */
  exchange: number;
  durationMs: number;
}
