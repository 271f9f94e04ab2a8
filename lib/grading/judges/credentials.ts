import type { ClientExchange } from '../../sandbox/exchange.js';
import { bearerOf, jsonOf } from '../../sandbox/facts.js';
import { broken, honoured, type Judge, named } from '../judge.js';
import type { Traffic } from '../traffic.js';

/**
 * Where credentials travel (API document sections 5 and 7): the Secret Key
 * only in the Basic header of a token request, no credential in a URL, a
 * Bearer token on every other call.
 */

export const secretOnlyInBasic: Judge = {
  ruleId: 'CLIENT-05',
  occasions: (traffic) => [...traffic.all],
  judge(ex, traffic) {
    const where = secretPlaces(ex, traffic);
    if (where.length > 0)
      return broken(`${named(ex)} carried the Secret Key in ${where.join(', ')}`, ex.id);
    return honoured(`${named(ex)} carried the Secret Key nowhere but where it belongs`, ex.id);
  },
};

export const noCredentialsInUrl: Judge = {
  ruleId: 'CLIENT-06',
  occasions: (traffic) => [...traffic.all],
  judge(ex, traffic) {
    const url = decoded(ex.url);
    const found: string[] = [];
    if (contains(url, traffic.key.secretKey)) found.push('the Secret Key');
    if ([...traffic.tokens.keys()].some((token) => contains(url, token)))
      found.push('an access token');
    if (contains(url, traffic.key.accessKeyId)) found.push('the Access Key ID');
    if (found.length > 0)
      return broken(`${named(ex)}: its URL holds ${found.join(' and ')}`, ex.id);
    return honoured(`${named(ex)}: no credential in its URL`, ex.id);
  },
};

export const bearerOnEveryCall: Judge = {
  ruleId: 'CLIENT-07',
  occasions: (traffic) => traffic.all.filter((ex) => ex.kind === 'call'),
  judge(ex) {
    if (bearerOf(ex) !== undefined) return honoured(`${named(ex)} carried a Bearer token`, ex.id);
    const value = ex.requestHeaders.authorization;
    const said =
      value === undefined
        ? 'no Authorization header'
        : `Authorization with the scheme ${JSON.stringify(value.split(/\s/)[0] ?? '')} and no Bearer token`;
    return broken(`${named(ex)} had ${said}`, ex.id);
  },
};

/** Where the Secret Key is in a request, in its plain and encoded forms; empty when nowhere it should not be. */
function secretPlaces(ex: ClientExchange, traffic: Traffic): string[] {
  const { secretKey, accessKeyId } = traffic.key;
  const forms = [
    secretKey,
    encodeURIComponent(secretKey),
    Buffer.from(secretKey).toString('base64'),
    Buffer.from(`${accessKeyId}:${secretKey}`).toString('base64'),
  ];
  const holds = (text: string | undefined) =>
    text !== undefined &&
    (forms.some((form) => text.includes(form)) || contains(decoded(text), secretKey));
  const places: string[] = [];
  if (holds(ex.url)) places.push('the URL');
  for (const [name, value] of Object.entries(ex.requestHeaders)) {
    if (name === 'authorization') {
      const basicOfToken = ex.kind === 'token' && /^basic[ \t]/i.test(value);
      if (!basicOfToken && holds(value)) places.push('the Authorization header');
    } else if (holds(value)) places.push(`the ${name} header`);
  }
  const body = ex.requestBody;
  if (holds(body) || jsonStrings(body).some((s) => holds(s))) places.push('the body');
  return places;
}

/** Every string of a JSON body (JSON escapes undone), so `\u005f` hides nothing. */
function jsonStrings(text: string | undefined): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(jsonOf(text));
  return out;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}

function contains(text: string, value: string): boolean {
  return value.length > 0 && text.includes(value);
}
