// The client defect matrix's defects: each breaks one MUST client rule of the
// sample client (examples/partner-client/), composed beside it as a wrapper of
// fetch, so the sample itself stays correct (as the reference server's defects
// are values beside it, server/defects/). preload.mjs installs the one that
// CLIENT_DEFECT names in the client's process. Plain JavaScript: it runs in the
// client's own node, before any TypeScript could.

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const TOKEN_PATH = '/api/on-demand/v1/oauth/token';

/** @typedef {(input: string | URL, init?: RequestInit) => Promise<Response>} Fetch */

/** The parts of a request a defect reads and changes, and a fetch that sends them. */
function parts(input, init = {}) {
  const url = new URL(String(input));
  const headers = new Headers(init.headers);
  return { url, method: (init.method ?? 'GET').toUpperCase(), headers, body: init.body };
}

function send(fetch, { url, method, headers, body }) {
  return fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
}

const isOrder = (p) => p.method === 'POST' && p.url.pathname === '/api/on-demand/v1/orders';
const isToken = (p) => p.method === 'POST' && p.url.pathname === TOKEN_PATH;

async function codeOf(response) {
  try {
    return (await response.clone().json()).code;
  } catch {
    return undefined;
  }
}

/** A response with one header replaced (Response headers are immutable). */
function withHeader(response, name, value) {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, { status: response.status, headers });
}

/** Sends a request once, by itself, as the defective client would. */
function once(state, flag) {
  if (state[flag]) return false;
  state[flag] = true;
  return true;
}

/**
 * @type {{ name: string, rule: string, breaks: string, args?: string[], wrap: (fetch: Fetch, env: NodeJS.ProcessEnv) => Fetch }[]}
 */
