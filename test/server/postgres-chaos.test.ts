import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { API, CONTROL_TOKEN, orderBody } from './support/harness.js';
import { type Cluster, throwawayCluster } from './support/pg-cluster.js';
import { describePostgres } from './support/postgres.js';
import { type Spawned, spawnServer, stop } from './support/spawn-server.js';

/**
 * The database goes away under load, in every way it can, and the
 * instances answer instead of dying. Two instances (child processes, so that
 * an exit is seen, not suffered), eight streams placing orders, on a
 * throwaway cluster of their own (scripts/pg-throwaway.sh) that the test stops
 * fast, stops immediate, pauses (SIGSTOP: nothing answers, connections stay
 * open) and whose connections it terminates. After each: no instance exited,
 * every acknowledged order is there, none twice, both instances ready again
 * without a restart. Every wait is on an event or polls readiness, with a
 * bound; the figures are printed, not asserted (the machine may be busy).
 */
// The waits below are bounded by `until` (which says what it waited for); vitest's own
// per-test limit must not cut a slow machine's run short first.
const NO_TIMEOUT = 30 * 60_000;

describePostgres('chaos: two instances keep answering while their database goes away', () => {
  let cluster: Cluster | undefined;
  let a: Spawned | undefined;
  let b: Spawned | undefined;
  const dir = emptyDir('reference-chaos-');
  const agent = new Agent({ connections: 32 });
  const tokenFile = join(dir, 'control-token');
  writeFileSync(tokenFile, CONTROL_TOKEN, { mode: 0o600 });
  const instanceArgs = ['--port', '0', '--control-token-file', tokenFile, '--database-wait', '300'];

  beforeAll(async () => {
    cluster = await throwawayCluster();
    a = await spawnServer(instanceArgs, { DATABASE_URL: cluster.url });
    b = await spawnServer(instanceArgs, { DATABASE_URL: cluster.url });
  });
  afterAll(async () => {
    for (const instance of [a, b]) if (instance) await stop(instance.child, 'SIGKILL');
    await agent.close();
    await cluster?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  interface Answer {
    status: number;
    headers: Record<string, string | string[] | undefined>;
    // biome-ignore lint/suspicious/noExplicitAny: a parsed answer, read field by field.
    body: any;
    ms: number;
    error?: string;
  }

  async function call(
    origin: string,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ): Promise<Answer> {
    const started = performance.now();
    try {
      const res = await request(`${origin}${path}`, {
        method: method as 'GET',
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        dispatcher: agent,
        ...(body === undefined
          ? {}
          : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await res.body.text();
      return {
        status: res.statusCode,
        headers: res.headers,
        body: text === '' ? undefined : JSON.parse(text),
        ms: performance.now() - started,
      };
    } catch (error) {
      return {
        status: 0,
        headers: {},
        body: undefined,
        ms: performance.now() - started,
        error: String(error),
      };
    }
  }

  const origins = () => [a?.origin ?? '', b?.origin ?? ''];

  /** Polls `check` until it holds; fails past `boundMs` saying what it waited for. */
  async function until(what: string, check: () => boolean | Promise<boolean>, boundMs = 180_000) {
    const giveUpAt = Date.now() + boundMs;
    while (!(await check())) {
      for (const instance of [a, b]) {
        if (instance && (instance.child.exitCode !== null || instance.child.signalCode !== null)) {
          throw new Error(
            `an instance exited (${instance.child.exitCode ?? instance.child.signalCode}) while waiting for ${what}: ${instance.output().stderr.slice(-2_000)}`,
          );
        }
      }
      if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const readiness = async (origin: string) => (await call(origin, 'GET', '/readyz')).status;

  async function partner(origin: string): Promise<{ token: string }> {
    const control = { 'x-control-token': CONTROL_TOKEN };
    const account = await call(origin, 'POST', '/__control/accounts', control, {
      rate_limits: { read: 100_000, write: 100_000, token: 100_000 },
      limits: { max_orders_per_day: 100_000, max_order_value: 100_000_000 },
    });
    const key = await call(
      origin,
      'POST',
      `/__control/accounts/${account.body.id}/keys`,
      control,
      {},
    );
    const basic = Buffer.from(`${key.body.access_key_id}:${key.body.secret_key}`).toString(
      'base64',
    );
    const token = await call(
      origin,
      'POST',
      `${API}/oauth/token`,
      { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      'grant_type=client_credentials',
    );
    if (token.status !== 200)
      throw new Error(`token → ${token.status} ${JSON.stringify(token.body)}`);
    return { token: token.body.access_token as string };
  }

  async function allOrders(origin: string, token: string) {
    const orders: Array<{ id: string; external_id: string }> = [];
    let cursor: string | undefined;
    for (;;) {
      const query = `?limit=100${cursor === undefined ? '' : `&starting_after=${cursor}`}`;
      const page = await call(origin, 'GET', `${API}/orders${query}`, {
        authorization: `Bearer ${token}`,
      });
      if (page.status !== 200) throw new Error(`GET /orders → ${page.status}`);
      orders.push(...(page.body.data as typeof orders));
      if (!page.body.has_more) return orders;
      cursor = orders.at(-1)?.id;
    }
  }

  /**
   * Streams orders through both instances, runs `outage` (which returns once
   * the database is back), waits for both instances to be ready and to place
   * orders again, then checks every acknowledged order.
   */
  async function survive(
    name: string,
    outage: (seen503: (origin: string) => boolean) => Promise<void>,
  ) {
    const [originA = '', originB = ''] = origins();
    const { token } = await partner(originA);
    const bearer = { authorization: `Bearer ${token}` };
    const acked = new Map<string, string>();
    const refused = new Set<string>();
    const refusedBy = new Map<string, number>();
    const unexpected: string[] = [];
    let longest = 0;
    let running = true;
    const streams = Array.from({ length: 8 }, async (_, stream) => {
      const origin = stream % 2 === 0 ? originA : originB;
      for (let n = 0; running; n++) {
        const key = `${name}-${stream}-${n}`;
        const reply = await call(
          origin,
          'POST',
          `${API}/orders`,
          { ...bearer, 'idempotency-key': key },
          orderBody({ external_id: key }),
        );
        longest = Math.max(longest, reply.ms);
        if (reply.status === 201) {
          acked.set(key, reply.body.id as string);
        } else if (
          reply.status === 503 &&
          reply.body?.code === 'api_unavailable' &&
          String(reply.headers['content-type']).startsWith('application/problem+json') &&
          Number(reply.headers['retry-after']) >= 1
        ) {
          refused.add(key);
          refusedBy.set(origin, (refusedBy.get(origin) ?? 0) + 1);
          // A client paces its retries; this one briefly (the outage is what is being measured).
          await new Promise((resolve) => setTimeout(resolve, 20));
        } else {
          unexpected.push(
            `${origin} ${key}: ${reply.status} ${reply.error ?? JSON.stringify(reply.body)}`,
          );
          if (unexpected.length > 20) running = false;
        }
      }
    });
    await until('40 orders before the outage', () => acked.size >= 40 || !running);
    await outage((origin) => (refusedBy.get(origin) ?? 0) > 0);
    const back = performance.now();
    await until('both instances ready', async () => {
      const states = await Promise.all([originA, originB].map(readiness));
      return states.every((status) => status === 200);
    });
    const timeToReady = performance.now() - back;
    const ackedWhenReady = acked.size;
    await until('40 orders after the outage', () => acked.size >= ackedWhenReady + 40 || !running);
    running = false;
    await Promise.all(streams);

    for (const instance of [a, b]) {
      expect(instance?.child.exitCode, instance?.output().stderr).toBeNull();
      expect(instance?.child.signalCode).toBeNull();
    }
    expect(unexpected).toEqual([]);
    // A 503 acknowledges nothing: the same Idempotency-Key again places it at most once.
    let storedAnyway = 0;
    for (const key of refused) {
      const again = await call(
        originB,
        'POST',
        `${API}/orders`,
        { ...bearer, 'idempotency-key': key },
        orderBody({ external_id: key }),
      );
      expect([200, 201]).toContain(again.status);
      if (again.status === 200) storedAnyway += 1;
    }
    const orders = await allOrders(originA, token);
    const ids = new Set(orders.map((order) => order.id));
    const externalIds = new Set(orders.map((order) => order.external_id));
    expect(ids.size).toBe(orders.length);
    expect(externalIds.size).toBe(orders.length);
    const lost = [...acked.values()].filter((id) => !ids.has(id));
    expect(lost).toEqual([]);
    const figures = `${name}: ${acked.size} orders acknowledged, ${refused.size} answered 503 (${storedAnyway} of them stored all the same, found by their Idempotency-Key), longest wait ${Math.round(longest)} ms, both ready ${Math.round(timeToReady)} ms after the database was back, 0 lost, 0 twice, no instance exited`;
    process.stdout.write(`chaos ${figures}\n`);
    return { longest, refused: refused.size };
  }

  const bothRefused = (seen503: (origin: string) => boolean) => () =>
    origins().every((origin) => seen503(origin));

  it('pg_ctl stop -m fast mid-stream, then started again', { timeout: NO_TIMEOUT }, async () => {
    await survive('stop-fast', async (seen503) => {
      await cluster?.do('stop-fast');
      await until('a 503 from each instance', bothRefused(seen503));
      await until('/readyz 503 on both', async () =>
        (await Promise.all(origins().map(readiness))).every((status) => status === 503),
      );
      await cluster?.do('restart');
    });
  });

  it('pg_ctl stop -m immediate mid-stream (crash recovery at restart)', {
    timeout: NO_TIMEOUT,
  }, async () => {
    await survive('stop-immediate', async (seen503) => {
      await cluster?.do('stop-immediate');
      await until('a 503 from each instance', bothRefused(seen503));
      await cluster?.do('restart');
    });
  });

  it("pg_terminate_backend on the instances' connections mid-stream", {
    timeout: NO_TIMEOUT,
  }, async () => {
    await survive('terminate', async (seen503) => {
      const admin = new pg.Client({ connectionString: cluster?.url });
      await admin.connect();
      try {
        // Again and again until each instance has answered a request whose connection was cut.
        await until('a 503 from each instance', async () => {
          await admin.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'partner-ordering-reference'",
          );
          return bothRefused(seen503)();
        });
      } finally {
        await admin.end();
      }
    });
  });

  it('a paused database (SIGSTOP): every request answers within the bound, locks included', {
    timeout: NO_TIMEOUT,
  }, async () => {
    const { longest } = await survive('pause', async (seen503) => {
      await cluster?.do('pause');
      try {
        await until('a 503 from each instance', bothRefused(seen503));
      } finally {
        await cluster?.do('resume');
      }
    });
    // The figure of docs/sandbox.md ("a request never waits more than 10 s for its database").
    process.stdout.write(
      `chaos pause: longest request ${Math.round(longest)} ms (bound: 10,000 ms of waiting for the database)\n`,
    );
  });

  it('an instance started while the database is down waits for it, /readyz 503 meanwhile, then serves', {
    timeout: NO_TIMEOUT,
  }, async () => {
    await cluster?.do('stop-fast');
    let c: Spawned | undefined;
    try {
      c = await spawnServer(instanceArgs, { DATABASE_URL: cluster?.url ?? '' });
      expect(await readiness(c.origin)).toBe(503);
      const refused = await call(
        c.origin,
        'POST',
        '/__control/accounts',
        {
          'x-control-token': CONTROL_TOKEN,
        },
        {},
      );
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('api_unavailable');
      await cluster?.do('restart');
      const back = performance.now();
      const origin = c.origin;
      await until('the late instance ready', async () => (await readiness(origin)) === 200);
      const { token } = await partner(origin);
      expect(
        (await call(origin, 'GET', `${API}/account`, { authorization: `Bearer ${token}` })).status,
      ).toBe(200);
      expect(c.child.exitCode).toBeNull();
      process.stdout.write(
        `chaos start-up: ready ${Math.round(performance.now() - back)} ms after the database started\n`,
      );
    } finally {
      if (c) await stop(c.child, 'SIGTERM');
      await cluster?.do('restart').catch(() => undefined);
    }
  });
});
