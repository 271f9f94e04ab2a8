import type { CheckContext, HttpResponse, RequestSpec } from '../../lib/check/index.js';

/** What identifies a key at the token endpoint (section 4): its two parts. */
export interface KeyCredentials {
  accessKeyId: string;
  secretKey: string;
}

export interface TokenRequestOptions {
  /** The `scope` form field; absent when undefined. */
  scope?: string;
  /** The whole form instead of `grant_type=client_credentials` (and `scope`). */
  form?: Record<string, string>;
  /** Headers besides the defaults; `null` removes one. */
  headers?: Record<string, string | null>;
  query?: Record<string, string>;
  /** Who authenticates: default the key's Basic credentials. */
  auth?: RequestSpec['auth'];
}

/**
 * `POST /oauth/token` exactly as section 4 describes it (Basic credentials, a
 * form body with `grant_type=client_credentials`), or with the one change a
 * check makes. Answers the raw response: the checks of the token endpoint
 * judge it themselves, unlike `ctx.token()`, which treats a refusal as a
 * set-up failure.
 */
export function requestToken(
  ctx: CheckContext,
  key: KeyCredentials,
  options: TokenRequestOptions = {},
): Promise<HttpResponse> {
  return ctx.send(tokenRequest(ctx, key, options));
}

/** The request `requestToken` sends, for a check that sends it otherwise (racing). */
export function tokenRequest(
  ctx: Pick<CheckContext, 'path'>,
  key: KeyCredentials,
  options: TokenRequestOptions = {},
): RequestSpec {
  const form = options.form ?? {
    grant_type: 'client_credentials',
    ...(options.scope === undefined ? {} : { scope: options.scope }),
  };
  return {
    method: 'POST',
    path: ctx.path('token'),
    form,
    auth: options.auth ?? {
      kind: 'basic',
      accessKeyId: key.accessKeyId,
      secretKey: key.secretKey,
    },
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.query ? { query: options.query } : {}),
  };
}

/** The access token a response issued, if it issued one. */
export function issuedToken(res: HttpResponse): string | undefined {
  if (res.status < 200 || res.status >= 300) return undefined;
  const token = (res.json as { access_token?: unknown } | undefined)?.access_token;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}

/** A bearer call of `GET /account`, the cheapest call any valid token may make (section 4). */
export function getAccountWith(ctx: CheckContext, token: string): Promise<HttpResponse> {
  return ctx.send({ method: 'GET', path: ctx.path('account'), auth: { kind: 'bearer', token } });
}
