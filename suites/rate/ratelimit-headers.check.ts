import { check, type HttpResponse } from '../../lib/check/index.js';
import { requestToken } from '../support/token-request.js';
import { firstRefusal } from './burst.js';
import { sender, TOKENS, WRITES } from './limit-classes.js';
import { type Member, parseDictionary, parseItemField, parseList } from './structured-field.js';

const nonNegativeInteger = (m: Member | undefined) =>
  m !== undefined && 'bare' in m && m.bare.type === 'integer' && m.bare.value >= 0;

/**
 * What each RateLimit header of the IETF httpapi draft must parse as, when a
 * target sends it: `RateLimit-Policy` a List; `RateLimit` a List (draft 08
 * on) or a Dictionary (drafts 03 to 07), whose `r` and `t` (or `remaining`
 * and `reset`) are non-negative Integers; the older separate
 * `RateLimit-Limit` a List led by an Integer, `-Remaining` and `-Reset` Integers.
 */
const HEADERS: Record<string, (value: string) => string | undefined> = {
  'ratelimit-policy': (v) => (parseList(v)?.length ? undefined : 'a non-empty List'),
  ratelimit: (v) => {
    const list = parseList(v);
    if (list?.length) {
      for (const m of list) {
        if (!('bare' in m)) return 'a List of Items';
        for (const name of ['r', 't']) {
          const p = m.params.get(name);
          if (p !== undefined && !(p.type === 'integer' && p.value >= 0)) {
            return `parameter ${name} a non-negative Integer`;
          }
        }
      }
      return undefined;
    }
    const dict = parseDictionary(v);
    if (!dict?.size) return 'a List (or, in earlier drafts, a Dictionary)';
    for (const name of ['limit', 'remaining', 'reset']) {
      if (dict.has(name) && !nonNegativeInteger(dict.get(name)))
        return `${name} a non-negative Integer`;
    }
    return undefined;
  },
  'ratelimit-limit': (v) =>
    nonNegativeInteger(parseList(v)?.[0]) ? undefined : 'a List led by an Integer',
  'ratelimit-remaining': (v) =>
    nonNegativeInteger(parseItemField(v)) ? undefined : 'a non-negative Integer',
  'ratelimit-reset': (v) =>
    nonNegativeInteger(parseItemField(v)) ? undefined : 'a non-negative Integer',
};

// Section 8 (limits per key and class; 429 with Retry-After), IETF httpapi RateLimit header draft and
// RFC 9651: the headers are optional, but when a target sends them they must parse.
check('RATE-09', async (ctx) => {
  const key = await ctx.key();
  const write = await sender(ctx, WRITES, key);
  const responses: HttpResponse[] = [
    await requestToken(ctx, key),
    await ctx.api(key).get(ctx.path('account')),
    await write(),
  ];
  const refused = await firstRefusal(ctx, TOKENS.perMinute, await sender(ctx, TOKENS, key));
  if (refused) responses.push(refused);
  let seen = 0;
  for (const res of responses) {
    for (const [name, problem] of Object.entries(HEADERS)) {
      const value = res.header(name);
      if (value === undefined) continue;
      seen++;
      const wanted = problem(value);
      ctx.expectTrue(wanted === undefined, {
        code: 'HEADER',
        pointer: `/headers/${name}`,
        expected: `${wanted ?? ''} (RFC 9651 structured field)`,
        received: value,
        message: `${name} does not parse as ${wanted ?? 'a structured field'}`,
        exchange: res.exchange,
      });
    }
  }
  ctx.note(
    seen === 0
      ? 'the target sends no RateLimit headers (allowed)'
      : `${seen} RateLimit header values parsed`,
  );
});
