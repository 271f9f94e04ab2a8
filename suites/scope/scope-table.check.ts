import {
  type CheckContext,
  check,
  checksUseOwnAccounts,
  type Key,
  quoteBodyOf,
} from '../../lib/check/index.js';
import { scopeSubset } from '../arbitraries/scopeSubset.js';
import { keyScopes } from '../support/key-scopes.js';
import { problemCode } from '../support/problem-text.js';
import { propertyRuns } from '../support/property-runs.js';
import { SCOPES, sortedScopes } from '../support/scopes.js';
import { challengeOf } from '../support/www-authenticate.js';
import { scopedEndpoints, scopeFixtures } from './scoped-endpoints.js';

checksUseOwnAccounts();

/** A test key holding all four scopes: the scope checks place an order with it. */
async function keyWithAllScopes(ctx: CheckContext): Promise<Key> {
  return ctx.key({ mode: 'test', scopes: [...SCOPES] });
}

// Section 5, the scope table (and section 4's endpoint table): a call is served exactly when the
// token holds the endpoint's scope. Every endpoint, for generated scope sets.
check(
  'SCOPE-01',
  async (ctx) => {
    const key = await keyWithAllScopes(ctx);
    const endpoints = scopedEndpoints(ctx, await scopeFixtures(ctx, key));
    // A scope set that held once holds again: each set is sent once, within the key's limits
    // (15 sets × 13 endpoints: 150 reads, 45 writes and 15 tokens, under 300, 60 and 20 a minute).
    // Runs go out several at a time on this one key (lanes of no state of their own): a set
    // already asked is not asked again while its answer is awaited, so the key's limits see no
    // more than one after another would send; a set that did not hold is asked again when drawn.
    const held = new Set<string>();
    const asked = new Map<string, Promise<boolean>>();
    const judge = async (subset: string[]): Promise<boolean> => {
      const api = ctx.api(key, subset);
      const results = await Promise.all(
        endpoints.map(async (endpoint) => ({ endpoint, res: await api.send(endpoint.request) })),
      );
      let holds = true;
      for (const { endpoint, res } of results) {
        const allowed = subset.includes(endpoint.scope);
        const code = problemCode(res);
        const ok = allowed
          ? res.status !== 401 && res.status !== 403
          : res.status === 403 && code === 'insufficient_scope';
        holds =
          ctx.expectTrue(ok, {
            code: 'STATUS',
            pointer: '/status',
            expected: allowed ? 'served (neither 401 nor 403)' : '403 insufficient_scope',
            received: `${res.status}${code ? ` ${code}` : ''}`,
            message: `${endpoint.name} needs ${endpoint.scope}; a token with [${subset.join(' ')}] was ${
              allowed ? 'refused' : 'not refused with insufficient_scope'
            }`,
            exchange: res.exchange,
            must: allowed
              ? { not: { at: '/status', is: { oneOf: [401, 403] } } }
              : {
                  all: [
                    { at: '/status', is: { equals: 403 } },
                    { at: '/body/code', is: { equals: 'insufficient_scope' } },
                  ],
                },
          }) && holds;
      }
      return holds;
    };
    await ctx.propertyInLanes(
      scopeSubset(SCOPES),
      async () => undefined,
      async (subset) => {
        const id = sortedScopes(subset).join(' ');
        const known = asked.get(id);
        if (known) return known;
        const answer = judge(subset);
        asked.set(id, answer);
        const holds = await answer;
        if (holds) held.add(id);
        else asked.delete(id);
        return holds;
      },
      { numRuns: propertyRuns(ctx, ctx.has('keys'), 3) },
    );
    ctx.note(`scope sets checked on all ${endpoints.length} endpoints: ${held.size} of 15`);
  },
  { timeout: 120_000 },
);

// Section 5, rule 8 and section 7 (403 insufficient_scope: `required_scope` names the scope).
check('SCOPE-02', async (ctx) => {
  const key = await keyWithAllScopes(ctx);
  const endpoints = scopedEndpoints(ctx, await scopeFixtures(ctx, key));
  const scopes = await keyScopes(ctx, key);
  // Every endpoint asked at once (one token per scope set, shared), judged in the table's order.
  const answers = await Promise.all(
    endpoints.map(async (endpoint) => {
      const others = scopes.filter((scope) => scope !== endpoint.scope);
      if (others.length === 0) return { endpoint, res: undefined };
      return { endpoint, res: await ctx.api(key, others).send(endpoint.request) };
    }),
  );
  for (const { endpoint, res } of answers) {
    if (!res) {
      ctx.note(
        `${endpoint.name}: the key holds no other scope to make a token without ${endpoint.scope}`,
      );
      continue;
    }
    ctx.expectProblem(res, { status: 403, code: 'insufficient_scope' });
    ctx.expectEqual(
      '/body/required_scope',
      endpoint.scope,
      (res.json as { required_scope?: unknown } | undefined)?.required_scope ?? '(missing)',
      `${endpoint.name}: required_scope must name ${endpoint.scope}`,
      res,
    );
  }
});

// Section 5, rule 8, RFC 6750 §3.1: a 403 for a missing scope challenges with
// error="insufficient_scope" and the scope needed in `scope`.
check('SCOPE-04', async (ctx) => {
  const key = await ctx.key();
  const scopes = await keyScopes(ctx, key);
  const order = await ctx.orderBody();
  const calls = [
    { scope: 'orders:read', spec: { method: 'GET', path: ctx.path('orders') } },
    { scope: 'catalog:read', spec: { method: 'GET', path: ctx.path('catalogProducts') } },
    {
      scope: 'catalog:read',
      spec: {
        method: 'POST',
        path: ctx.path('quotes'),
        json: quoteBodyOf(ctx.dialect, order),
      },
    },
    {
      scope: 'webhooks:manage',
      spec: {
        method: ctx.dialect.operations.webhookEndpointList.method,
        path: ctx.path('webhookEndpoints'),
      },
    },
  ];
  for (const { scope, spec } of calls) {
    const others = scopes.filter((s) => s !== scope);
    if (others.length === 0) continue;
    const res = await ctx.api(key, others).send(spec);
    if (res.status !== 403) {
      ctx.note(
        `${spec.method} ${spec.path} without ${scope} was answered ${res.status}: no challenge to judge`,
      );
      continue;
    }
    ctx.expectHeader(
      res,
      'www-authenticate',
      (value) => {
        const bearer = challengeOf(value, 'Bearer');
        return (
          bearer?.params.error === 'insufficient_scope' &&
          (bearer.params.scope ?? '').split(' ').includes(scope)
        );
      },
      `Bearer error="insufficient_scope" scope="${scope}"`,
    );
  }
});
