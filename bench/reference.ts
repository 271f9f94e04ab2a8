/**
 * `npm run bench:reference`: request rate, latency and memory of the bundled
 * reference server, beside a bare Fastify hello-world on the same machine, in
 * one run, so that both meet the same load. Targets:
 *   - authenticated GET /account: at least half the bare framework's req/s;
 *   - POST /orders with a fresh Idempotency-Key per request: at least 2,000/s on SQLite,
 *     in the durable default (each answer waits for its commit's fsync; the group
 *     commit shares one fsync among concurrent orders). The same load is also
 *     measured with `--durability relaxed` (no fsync), for comparison only;
 *   - resident memory of the server under that load: under 200 MB.
 *
 * Each server runs in its own process (the reference through its real CLI,
 * on a WAL SQLite file) so that autocannon, in this process, does not share
 * the server's event loop. The reference runs as plain JavaScript, bundled
 * by esbuild from server/main.ts (its dependencies left as imports), as one
 * would deploy it: under tsx (`npm run reference`), the loader's own thread
 * adds about 45 MB of resident memory that is not the server's. The benchmark account is made through the control
 * API with generous limits: the reference's `rate_limits` account setting (an
 * addition documented in server/README.md) lifts the §8 per-key rate limits,
 * and `limits` lifts orders per day and order value, so that every measured
 * request is a success (non-2xx answers are counted and fail the run).
 *
 * The scenarios run in alternating rounds and the figures are medians, so
 * that load from elsewhere on a shared machine hits them alike.
 * BENCH_DURATION (seconds per run, default 5), BENCH_ROUNDS (default 5) and
 * BENCH_CONNECTIONS (default 32) tune it. Exit code 1 when a target is missed.
 *
 * `-- --database-url postgres://…` (the shared sandbox's store) adds, in the same rounds, GET
 * /account and POST /orders on one and on two reference instances sharing a
 * PostgreSQL database (bench/postgres.ts); two instances take the load's
 * connections in turn (autocannon's several URLs: no proxy in the way); their
 * orders are spread over several accounts (POSTGRES_ORDER_ACCOUNTS). Those
 * figures have no target: they are there to compare with SQLite.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { benchDatabase, benchDatabaseUrl } from './postgres.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const API = '/api/on-demand/v1';
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP_SECONDS = 3;
const MB = 1024 * 1024;

/** The part of autocannon's API used here (the package ships no types). */
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: {
  /** Several URLs: the connections are spread over them in turn. */
  url: string | string[];
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

interface Server {
  child: ChildProcess;
  origin: string;
}

async function startProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    // A developer's DATABASE_URL must not move the SQLite servers to PostgreSQL.
    env: { ...process.env, DATABASE_URL: '', ...env },
  });
  let stdout = '';
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
  return { child, origin };
}

async function stopProcess(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  await exited;
}

const HELLO_WORLD = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write('listening http://127.0.0.1:' + app.server.address().port + '\\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

/** Samples the process's resident memory (Linux /proc) every 100 ms; returns a stop function giving the peak. */
function sampleRss(pid: number): () => number | undefined {
  let peak: number | undefined;
  const read = () => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match?.[1]) peak = Math.max(peak ?? 0, Number(match[1]) * 1024);
    } catch {
      // Not Linux, or the process is gone: no figure.
    }
  };
  read();
  const timer = setInterval(read, 100);
  return () => {
    clearInterval(timer);
    read();
    return peak;
  };
}

interface Run {
  result: AutocannonResult;
  peakRss: number | undefined;
}

interface Scenario {
  name: string;
  server: Server;
  options: Parameters<Autocannon>[0];
  runs: Run[];
}

async function measure(scenario: Scenario, seconds: number): Promise<Run> {
  const stop = sampleRss(scenario.server.child.pid ?? 0);
  const result = await autocannon({ ...scenario.options, duration: seconds });
  return { result, peakRss: stop() };
}

