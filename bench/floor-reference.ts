/**
 * The floor's reference server (bench/full-run.ts), in a process of its own: started anew for
 * every floor run, so that each round's floor is measured as the first round's was. In the
 * bench's own process the reference answered every round's run with code its earlier rounds
 * had already warmed up, and the floor fell round after round (1.64, 1.29, 1.20, 1.04, 0.99
 * CPU-seconds for the same ~9,300 requests, five rounds) while the runs it was compared with
 * each started a reference of their own, cold.
 *
 * Spoken to over the IPC channel `fork` gives it. It answers `{ origin, controlToken }` once
 * listening; `start` begins its count of requests and CPU time, `stop` answers them and
 * exits. Arrivals are times on the clock every process shares (performance.timeOrigin).
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../server/app.js';

export type FloorMessage =
  | { kind: 'listening'; origin: string; controlToken: string }
  | {
      kind: 'counted';
      requests: number;
      busySeconds: number;
      /** Epoch milliseconds of the first requests (up to 400), and of those to the API alone. */
      arrivals: number[];
      apiArrivals: number[];
    };

const send = (message: FloorMessage) =>
  new Promise<void>((resolve) => process.send?.(message, () => resolve()));

const controlToken = randomBytes(24).toString('base64url');
const app = await buildApp({ controlToken, db: ':memory:' });
let counting = false;
let requests = 0;
const arrivals: number[] = [];
const apiArrivals: number[] = [];
app.server.on('request', (req) => {
  if (!counting) return;
  requests += 1;
  const at = performance.timeOrigin + performance.now();
  if (arrivals.length < 400) arrivals.push(at);
  if (apiArrivals.length < 400 && !req.url?.startsWith('/__control')) apiArrivals.push(at);
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
let cpu = process.cpuUsage();
let stopped = false;
process.on('message', async (message: unknown) => {
  if (message === 'start') {
    counting = true;
    cpu = process.cpuUsage();
  } else if (message === 'stop') {
    stopped = true;
    const used = process.cpuUsage(cpu);
    counting = false;
    await send({
      kind: 'counted',
      requests,
      busySeconds: (used.user + used.system) / 1e6,
      arrivals,
      apiArrivals,
    });
    await app.close();
    process.disconnect();
  }
});
// The bench gone (stopped, crashed): no reference is left listening behind it.
process.once('disconnect', () => {
  if (!stopped) void app.close().finally(() => process.exit(0));
});
await send({ kind: 'listening', origin: `http://127.0.0.1:${port}`, controlToken });
