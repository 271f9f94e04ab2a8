import { randomBytes } from 'node:crypto';
import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  HarnessError,
  type HttpResponse,
  type Key,
} from '../../lib/check/index.js';
import { allAtOnce, together } from '../support/all-at-once.js';
import { expectNoToken } from '../support/expect-no-token.js';
import { issuedToken, requestToken, type TokenRequestOptions } from '../support/token-request.js';
import { challengeOf } from '../support/www-authenticate.js';

checksUseOwnAccounts();

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 characters: credentials the target never issued. */
function base62(length: number): string {
  return [...randomBytes(length)].map((byte) => BASE62[byte % 62]).join('');
}

/** The key's prefix and mode as its Access Key ID shows them (section 2). */
function partsOf(ctx: CheckContext, key: Key): { prefix: string; mode: string } {
  const match = /^(.+?)_(test|live)_ak_/.exec(key.accessKeyId);
  return { prefix: match?.[1] ?? ctx.dialect.keyPrefix, mode: match?.[2] ?? key.mode };
}

interface BadCredentials {
  what: string;
  res: HttpResponse;
}

/** Token requests whose Basic credentials are missing or wrong (section 4: Basic credentials are required), sent at once. */
function badCredentialRequests(ctx: CheckContext, key: Key): Promise<BadCredentials[]> {
  const { prefix, mode } = partsOf(ctx, key);
  const wrongSecret = `${prefix}_${mode}_sk_${base62(32)}`;
  const cases: { what: string; options: TokenRequestOptions }[] = [
    { what: 'no Authorization header', options: { auth: { kind: 'none' } } },
    {
      what: 'an Access Key ID the target never issued',
      options: {
        auth: {
          kind: 'basic',
          accessKeyId: `${prefix}_${mode}_ak_${base62(24)}`,
          secretKey: wrongSecret,
        },
      },
    },
    {
      what: "the key's Access Key ID with a wrong Secret Key",
      options: { auth: { kind: 'basic', accessKeyId: key.accessKeyId, secretKey: wrongSecret } },
    },
    {
      what: 'Basic credentials that are not base64',
      options: { auth: { kind: 'none' }, headers: { authorization: 'Basic %%%' } },
    },
  ];
  return allAtOnce(cases, async ({ what, options }) => ({
    what,
    res: await requestToken(ctx, key, options),
  }));
}

/** Token requests with a valid key whose grant_type is missing or not client_credentials, sent at once. */
function badGrantRequests(
  ctx: CheckContext,
  key: Key,
): Promise<(BadCredentials & { missing: boolean })[]> {
  const cases: { what: string; form: Record<string, string>; missing: boolean }[] = [
    { what: 'no grant_type', form: {}, missing: true },
    { what: 'an empty grant_type', form: { grant_type: '' }, missing: true },
    { what: 'grant_type=password', form: { grant_type: 'password' }, missing: false },
    {
      what: 'grant_type=authorization_code',
      form: { grant_type: 'authorization_code' },
      missing: false,
    },
  ];
  return allAtOnce(cases, async ({ what, form, missing }) => ({
    what,
    missing,
    res: await requestToken(ctx, key, { form }),
  }));
}

// Section 4: form field grant_type is required, value client_credentials.
check('TOKEN-09', async (ctx) => {
  const key = await ctx.key();
  for (const { what, res } of await badGrantRequests(ctx, key)) expectNoToken(ctx, res, what);
});

// Section 4: the token request carries `Authorization: Basic base64(AccessKeyID:SecretKey)`.
check('TOKEN-10', async (ctx) => {
  const key = await ctx.key();
  for (const { what, res } of await badCredentialRequests(ctx, key)) expectNoToken(ctx, res, what);
});