async function json(
  origin: string,
  path: string,
  init: RequestInit,
): Promise<Record<string, string>> {
  const res = await fetch(`${origin}${path}`, init);
  const body = (await res.json()) as Record<string, string>;
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${path} → ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A benchmark account: generous limits (see the header comment), one key, one token. */
async function benchmarkBearer(
  origin: string,
  controlToken: string,
): Promise<Record<string, string>> {
  const control = { 'x-control-token': controlToken, 'content-type': 'application/json' };
  const account = await json(origin, '/__control/accounts', {
    method: 'POST',
    headers: control,
    body: JSON.stringify({
      rate_limits: { read: 1_000_000_000, write: 1_000_000_000, token: 1_000_000_000 },
      limits: { max_orders_per_day: 1_000_000_000, max_order_value: 1_000_000_000 },
    }),
  });
  const key = await json(origin, `/__control/accounts/${account.id}/keys`, {
    method: 'POST',
    headers: control,
    body: '{}',
  });
  const token = await json(origin, `${API}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${key.access_key_id}:${key.secret_key}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  return { authorization: `Bearer ${token.access_token}` };
}

/** POST /orders, each request with the next of `bearers` in turn (one account, or several). */
function orderRequests(...bearers: Array<Record<string, string>>): AutocannonRequest[] {
  let sequence = 0;
  const address = {
    name: 'Bench',
    line1: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    postal_code: '62701',
    country: 'US',
  };
  return [
    {
      method: 'POST',
      path: `${API}/orders`,
      // A fresh Idempotency-Key and external_id for every request: every one places a new order.
      setupRequest: (request) => {
        const n = sequence++;
        return {
          ...request,
          headers: {
            ...bearers[n % bearers.length],
            'content-type': 'application/json',
            'idempotency-key': `bench-${n}`,
          },
          body: JSON.stringify({
            external_id: `bench-${n}`,
            items: [{ sku: 'MUG-WHT-11OZ', quantity: 1 }],
            shipping_address: address,
          }),
        };
      },
    },
  ];
}

async function main(): Promise<void> {
  const databaseUrl = benchDatabaseUrl(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'reference-bench-'));
  const controlToken = randomUUID();
  const bare = await startProcess(['--input-type=module', '-e', HELLO_WORLD]);
  const compiled = await compileReference();
  // The control token travels in the environment, never on a command line (`ps` shows those).
  const reference = await startProcess([compiled, '--port', '0', '--db', join(dir, 'bench.db')], {
    CONTROL_TOKEN: controlToken,
  });
  const relaxed = await startProcess(
    [compiled, '--port', '0', '--db', join(dir, 'relaxed.db'), '--durability', 'relaxed'],
    { CONTROL_TOKEN: controlToken },
  );
  const database = databaseUrl === undefined ? undefined : await benchDatabase(databaseUrl);
  const onPostgres: Server[] = [];
  try {
    if (database) {
      console.log(`PostgreSQL: ${database.note}`);
      for (let i = 0; i < 2; i++) {
        onPostgres.push(
          await startProcess([compiled, '--port', '0'], {
            CONTROL_TOKEN: controlToken,
            DATABASE_URL: database.url,
          }),
        );
      }
    }
    const bearer = await benchmarkBearer(reference.origin, controlToken);
    const relaxedBearer = await benchmarkBearer(relaxed.origin, controlToken);
    const base = { connections: CONNECTIONS, duration: DURATION };
    const scenarios: Scenario[] = [
      {
        name: 'bare fastify hello-world GET /',
        server: bare,
        options: { ...base, url: bare.origin },
        runs: [],
      },
      {
        name: 'reference GET /account (authenticated)',
        server: reference,
        options: { ...base, url: `${reference.origin}${API}/account`, headers: bearer },
        runs: [],
      },
      {
        name: 'reference POST /orders (durable, default)',
        server: reference,
        options: { ...base, url: reference.origin, requests: orderRequests(bearer) },
        runs: [],
      },
      {
        name: 'reference POST /orders (--durability relaxed)',
        server: relaxed,
        options: { ...base, url: relaxed.origin, requests: orderRequests(relaxedBearer) },
        runs: [],
      },
      ...postgresScenarios(onPostgres, await pairBearers(onPostgres, controlToken), base),
    ];
    for (const scenario of scenarios) await measure(scenario, WARMUP_SECONDS);
    // Rounds alternate the scenarios, so that load from elsewhere on the machine hits them alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const scenario of scenarios) scenario.runs.push(await measure(scenario, DURATION));
    }
    report(scenarios);
  } finally {
    await stopProcess(bare);
    await stopProcess(reference);
    await stopProcess(relaxed);
    for (const server of onPostgres) await stopProcess(server);
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * POST /orders of one account are serialized across instances (its write lock:
 * idempotency, external_id and daily counts), so a shared sandbox's order
 * throughput is that of its partners together: the PostgreSQL order scenarios
 * spread their requests over this many accounts.
 */
const POSTGRES_ORDER_ACCOUNTS = 8;

/** Accounts for one instance, others for two (made on the first: they share the database). */
async function pairBearers(
  servers: readonly Server[],
  controlToken: string,
): Promise<Array<Array<Record<string, string>>>> {
  const first = servers[0];
  if (first === undefined) return [];
  const accounts = async () => {
    const bearers: Array<Record<string, string>> = [];
    for (let i = 0; i < POSTGRES_ORDER_ACCOUNTS; i++) {
      bearers.push(await benchmarkBearer(first.origin, controlToken));
    }
    return bearers;
  };
  return [await accounts(), await accounts()];
}

/** GET /account and POST /orders on one, then two, PostgreSQL instances (memory sampled on the first). */
function postgresScenarios(
  servers: readonly Server[],
  bearers: ReadonlyArray<Array<Record<string, string>>>,
  base: { connections: number; duration: number },
): Scenario[] {
  const [first] = servers;
  const [oneAccounts, twoAccounts] = bearers;
  const one = oneAccounts?.[0];
  const two = twoAccounts?.[0];
  if (first === undefined || !oneAccounts || !twoAccounts || !one || !two) return [];
  const accounts = `${POSTGRES_ORDER_ACCOUNTS} accounts`;
  const both = servers.map((server) => server.origin);
  return [
    {
      name: 'PostgreSQL, 1 instance: GET /account',
      server: first,
      options: { ...base, url: `${first.origin}${API}/account`, headers: one },
      runs: [],
    },
    {
      name: 'PostgreSQL, 2 instances: GET /account',
      server: first,
      options: { ...base, url: both.map((origin) => `${origin}${API}/account`), headers: two },
      runs: [],
    },
    {
      name: `PostgreSQL, 1 instance: POST /orders (${accounts})`,
      server: first,
      options: { ...base, url: first.origin, requests: orderRequests(...oneAccounts) },
      runs: [],
    },
    {
      name: `PostgreSQL, 2 instances: POST /orders (${accounts})`,
      server: first,
      options: { ...base, url: both, requests: orderRequests(...twoAccounts) },
      runs: [],
    },
  ];
}

/**
 * server/main.ts as one JavaScript file. It lands inside the project (in
 * the git-ignored .tmp/) so that its imports of fastify, better-sqlite3 and
 * the rest resolve to this project's node_modules.
 */
async function compileReference(): Promise<string> {
  const outfile = join(ROOT, '.tmp', 'bench-reference', 'main.mjs');
  await build({
    entryPoints: [join(ROOT, 'server', 'main.ts')],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
  return outfile;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function report(scenarios: Scenario[]): void {
  const [bare, account, orders, relaxedOrders] = scenarios;
  if (!bare || !account || !orders || !relaxedOrders) throw new Error('a scenario is missing');
  console.log(
    `\nreference server benchmark: ${ROUNDS} rounds of ${DURATION}s per scenario, ${CONNECTIONS} connections, ` +
      `after ${WARMUP_SECONDS}s warm-up each; figures are medians over the rounds\n`,
  );
  for (const { name, runs } of scenarios) {
    const rate = median(runs.map((r) => r.result.requests.average));
    const p50 = median(runs.map((r) => r.result.latency.p50));
    const p99 = median(runs.map((r) => r.result.latency.p99));
    const peak = Math.max(...runs.map((r) => r.peakRss ?? 0));
    const total = runs.reduce((sum, r) => sum + r.result.requests.total, 0);
    const failed = runs.reduce(
      (sum, r) => sum + r.result.non2xx + r.result.errors + r.result.timeouts,
      0,
    );
    console.log(
      `${name.padEnd(48)} ${rate.toFixed(0).padStart(7)} req/s  latency p50 ${p50} ms, p99 ${p99} ms  ` +
        `peak RSS ${peak === 0 ? 'n/a' : `${(peak / MB).toFixed(0)} MB`}  (${total} requests, ${failed} failed)  ` +
        `rounds: ${runs.map((r) => r.result.requests.average.toFixed(0)).join(', ')}`,
    );
  }
  const ratios = bare.runs.map(
    (run, i) => (account.runs[i]?.result.requests.average ?? 0) / run.result.requests.average,
  );
  const ratio = median(ratios);
  const ordersRate = median(orders.runs.map((r) => r.result.requests.average));
  const peak = Math.max(...[...account.runs, ...orders.runs].map((r) => r.peakRss ?? 0));
  const relaxedRate = median(relaxedOrders.runs.map((r) => r.result.requests.average));
  const failed = [...account.runs, ...orders.runs, ...relaxedOrders.runs].reduce(
    (sum, r) => sum + r.result.non2xx + r.result.errors + r.result.timeouts,
    0,
  );
  const checks: Array<[string, boolean]> = [
    [
      `GET /account ≥ 50% of bare fastify: ${(ratio * 100).toFixed(0)}% (per round: ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')})`,
      ratio >= 0.5,
    ],
    [
      `POST /orders (durable) ≥ 2000 req/s: ${ordersRate.toFixed(0)} (relaxed: ${relaxedRate.toFixed(0)}, for comparison)`,
      ordersRate >= 2000,
    ],
    [
      `reference peak RSS < 200 MB: ${peak === 0 ? 'n/a' : `${(peak / MB).toFixed(0)} MB`}`,
      peak > 0 && peak < 200 * MB,
    ],
    [`every reference request succeeded: ${failed} failed`, failed === 0],
  ];
  console.log('\ntargets');
  for (const [label, met] of checks) console.log(`  ${met ? 'MET    ' : 'MISSED '} ${label}`);
  if (checks.some(([, met]) => !met)) process.exitCode = 1;
}

await main();
