import { basicAuthorization } from '../client/build-request.js';
import { type HttpClient, OVER_CAP_WORDS } from '../client/http-client.js';
import { jsonValue } from '../evidence/json-text.js';
import { type ProbeAnswer, sendOrAbort } from './probe-target.js';
import { RunAborted } from './run-aborted.js';

/**
 * Before any check: is this the API at all, and does the partner
 * key work? A wrong key or a server that is not this API is the user's
 * matter, not the target's failure: both end the run with exit 2 and one
 * line, instead of minutes of checks that blame the target.
 */

/** `application/json`, `application/problem+json`, any `+json`: what every answer of this API is. */
const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * The reason the answer shows the target is not this API (HTML, plain text,
 * anything but JSON), or undefined. An answer that claims JSON stays the
 * checks' business, however broken its body.
 */
export function notThisApi(answer: ProbeAnswer): string | undefined {
  const type = answer.contentType?.trim();
  if (type) {
    if (JSON_MEDIA.test(type)) return undefined;
  } else if (answer.over || answer.text.trim() === '' || jsonValue(answer.text) !== undefined) {
    return undefined;
  }
  return `not this API: ${answer.method} ${answer.url} answered HTTP ${answer.status} with ${
    type ? `Content-Type ${JSON.stringify(type)}` : 'no Content-Type and a body that is not JSON'
  }, where the Partner Ordering API answers JSON or problem+json: is --target (TARGET_BASE_URL) the origin of the API server? (the suite adds /api/on-demand/v1)`;
}

/** Ends the run when the probe's answer is not this API. */
export function requireThisApi(answer: ProbeAnswer): void {
  const reason = notThisApi(answer);
  if (reason) throw new RunAborted(reason);
}

export interface PartnerPreflight {
  tokenUrl: string;
  accessKeyId: string;
  secretKey: string;
  timeoutMs: number;
}

/**
 * One token request with the partner key (API document section 4, POST
 * /oauth/token). 200 with an `access_token`: go on. 401 or 403: the key is
 * refused; the run ends naming the Access Key ID (never the secret) and the
 * target's answer. Any other answer is left to the checks (the TOKEN rules
 * judge the endpoint), with what it answered as a notice.
 */
export async function preflightPartnerKey(
  http: HttpClient,
  key: PartnerPreflight,
): Promise<{ notice?: string; scopes?: string[] }> {
  const response = await sendOrAbort(
    http,
    {
      method: 'POST',
      url: key.tokenUrl,
      headers: {
        authorization: basicAuthorization(key.accessKeyId, key.secretKey),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
      channel: 'api',
    },
    `the token endpoint ${key.tokenUrl}`,
    key.timeoutMs,
  );
  const answer: ProbeAnswer = {
    method: 'POST',
    url: key.tokenUrl,
    status: response.status,
    contentType: response.headers['content-type'],
    text: response.text,
    ...(response.over ? { over: true as const } : {}),
  };
  requireThisApi(answer);
  const body = answer.over ? undefined : parseObject(answer.text);
  if (answer.status === 200 && typeof body?.access_token === 'string') {
    // The scopes granted (section 4: all of the key's when none is asked for): the run's prediction uses them.
    return typeof body.scope === 'string' ? { scopes: body.scope.split(' ').filter(Boolean) } : {};
  }
  const said = describeAnswer(answer, body, key.secretKey);
  if (answer.status === 401 || answer.status === 403) {
    throw new RunAborted(
      `the target refused the partner key ${key.accessKeyId} at POST ${key.tokenUrl}: ${said}. ` +
        'Nothing was checked and nothing is blamed on the target. A wrong PARTNER_ACCESS_KEY_ID or PARTNER_SECRET_KEY ' +
        '(a typo, a rolled or revoked key, a key of another environment) gets exactly this 401 or 403; ' +
        'to tell it from a broken token endpoint, request a token with a key you know works (or the same key from a client you trust): ' +
        'if that one is refused too, the token endpoint is at fault.',
    );
  }
  return {
    notice: `the partner key's first token request (POST ${key.tokenUrl}) answered ${said}: the TOKEN checks will judge the token endpoint; checks that need a token may end in error`,
  };
}

function describeAnswer(
  answer: ProbeAnswer,
  body: Record<string, unknown> | undefined,
  secret: string,
): string {
  const parts = [`HTTP ${answer.status}`];
  if (answer.over) parts.push(OVER_CAP_WORDS);
  for (const field of ['code', 'title', 'detail'] as const) {
    const value = body?.[field];
    if (typeof value === 'string' && value.length > 0)
      parts.push(`${field} ${JSON.stringify(value.slice(0, 200))}`);
  }
  // A target may echo what it was sent: the secret never reaches the message.
  return parts.join(', ').split(secret).join('[secret]');
}

function parseObject(text: string): Record<string, unknown> | undefined {
  const value = jsonValue(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
