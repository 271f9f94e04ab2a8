import { formOf } from '../../sandbox/facts.js';
import { broken, honoured, type Judge, mediaTypeOf, named } from '../judge.js';

/**
 * The token request itself (API document sections 4 and 5): its Basic
 * credentials, its media type, grant_type and scope, and how many a minute.
 */
const tokenRequests: Judge['occasions'] = (traffic) =>
  traffic.all.filter((ex) => ex.kind === 'token');

export const basicCredentials: Judge = {
  ruleId: 'CLIENT-01',
  occasions: tokenRequests,
  judge(ex, traffic) {
    const value = ex.requestHeaders.authorization;
    if (value === undefined) return broken(`${named(ex)} has no Authorization header`, ex.id);
    const match = /^basic[ \t]+(\S+)\s*$/i.exec(value);
    if (!match) return broken(`${named(ex)} has Authorization, but not Basic credentials`, ex.id);
    const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
    const { accessKeyId, secretKey } = traffic.key;
    // RFC 6749 §2.3.1: each part may be form-encoded before base64; the key's characters need none.
    const split = decoded.indexOf(':');
    const id = safeDecode(decoded.slice(0, split));
    const secret = safeDecode(decoded.slice(split + 1));
    if (split === -1 || id !== accessKeyId || secret !== secretKey) {
      return broken(
        `${named(ex)}: the Basic credentials are not base64(Access Key ID:Secret Key) of the key`,
        ex.id,
      );
    }
    return honoured(`${named(ex)} sent Basic credentials of the key`, ex.id);
  },
};

export const formBody: Judge = {
  ruleId: 'CLIENT-02',
  occasions: tokenRequests,
  judge(ex) {
    const type = mediaTypeOf(ex);
    return type === 'application/x-www-form-urlencoded'
      ? honoured(`${named(ex)} was sent as application/x-www-form-urlencoded`, ex.id)
      : broken(
          `${named(ex)} was sent with Content-Type ${type === undefined ? '(none)' : type}, not application/x-www-form-urlencoded`,
          ex.id,
        );
  },
};

export const grantType: Judge = {
  ruleId: 'CLIENT-03',
  occasions: tokenRequests,
  judge(ex) {
    const values = formOf(ex).getAll('grant_type');
    if (values.length === 1 && values[0] === 'client_credentials')
      return honoured(`${named(ex)} sent grant_type=client_credentials`, ex.id);
    const said =
      values.length === 0
        ? 'no grant_type'
        : `grant_type ${values.map((v) => JSON.stringify(v)).join(', ')}`;
    return broken(`${named(ex)} sent ${said}`, ex.id);
  },
};

export const scopeSubset: Judge = {
  ruleId: 'CLIENT-04',
  occasions: (traffic) => tokenRequests(traffic).filter((ex) => formOf(ex).has('scope')),
  judge(ex, traffic) {
    const values = formOf(ex).getAll('scope');
    const scope = values[0] ?? '';
    if (values.length > 1) return broken(`${named(ex)} sent scope ${values.length} times`, ex.id);
    // RFC 6749 §3.2: a parameter sent without a value is as if omitted.
    if (scope === '') return honoured(`${named(ex)} sent an empty scope (as if none)`, ex.id);
    if (!/^\S+( \S+)*$/.test(scope))
      return broken(
        `${named(ex)}: scope ${JSON.stringify(scope)} is not a list separated by single spaces`,
        ex.id,
      );
    const foreign = scope.split(' ').filter((s) => !traffic.key.scopes.includes(s));
    if (foreign.length > 0)
      return broken(
        `${named(ex)} asked for ${foreign.map((s) => JSON.stringify(s)).join(', ')}, which the key does not have`,
        ex.id,
      );
    return honoured(`${named(ex)} asked for ${JSON.stringify(scope)}, scopes the key has`, ex.id);
  },
};

/** A minute is any 60 seconds: the document does not say where one begins, and a client cannot know. */
const MINUTE_MS = 60_000;
const TOKENS_A_MINUTE = 20;

export const tokensAMinute: Judge = {
  ruleId: 'CLIENT-08',
  occasions: tokenRequests,
  judge(ex, traffic) {
    const window = tokenRequests(traffic).filter(
      (e) => e.receivedMs <= ex.receivedMs && e.receivedMs > ex.receivedMs - MINUTE_MS,
    );
    if (window.length <= TOKENS_A_MINUTE)
      return honoured(
        `${window.length} token requests in the 60 seconds up to ${named(ex)}`,
        ex.id,
      );
    const seconds = ((ex.receivedMs - (window[0]?.receivedMs ?? ex.receivedMs)) / 1000).toFixed(1);
    return broken(
      `${named(ex)} was the ${ordinal(window.length)} token request in ${seconds} seconds (at most 20 a minute)`,
      ex.id,
      ...window.filter((e) => e !== ex).map((e) => e.id),
    );
  },
};

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th'}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
