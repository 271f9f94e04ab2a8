import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  escapeRegExp,
  type HttpResponse,
} from '../../lib/check/index.js';
import { TokenResponseSchema } from '../schemas/token-response.js';
import { requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

/** A token response of a fresh key: the subject of every rule in this file. */
async function tokenResponse(ctx: CheckContext): Promise<{ res: HttpResponse; prefix: string }> {
  const key = await ctx.key();
  const res = await requestToken(ctx, key);
  ctx.requireStatus(res, ctx.dialect.operations.token.status);
  // Section 2: `<prefix>` is one constant of the service, the same in keys and tokens.
  const prefix = /^(.+?)_(?:test|live)_ak_/.exec(key.accessKeyId)?.[1] ?? ctx.dialect.keyPrefix;
  return { res, prefix };
}

function field(res: HttpResponse, name: string): unknown {
  const body = res.json;
  return body !== null && typeof body === 'object'
    ? (body as Record<string, unknown>)[name]
    : undefined;
}

// Section 2, access token response: four fields of the documented types.
check('TOKEN-02', async (ctx) => {
  const { res } = await tokenResponse(ctx);
  ctx.expectShape(res.json, TokenResponseSchema, '/body', res.exchange);
});

// Section 2, access token response: token_type is `Bearer`.
check('TOKEN-03', async (ctx) => {
  const { res } = await tokenResponse(ctx);
  ctx.expectEqual(
    '/body/token_type',
    'Bearer',
    field(res, 'token_type'),
    'token_type must be Bearer',
    res,
  );
});

// Section 2, access token response: expires_in is 3600 seconds (section 8: token lifetime).
check('TOKEN-04', async (ctx) => {
  const { res } = await tokenResponse(ctx);
  ctx.expectEqual(
    '/body/expires_in',
    3600,
    field(res, 'expires_in'),
    'expires_in must be 3600',
    res,
  );
});

// Section 2, access token response: access_token has the shape `<prefix>_at_<chars>`.
check('TOKEN-05', async (ctx) => {
  const { res, prefix } = await tokenResponse(ctx);
  const token = field(res, 'access_token');
  const head = `${prefix}_at_`;
  ctx.expectTrue(
    typeof token === 'string' && token.startsWith(head) && /^\S+$/.test(token.slice(head.length)),
    {
      code: 'VALUE',
      pointer: '/body/access_token',
      expected: `${head}<chars>`,
      received: describeToken(token, head),
      message: `access_token must have the shape ${head}<chars>`,
      exchange: res.exchange,
      must: { at: '/body/access_token', is: { matches: `^${escapeRegExp(head)}\\S+$` } },
    },
  );
});

// Contract section 2 (reference dialect): `odp_at_` and 24 or more base62 characters.
check('TOKEN-22', async (ctx) => {
  const { res } = await tokenResponse(ctx);
  const token = field(res, 'access_token');
  const head = `${ctx.dialect.keyPrefix}_at_`;
  ctx.expectTrue(
    typeof token === 'string' && new RegExp(`^${escapeRegExp(head)}[A-Za-z0-9]{24,}$`).test(token),
    {
      code: 'VALUE',
      pointer: '/body/access_token',
      expected: `${head} and 24+ base62 characters`,
      received: describeToken(token, head),
      message: `access_token must be ${head} followed by 24 or more base62 characters`,
      exchange: res.exchange,
      must: {
        at: '/body/access_token',
        is: { matches: `^${escapeRegExp(head)}[A-Za-z0-9]{24,}$` },
      },
    },
  );
});

/** What a token looks like, without showing it: its head and the length and alphabet of the rest. */
function describeToken(token: unknown, head: string): string {
  if (typeof token !== 'string') return `(${token === undefined ? 'missing' : typeof token})`;
  if (!token.startsWith(head))
    return `a token not starting with ${head} (${token.length} characters)`;
  const tail = token.slice(head.length);
  const alphabet = /^[A-Za-z0-9]*$/.test(tail) ? 'base62' : 'not only base62';
  return `${head}<${tail.length} characters, ${alphabet}>`;
}
