import {
  addressOf,
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type HttpResponse,
  type Key,
  quoteBodyOf,
  withAddress,
} from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { expectNoToken } from '../support/expect-no-token.js';
import { problemCode } from '../support/problem-text.js';
import { requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

/**
 * Calls that carry a credential in the query string and are valid in every
 * other way (a valid bearer header), so the credential in the URL is the one
 * thing to refuse: under its usual name and under the name of an ordinary
 * query parameter (section 5, rule 6 refuses credentials anywhere in the URL).
 */
async function callsWithCredentialInQuery(
  ctx: CheckContext,
  key: Key,
  credential: string,
  usualName: string,
): Promise<{ what: string; res: HttpResponse }[]> {
  const api = ctx.api(key);
  const [account, orders] = await together(
    api.get(ctx.path('account'), { [usualName]: credential }),
    api.get(ctx.path('orders'), { starting_after: credential }),
  );
  return [
    { what: `GET /account?${usualName}=…`, res: account },
    { what: 'GET /orders?starting_after=…', res: orders },
  ];
}

// Section 5, rule 6 and section 7 (400 credentials_in_url: "A token, key or secret is in the URL").
check('URL-01', async (ctx) => {
  const key = await ctx.key();
  const token = await ctx.token(key);
  // The token only in the URL (below) is sent beside the calls that also carry it in the header.
  const [calls, alone] = await together(
    callsWithCredentialInQuery(ctx, key, token, 'access_token'),
    ctx.send({ method: 'GET', path: ctx.path('account'), query: { access_token: token } }),
  );
  for (const { what, res } of calls) {
    if (!ctx.expectProblem(res, { status: 400, code: 'credentials_in_url' })) {
      ctx.note(`${what} with an access token in the query was not refused as credentials_in_url`);
    }
  }
  // The token only in the URL also lacks the Authorization header (section 5, rule 1): both rules
  // apply and the document does not order them, so either refusal is accepted, never service.
  const code = problemCode(alone);
  ctx.expectTrue(
    (alone.status === 400 && code === 'credentials_in_url') ||
      (alone.status === 401 && code === 'unauthorized'),
    {
      code: 'STATUS',
      pointer: '/status',
      expected: '400 credentials_in_url (or 401 unauthorized)',
      received: `${alone.status}${code ? ` ${code}` : ''}`,
      message: 'a call authenticated only by a token in the URL must be refused',
      exchange: alone.exchange,
    },
  );
});

// Section 5, rule 6 and section 7: a Secret Key in the URL, at the token endpoint and in API calls.
// Only a key made for this check: a secret sent in a URL is burnt ("the key should then be rolled").
check('URL-02', async (ctx) => {
  const key = await ctx.key();
  const tokenRes = await requestToken(ctx, key, { query: { client_secret: key.secretKey } });
  ctx.expectProblem(tokenRes, { status: 400, code: 'credentials_in_url' });
  expectNoToken(ctx, tokenRes, 'a token request with client_secret in the URL');
  for (const { what, res } of await callsWithCredentialInQuery(
    ctx,
    key,
    key.secretKey,
    'client_secret',
  )) {
    if (!ctx.expectProblem(res, { status: 400, code: 'credentials_in_url' })) {
      ctx.note(`${what} with a Secret Key in the query was not refused as credentials_in_url`);
    }
  }
});

// Contract "Readings": an Access Key ID alone in a URL is the dialect's to decide; the reference refuses it.
check('URL-05', async (ctx) => {
  const key = await ctx.key();
  const res = await ctx.api(key).get(ctx.path('account'), { access_key_id: key.accessKeyId });
  ctx.expectProblem(res, { status: 400, code: 'credentials_in_url' });
});

// Section 7 (credentials_in_url; the remedy is to roll the key, not to learn it back): an answer
// refusing a credential does not repeat it, in its body or headers.
check('URL-04', async (ctx) => {
  const key = await ctx.key();
  const token = await ctx.token(key);
  const withKeys = ctx.has('keys');
  if (!withKeys)
    ctx.note('Secret Key cases need a key made for the check (control feature "keys")');
  // Every case at once: none depends on another's answer.
  const [tokenCalls, secretCalls, quote] = await together(
    callsWithCredentialInQuery(ctx, key, token, 'access_token'),
    withKeys
      ? callsWithCredentialInQuery(ctx, key, key.secretKey, 'client_secret')
      : Promise.resolve([]),
    withKeys ? quoteWithSecret(ctx, key) : Promise.resolve(undefined),
  );
  const cases: { credential: string; kind: string; res: HttpResponse }[] = [
    ...tokenCalls.map(({ what, res }) => ({
      credential: token,
      kind: `access token (${what})`,
      res,
    })),
    ...secretCalls.map(({ what, res }) => ({
      credential: key.secretKey,
      kind: `Secret Key (${what})`,
      res,
    })),
    ...(quote
      ? [{ credential: key.secretKey, kind: 'Secret Key (in a quote body)', res: quote }]
      : []),
  ];
  for (const { credential, kind, res } of cases) {
    const inHeaders = Object.values(res.headers).some((value) => value.includes(credential));
    ctx.expectTrue(!res.text.includes(credential) && !inHeaders, {
      code: 'LEAK',
      pointer: inHeaders ? '/headers' : '/body',
      expected: 'the credential not repeated',
      received: '(the credential, not shown)',
      message: `the answer to a request with an ${kind} repeats the credential`,
      exchange: res.exchange,
    });
  }
});

/** A quote whose address carries the key's Secret Key (address line 2). */
async function quoteWithSecret(ctx: CheckContext, key: Key): Promise<HttpResponse> {
  const body = await ctx.orderBody();
  const shape = ctx.dialect.orderBody;
  const withSecret = withAddress(shape, body, { ...addressOf(shape, body), line2: key.secretKey });
  return ctx.api(key).post(ctx.path('quotes'), quoteBodyOf(ctx.dialect, withSecret));
}
