import { isDeepStrictEqual } from 'node:util';
import { type CheckContext, check, checksUseOwnAccounts, type Key } from '../../lib/check/index.js';
import { scopeSubset } from '../arbitraries/scopeSubset.js';
import { expectNoToken } from '../support/expect-no-token.js';
import { keyScopes } from '../support/key-scopes.js';
import { propertyRuns } from '../support/property-runs.js';
import {
  exactlyThese,
  grantedScopes,
  SCOPE_STRING,
  SCOPES,
  sortedScopes,
} from '../support/scopes.js';
import { requestToken } from '../support/token-request.js';

checksUseOwnAccounts();

/** Judges the `scope` string of a token response against the scopes that should be granted. */
function expectGranted(
  ctx: CheckContext,
  scope: unknown,
  expected: readonly string[],
  exchange: number,
): boolean {
  const wellFormed = ctx.expectTrue(typeof scope === 'string' && SCOPE_STRING.test(scope), {
    code: 'SCHEMA',
    pointer: '/body/scope',
    expected: 'scopes separated by single spaces',
    received: scope ?? '(missing)',
    message: 'scope must list the granted scopes, space-separated',
    exchange,
  });
  const granted = sortedScopes(grantedScopes(scope) ?? []);
  const same = ctx.expectTrue(isDeepStrictEqual(sortedScopes(expected), granted), {
    code: 'VALUE',
    pointer: '/body/scope',
    expected: sortedScopes(expected),
    received: granted,
    message: 'the granted scopes are not the ones the rule gives',
    exchange,
    // As data: these scopes, each once at least, in any order, and no other.
    must: { at: '/body/scope', is: { matches: exactlyThese(expected) } },
  });
  return wellFormed && same;
}

// Section 5, rule 7: a token carries the key's scopes (section 2: `scope` lists them, space-separated).
check('TOKEN-06', async (ctx) => {
  const key = await ctx.key({ scopes: ['catalog:read', 'orders:read'] });
  const res = await requestToken(ctx, key);
  ctx.requireStatus(res, ctx.dialect.operations.token.status);
  const body = res.json as { scope?: unknown } | undefined;
  expectGranted(ctx, body?.scope, key.scopes, res.exchange);
  const all = await ctx.key();
  const resAll = await requestToken(ctx, all);
  ctx.requireStatus(resAll, ctx.dialect.operations.token.status);
  expectGranted(
    ctx,
    (resAll.json as { scope?: unknown } | undefined)?.scope,
    all.scopes,
    resAll.exchange,
  );
});

// Section 5, rule 7 and section 4 (`scope` asks for fewer scopes than the key has): exactly the subset asked for.
check('TOKEN-07', async (ctx) => {
  const key = await ctx.key();
  const scopes = await keyScopes(ctx, key);
  const passed = new Set<string>();
  await ctx.property(
    scopeSubset(scopes),
    async (subset) => {
      // At most one token request per distinct subset: the key may ask for 20 a minute (section 8).
      const id = sortedScopes(subset).join(' ');
      if (passed.has(id)) return true;
      const res = await requestToken(ctx, key, { scope: subset.join(' ') });
      if (!ctx.expectStatus(res, ctx.dialect.operations.token.status)) return false;
      const scope = (res.json as { scope?: unknown } | undefined)?.scope;
      if (!expectGranted(ctx, scope, subset, res.exchange)) return false;
      passed.add(id);
      return true;
    },
    { numRuns: propertyRuns(ctx, ctx.has('keys'), 4) },
  );
});

/** A key and a `scope` request naming a documented scope the key lacks (undefined if it has them all). */
async function keyLackingAScope(ctx: CheckContext): Promise<{ key: Key; lacking?: string }> {
  if (ctx.has('keys'))
    return { key: await ctx.key({ scopes: ['catalog:read'] }), lacking: 'orders:write' };
  const key = await ctx.key();
  const scopes = await keyScopes(ctx, key);
  const lacking = SCOPES.find((scope) => !scopes.includes(scope));
  return lacking === undefined ? { key } : { key, lacking };
}

// Section 4: `scope` asks for fewer scopes than the key has; asking for more gets no token.
check('TOKEN-08', async (ctx) => {
  const { key, lacking } = await keyLackingAScope(ctx);
  const held = key.scopes[0] ?? 'catalog:read';
  if (lacking !== undefined) {
    const res = await requestToken(ctx, key, { scope: `${held} ${lacking}` });
    expectNoToken(ctx, res, `scope "${held} ${lacking}" for a key without ${lacking}`);
  }
  // A scope no key has at all is beyond the key too.
  const unknown = await requestToken(ctx, key, { scope: `${held} orders:admin` });
  expectNoToken(ctx, unknown, `scope "${held} orders:admin" (a scope the service does not have)`);
});

// Contract section 2: a scope request beyond the key's scopes gets 403 insufficient_scope.
check('TOKEN-21', async (ctx) => {
  const { key, lacking } = await keyLackingAScope(ctx);
  if (lacking === undefined) {
    ctx.notVerifiable(
      'needs a key without one of the four scopes; the partner key has them all (a control API with "keys" makes one: --control-url, CONTROL_TOKEN)',
      ['keys'],
    );
  }
  const res = await requestToken(ctx, key, {
    scope: `${key.scopes[0] ?? 'catalog:read'} ${lacking}`,
  });
  ctx.expectProblem(res, { status: 403, code: 'insufficient_scope' });
});
