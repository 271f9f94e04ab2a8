import { check } from '../../lib/check/index.js';
import { allAtOnce } from '../support/all-at-once.js';
import { expectNoToken } from '../support/expect-no-token.js';
import { requestToken, type TokenRequestOptions } from '../support/token-request.js';

// Section 5, rule 4: the Secret Key is sent only in the Basic header of the token request; in the
// body it is refused. The key is one made for this check: a secret sent in a body is burnt (it
// "should then be rolled"), so the partner's own key is never used for this.
check('TOKEN-11', async (ctx) => {
  const key = await ctx.key();
  const cases: { what: string; options: TokenRequestOptions }[] = [
    {
      what: 'valid Basic credentials and client_secret in the form',
      options: { form: { grant_type: 'client_credentials', client_secret: key.secretKey } },
    },
    {
      what: 'client_id and client_secret in the form instead of Basic (RFC 6749 §2.3.1 body credentials)',
      options: {
        auth: { kind: 'none' },
        form: {
          grant_type: 'client_credentials',
          client_id: key.accessKeyId,
          client_secret: key.secretKey,
        },
      },
    },
    {
      what: 'valid Basic credentials and the Secret Key in another form field (password)',
      options: { form: { grant_type: 'client_credentials', password: key.secretKey } },
    },
  ];
  // At once, judged in order: each is refused whatever the others did to the key.
  const answers = await allAtOnce(cases, async ({ what, options }) => ({
    what,
    res: await requestToken(ctx, key, options),
  }));
  for (const { what, res } of answers) expectNoToken(ctx, res, what);
});