// Section 2: the Access Key ID "Identifies the key"; its Secret Key is that key's alone. Another valid
// key's secret under it (of the same account, or of another) gets no token: a server that finds the
// key by its secret, or by the account the ID names, issues one.
check('TOKEN-23', async (ctx) => {
  const [named, sibling, stranger] = await together(
    ctx.key(),
    ctx.key(),
    ctx.newAccount().then((account) => ctx.key({ account })),
  );
  const pairs: { what: string; accessKeyId: string; secretKey: string }[] = [
    {
      what: "a key's Access Key ID with the Secret Key of another key of its account",
      accessKeyId: named.accessKeyId,
      secretKey: sibling.secretKey,
    },
    {
      what: 'the same pair the other way round',
      accessKeyId: sibling.accessKeyId,
      secretKey: named.secretKey,
    },
    {
      what: "a key's Access Key ID with the Secret Key of a key of another account",
      accessKeyId: named.accessKeyId,
      secretKey: stranger.secretKey,
    },
  ];
  // The key's own pair first: refusals say nothing if the target issues no token at all.
  const [own, ...answers] = await together(
    requestToken(ctx, named),
    ...pairs.map(({ accessKeyId, secretKey }) =>
      requestToken(ctx, named, { auth: { kind: 'basic', accessKeyId, secretKey } }),
    ),
  );
  if (issuedToken(own) === undefined) {
    throw new HarnessError(
      'HARNESS_SETUP',
      `the key's own credentials got no token (HTTP ${own.status}, evidence #${own.exchange}): TOKEN-01 judges that; the mixed pairs say nothing`,
    );
  }
  for (const [i, { what }] of pairs.entries()) expectNoToken(ctx, answers[i] as HttpResponse, what);
});

// Section 4 (the token endpoint is OAuth 2.0, section 5), RFC 6749 §5.2: refusals name the OAuth error.
check('TOKEN-17', async (ctx) => {
  const key = await ctx.key();
  const expectError = (res: HttpResponse, expected: string, what: string) => {
    const error = (res.json as { error?: unknown } | undefined)?.error;
    ctx.expectEqual(
      '/body/error',
      expected,
      error ?? '(missing)',
      `${what}: error must be ${expected} (RFC 6749 §5.2)`,
    );
  };
  // The refusals, and the key with fewer scopes the invalid_scope case needs, all at once.
  const [credentials, grants, narrow] = await together(
    badCredentialRequests(ctx, key),
    badGrantRequests(ctx, key),
    ctx.has('keys') ? ctx.key({ scopes: ['catalog:read'] }) : Promise.resolve(undefined),
  );
  for (const { what, res } of credentials) {
    // RFC 6749 §5.2: client authentication failed (no, unknown or wrong credentials) is invalid_client.
    if (res.status >= 400) expectError(res, 'invalid_client', what);
  }
  for (const { what, res, missing } of grants) {
    // A missing parameter is invalid_request; a grant type the server does not support, unsupported_grant_type.
    if (res.status >= 400)
      expectError(res, missing ? 'invalid_request' : 'unsupported_grant_type', what);
  }
  if (narrow) {
    const res = await requestToken(ctx, narrow, { scope: 'catalog:read orders:write' });
    if (res.status >= 400) expectError(res, 'invalid_scope', 'a scope beyond the key');
  } else {
    ctx.note('the invalid_scope case needs a key made with fewer scopes (control feature "keys")');
  }
});

// Contract section 2: bad Basic credentials get 401 unauthorized with a Basic challenge.
check('TOKEN-19', async (ctx) => {
  const key = await ctx.key();
  for (const { what, res } of await badCredentialRequests(ctx, key)) {
    ctx.expectProblem(res, { status: 401, code: 'unauthorized' });
    ctx.expectHeader(
      res,
      'www-authenticate',
      (value) => challengeOf(value, 'Basic') !== undefined,
      `a Basic challenge (${what})`,
    );
  }
});

// Contract section 2: a missing or unsupported grant_type gets 422 validation_failed.
check('TOKEN-20', async (ctx) => {
  const key = await ctx.key();
  for (const { res } of await badGrantRequests(ctx, key)) {
    ctx.expectProblem(res, { status: 422, code: 'validation_failed' });
  }
});
