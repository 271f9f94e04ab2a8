import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { API_CODES, CONTROL_CODES, HTTP_CODES } from '../../server/problems/codes.js';
import { CONTROL_TOKEN, harness } from './support/harness.js';
import { type FuzzWorld, type HostileRequest, hostileRequest } from './support/hostile-request.js';

/**
 * The reference server under hostile input. Seeded, so a failure
 * replays (fast-check prints the seed and path; `FUZZ_SEED` picks another).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const NUM_RUNS = 10_000;
const DOCUMENTED = new Set([
  ...Object.keys(API_CODES),
  ...Object.keys(CONTROL_CODES),
  ...Object.keys(HTTP_CODES),
]);

const app = await buildApp({ controlToken: CONTROL_TOKEN });
afterAll(() => app.close());
const h = harness(app);

let world: FuzzWorld;
beforeAll(async () => {
  const partner = await h.partner({
    rate_limits: { read: 1_000_000, write: 1_000_000, token: 1_000_000 },
    limits: { max_orders_per_day: 1_000_000 },
  });
  const order = await h.placeOrder(partner);
  world = {
    accessToken: partner.token,
    accessKeyId: partner.key.access_key_id,
    secretKey: partner.key.secret_key,
    controlToken: CONTROL_TOKEN,
    accountId: partner.accountId,
    orderId: order.body.id,
  };
});

/** A text with its percent-escapes decoded byte-wise (a malformed escape stays as is). */
function percentDecoded(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

const tally = { requests: 0, serverErrors: 0, echoed: 0, notProblem: 0, credentialsAccepted: 0 };
/** Answers by status class: the run must reach real handlers, not only refusals. */
const byClass = new Map<number, number>();

async function probe(request: HostileRequest): Promise<void> {
  const reply = await app.inject({
    method: request.method,
    url: request.url,
    headers: request.headers,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
  tally.requests++;
  const cls = Math.floor(reply.statusCode / 100);
  byClass.set(cls, (byClass.get(cls) ?? 0) + 1);
  const what = `${request.method} ${request.url} → ${reply.statusCode} ${reply.body.slice(0, 300)}`;
  const answer = `${JSON.stringify(reply.headers)}\n${reply.body}`;
  const decoded = percentDecoded(answer);
  const echoed = request.carried.filter((secret) => decoded.includes(secret));
  if (reply.statusCode >= 500) tally.serverErrors++;
  if (echoed.length > 0) tally.echoed++;
  if (request.credentialInBody && reply.statusCode < 400) tally.credentialsAccepted++;
  expect(reply.statusCode, what).toBeLessThan(500);
  expect(echoed, `${what}: a credential the request carried came back`).toEqual([]);
  expect(
    request.credentialInBody && reply.statusCode < 400,
    `${what}: a credential in the body was accepted`,
  ).toBe(false);
  if (reply.statusCode >= 400 && request.method !== 'HEAD') {
    const problem = /^application\/problem\+json/.test(String(reply.headers['content-type']));
    if (!problem) tally.notProblem++;
    expect(problem, `${what}: not problem+json`).toBe(true);
    const body = reply.json();
    expect(DOCUMENTED.has(body.code), what).toBe(true);
    expect(body.status, what).toBe(reply.statusCode);
  }
}

describe('hostile input: 10,000 seeded requests over every endpoint and the control API', () => {
  it('0 5xx, 0 answers holding a credential the request carried, 0 non-problem errors, 0 accepted credentials in bodies', async () => {
    await fc.assert(fc.asyncProperty(hostileRequest(world), probe), {
      seed: SEED,
      numRuns: NUM_RUNS,
    });
    expect(tally).toEqual({
      requests: NUM_RUNS,
      serverErrors: 0,
      echoed: 0,
      notProblem: 0,
      credentialsAccepted: 0,
    });
    console.log('hostile fuzz answers by status class', Object.fromEntries(byClass));
    expect(byClass.get(2) ?? 0).toBeGreaterThan(NUM_RUNS / 200);
  });
});