export const CLIENT_DEFECTS = [
  {
    name: 'basic-swapped',
    rule: 'CLIENT-01',
    breaks: 'sends base64(Secret Key:Access Key ID) in the Basic header',
    wrap: (fetch, env) => (input, init) => {
      const p = parts(input, init);
      if (isToken(p)) {
        const swapped = `${env.PARTNER_SECRET_KEY}:${env.PARTNER_ACCESS_KEY_ID}`;
        p.headers.set('authorization', `Basic ${Buffer.from(swapped).toString('base64')}`);
      }
      return send(fetch, p);
    },
  },
  {
    name: 'token-form-as-text',
    rule: 'CLIENT-02',
    breaks: 'sends the token request form as text/plain',
    wrap: (fetch) => (input, init) => {
      const p = parts(input, init);
      if (isToken(p)) p.headers.set('content-type', 'text/plain');
      return send(fetch, p);
    },
  },
  {
    name: 'grant-type-password',
    rule: 'CLIENT-03',
    breaks: 'sends grant_type=password',
    wrap: (fetch) => (input, init) => {
      const p = parts(input, init);
      if (isToken(p)) p.body = 'grant_type=password';
      return send(fetch, p);
    },
  },
  {
    name: 'scope-beyond-key',
    rule: 'CLIENT-04',
    breaks: 'asks for a scope the key lacks, then asks without scope',
    wrap: (fetch) => {
      const state = {};
      return (input, init) => {
        const p = parts(input, init);
        if (isToken(p) && once(state, 'asked'))
          p.body = `${p.body}&scope=orders%3Aread+admin%3Aall`;
        return send(fetch, p);
      };
    },
  },
  {
    name: 'secret-in-header',
    rule: 'CLIENT-05',
    breaks: 'sends the Secret Key in an X-Api-Secret header of every call',
    wrap: (fetch, env) => (input, init) => {
      const p = parts(input, init);
      if (!isToken(p)) p.headers.set('x-api-secret', env.PARTNER_SECRET_KEY ?? '');
      return send(fetch, p);
    },
  },
  {
    name: 'token-in-query',
    rule: 'CLIENT-06',
    breaks: 'puts its access token in the query of the order list',
    wrap: (fetch) => (input, init) => {
      const p = parts(input, init);
      if (p.method === 'GET' && p.url.pathname === '/api/on-demand/v1/orders') {
        const token = (p.headers.get('authorization') ?? '').replace(/^Bearer /, '');
        p.url.searchParams.set('access_token', token);
      }
      return send(fetch, p);
    },
  },
  {
    name: 'no-bearer-on-list',
    rule: 'CLIENT-07',
    breaks: 'sends the order list without its Authorization header',
    wrap: (fetch) => (input, init) => {
      const p = parts(input, init);
      if (p.method === 'GET' && p.url.pathname === '/api/on-demand/v1/orders')
        p.headers.delete('authorization');
      return send(fetch, p);
    },
  },
  {
    name: 'token-pool',
    rule: 'CLIENT-08',
    breaks:
      'warms a pool of 20 tokens at once before its first call (one per worker), beside its own',
    // No situation: a 503 or a 429 played on one of 20 requests sent at once would leave the
    // others, which the sandbox answers after it, looking like retries sent too soon.
    args: ['--situations', 'none'],
    wrap: (fetch, env) => {
      let pool;
      const basic = Buffer.from(`${env.PARTNER_ACCESS_KEY_ID}:${env.PARTNER_SECRET_KEY}`);
      // One token, asked for again (after Retry-After) until the sandbox gives it.
      const token = async (base) => {
        for (;;) {
          const answer = await fetch(new URL(TOKEN_PATH, base), {
            method: 'POST',
            headers: {
              authorization: `Basic ${basic.toString('base64')}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: 'grant_type=client_credentials',
          });
          if (answer.ok) return (await answer.json()).access_token;
          await sleep(Number(answer.headers.get('retry-after') ?? 1) * 1000);
        }
      };
      return async (input, init) => {
        const p = parts(input, init);
        if (!isToken(p)) {
          pool ??= Promise.all(Array.from({ length: 20 }, () => token(p.url)));
          await pool;
        }
        return send(fetch, p);
      };
    },
  },
  {
    name: 'expired-token-kept',
    rule: 'CLIENT-09',
    breaks: 'keeps sending the first token it used, expired or not',
    args: ['--situations', 'token-expired'],
    wrap: (fetch) => {
      let first;
      return (input, init) => {
        const p = parts(input, init);
        if (!isToken(p)) {
          first ??= p.headers.get('authorization') ?? undefined;
          if (first) p.headers.set('authorization', first);
        }
        return send(fetch, p);
      };
    },
  },
  {
    name: 'invalid-token-sent-twice',
    rule: 'CLIENT-10',
    breaks: 'corrupts its token on one call and sends that token once more after 401 invalid_token',
    args: ['--situations', 'none'],
    wrap: (fetch) => {
      const state = { calls: 0 };
      return async (input, init) => {
        const p = parts(input, init);
        if (isToken(p)) return send(fetch, p);
        state.calls += 1;
        if (state.calls === 2) {
          p.headers.set('authorization', `${p.headers.get('authorization')}x`);
          await send(fetch, p);
          return send(fetch, p);
        }
        return send(fetch, p);
      };
    },
  },
  {
    name: 'order-as-text',
    rule: 'CLIENT-11',
    breaks: 'sends its first order with Content-Type: text/plain',
    wrap: (fetch) => {
      const state = {};
      return (input, init) => {
        const p = parts(input, init);
        if (isOrder(p) && once(state, 'sent')) p.headers.set('content-type', 'text/plain');
        return send(fetch, p);
      };
    },
  },
  {
    name: 'order-without-key',
    rule: 'CLIENT-12',
    breaks: 'sends its first order without an Idempotency-Key',
    wrap: (fetch) => {
      const state = {};
      return (input, init) => {
        const p = parts(input, init);
        if (isOrder(p) && once(state, 'sent')) p.headers.delete('idempotency-key');
        return send(fetch, p);
      };
    },
  },
  {
    name: 'one-key-for-all-orders',
    rule: 'CLIENT-13',
    breaks: 'sends every order with the Idempotency-Key of its first',
    wrap: (fetch) => {
      let first;
      return (input, init) => {
        const p = parts(input, init);
        if (isOrder(p)) {
          first ??= p.headers.get('idempotency-key') ?? undefined;
          if (first) p.headers.set('idempotency-key', first);
        }
        return send(fetch, p);
      };
    },
  },
  {
    name: 'conflict-repeated',
    rule: 'CLIENT-14',
    breaks:
      'changes an order on its retry after a 500 (same key), and repeats it after 409 idempotency_conflict',
    args: ['--situations', '500-after'],
    wrap: (fetch) => {
      const failed = new Set();
      return async (input, init) => {
        const p = parts(input, init);
        if (!isOrder(p)) return send(fetch, p);
        const key = p.headers.get('idempotency-key');
        if (failed.has(key)) {
          const body = JSON.parse(p.body);
          body.items[0].quantity += 1;
          p.body = JSON.stringify(body);
        }
        const answer = await send(fetch, p);
        if (answer.status === 500) failed.add(key);
        if ((await codeOf(answer)) === 'idempotency_conflict') return send(fetch, p);
        return answer;
      };
    },
  },
  {
    name: 'new-key-after-500',
    rule: 'CLIENT-15',
    breaks: 'sends an order again with a new Idempotency-Key after a 500',
    wrap: (fetch) => {
      const renamed = new Map();
      return async (input, init) => {
        const p = parts(input, init);
        if (!isOrder(p)) return send(fetch, p);
        const key = p.headers.get('idempotency-key');
        if (renamed.has(key)) p.headers.set('idempotency-key', renamed.get(key));
        const answer = await send(fetch, p);
        if (answer.status === 500) renamed.set(key, randomUUID());
        return answer;
      };
    },
  },
  {
    name: 'same-key-after-402',
    rule: 'CLIENT-16',
    breaks: 'sends an order refused with a 402 again with the same Idempotency-Key',
    wrap: (fetch) => {
      const declined = new Map();
      return async (input, init) => {
        const p = parts(input, init);
        if (!isOrder(p)) return send(fetch, p);
        const externalId = JSON.parse(p.body).external_id;
        if (declined.has(externalId)) p.headers.set('idempotency-key', declined.get(externalId));
        const answer = await send(fetch, p);
        if (answer.status === 402) declined.set(externalId, p.headers.get('idempotency-key'));
        return answer;
      };
    },
  },
  {
    name: 'duplicate-not-fetched',
    rule: 'CLIENT-17',
    breaks: 'after 409 duplicate_external_id, makes up the order instead of fetching it',
    wrap: (fetch) => (input, init) => {
      const p = parts(input, init);
      const prefix = '/api/on-demand/v1/orders/by-external-id/';
      if (p.method === 'GET' && p.url.pathname.startsWith(prefix)) {
        const externalId = decodeURIComponent(p.url.pathname.slice(prefix.length));
        const order = {
          id: 'unknown',
          external_id: externalId,
          status: 'received',
          total: { amount: 0, currency: 'USD' },
        };
        return Promise.resolve(Response.json(order));
      }
      return send(fetch, p);
    },
  },
  {
    name: 'retry-after-ignored',
    rule: 'CLIENT-18',
    breaks: 'reads Retry-After of a 429 as 0: sends it again at once',
    // A wait of 5 seconds: "at once" is then told from "after Retry-After" however busy the machine.
    args: ['--situations', '429-token,429-read,429-write', '--retry-after', '5'],
    wrap: (fetch) => async (input, init) => {
      const answer = await fetch(input, init);
      return answer.status === 429 ? withHeader(answer, 'retry-after', '0') : answer;
    },
  },
  {
    name: 'read-only-at-once',
    rule: 'CLIENT-19',
    breaks: 'sends a write refused with read_only again at once',
    args: ['--situations', 'read-only', '--retry-after', '5'],
    wrap: (fetch) => async (input, init) => {
      const answer = await fetch(input, init);
      return (await codeOf(answer)) === 'read_only'
        ? withHeader(answer, 'retry-after', '0')
        : answer;
    },
  },
  {
    name: 'unavailable-at-once',
    rule: 'CLIENT-20',
    breaks: 'sends a request refused with api_unavailable again at once',
    args: ['--situations', 'unavailable', '--retry-after', '5'],
    wrap: (fetch) => async (input, init) => {
      const answer = await fetch(input, init);
      return (await codeOf(answer)) === 'api_unavailable'
        ? withHeader(answer, 'retry-after', '0')
        : answer;
    },
  },
  {
    name: 'code-from-title',
    rule: 'CLIENT-21',
    breaks: 'takes an error for what its title says, not its code',
    wrap: (fetch) => async (input, init) => {
      const answer = await fetch(input, init);
      if (answer.ok) return answer;
      let problem;
      try {
        problem = await answer.clone().json();
      } catch {
        return answer;
      }
      problem.code = CODE_OF_TITLE[problem.title];
      return new Response(JSON.stringify(problem), {
        status: answer.status,
        headers: answer.headers,
      });
    },
  },
  {
    name: 'order-without-external-id',
    rule: 'CLIENT-22',
    breaks: 'sends its first order without an external_id (each time it sends it)',
    wrap: (fetch) => {
      let first;
      return (input, init) => {
        const p = parts(input, init);
        if (isOrder(p)) {
          const body = JSON.parse(p.body);
          first ??= body.external_id;
          if (body.external_id === first) {
            delete body.external_id;
            p.body = JSON.stringify(body);
          }
        }
        return send(fetch, p);
      };
    },
  },
  {
    name: 'refused-order-resent',
    rule: 'CLIENT-23',
    breaks: 'sends its first order with quantity 0, and once more unchanged after 422',
    wrap: (fetch) => {
      const state = {};
      return async (input, init) => {
        const p = parts(input, init);
        if (!isOrder(p) || !once(state, 'sent')) return send(fetch, p);
        const body = JSON.parse(p.body);
        body.items[0].quantity = 0;
        p.body = JSON.stringify(body);
        const answer = await send(fetch, p);
        return answer.status === 422 ? send(fetch, p) : answer;
      };
    },
  },
];

/** The reference's titles (server/problems/codes.ts), as a client that reads titles knows them. */
const CODE_OF_TITLE = {
  'Too many requests': 'rate_limited',
  'Token expired': 'token_expired',
  'Invalid token': 'invalid_token',
  'Internal error': 'internal_error',
  'Card declined': 'card_declined',
  'Duplicate external_id': 'duplicate_external_id',
  'Read-only mode': 'read_only',
  'API unavailable': 'api_unavailable',
  'Validation failed': 'validation_failed',
  'Idempotency-Key conflict': 'idempotency_conflict',
};
