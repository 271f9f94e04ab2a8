import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DOCUMENTED_LIMITS,
  KeyPacer,
  type RequestClass,
  rateFloorMs,
  WINDOW_MS,
} from '../../lib/client/rate-limits.js';

/** A clock that only moves when the pacer sleeps or the test says so: no real time passes. */
function fakeClock() {
  const clock = { t: 0, slept: [] as number[] };
  const now = () => clock.t;
  const sleep = async (ms: number) => {
    clock.slept.push(ms);
    clock.t += ms;
  };
  return { clock, pacer: new KeyPacer(now, sleep) };
}

const KEY = 'odp_test_ak_pacer';

describe('the partner key pacer (section 8 limits, one window per class)', () => {
  it('uses the full documented budget of each class before making anyone wait', async () => {
    const { clock, pacer } = fakeClock();
    for (const kind of ['read', 'write', 'token'] as const) {
      for (let i = 0; i < DOCUMENTED_LIMITS[kind]; i++) (await pacer.acquire(KEY, kind)).done();
    }
    expect(clock.slept).toEqual([]);
    expect(pacer.tally(KEY)).toEqual({ read: 300, write: 60, token: 20 });
  });

  it('holds the next request of a used-up class a minute after the oldest answer came back', async () => {
    const { clock, pacer } = fakeClock();
    const first = await pacer.acquire(KEY, 'write');
    clock.t = 5_000; // the first write's answer took 5 s
    first.done();
    for (let i = 1; i < 60; i++) (await pacer.acquire(KEY, 'write')).done();
    const next = await pacer.acquire(KEY, 'write');
    expect(next.waited).toBeGreaterThanOrEqual(60_000);
    expect(clock.t).toBeGreaterThanOrEqual(5_000 + WINDOW_MS);
    expect(clock.t).toBeLessThan(5_000 + WINDOW_MS + 1_000);
  });

  it('lets reads and token requests through while writes are used up', async () => {
    const { clock, pacer } = fakeClock();
    for (let i = 0; i < 60; i++) (await pacer.acquire(KEY, 'write')).done();
    expect((await pacer.acquire(KEY, 'read')).waited).toBe(0);
    expect((await pacer.acquire(KEY, 'token')).waited).toBe(0);
    expect(clock.t).toBe(0);
    // Another key has windows of its own.
    expect((await pacer.acquire('odp_test_ak_other', 'write')).waited).toBe(0);
  });

  it('counts a request sent before it existed (the preflight token request) at its answer time', async () => {
    const { clock, pacer } = fakeClock();
    clock.t = 10_000;
    pacer.sentBefore(KEY, 'token', 4_000);
    for (let i = 0; i < 19; i++) (await pacer.acquire(KEY, 'token')).done();
    expect(clock.t).toBe(10_000);
    // The 21st of the minute waits for the preflight's slot: a minute after its answer.
    await pacer.acquire(KEY, 'token');
    expect(clock.t).toBeGreaterThanOrEqual(4_000 + WINDOW_MS);
    expect(clock.t).toBeLessThan(10_000 + WINDOW_MS);
    expect(pacer.tally(KEY).token).toBe(21);
  });

  it('keeps a request in flight in its window until its answer is back', async () => {
    const { clock, pacer } = fakeClock();
    const inFlight = [];
    for (let i = 0; i < 20; i++) inFlight.push(await pacer.acquire(KEY, 'token'));
    clock.t = 120_000; // long after they were sent, but none has been answered
    const waiting = pacer.acquire(KEY, 'token');
    await Promise.resolve();
    for (const slot of inFlight) slot.done();
    await waiting;
    // Freed a minute after the answers (t = 120 s), not after the sends.
    expect(clock.t).toBeGreaterThanOrEqual(120_000 + WINDOW_MS);
  });

  it('never lets the server see more than the limit in any minute, whatever the latencies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            kind: fc.constantFrom<RequestClass>('read', 'write', 'token'),
            // Time to reach the server, then to come back; and the client's own pause before the next request.
            there: fc.integer({ min: 0, max: 3_000 }),
            back: fc.integer({ min: 0, max: 3_000 }),
            pause: fc.integer({ min: 0, max: 2_000 }),
          }),
          { minLength: 1, maxLength: 200 },
        ),
        async (requests) => {
          const { clock, pacer } = fakeClock();
          const arrivals: Record<RequestClass, number[]> = { read: [], write: [], token: [] };
          for (const r of requests) {
            const slot = await pacer.acquire(KEY, r.kind);
            clock.t += r.there;
            arrivals[r.kind].push(clock.t);
            clock.t += r.back;
            slot.done();
            clock.t += r.pause;
          }
          for (const kind of ['read', 'write', 'token'] as const) {
            const at = arrivals[kind];
            // Sliding windows (the strictest reading): any minute of arrivals holds at most the limit.
            for (let i = 0; i + DOCUMENTED_LIMITS[kind] < at.length; i++) {
              expect(at[i + DOCUMENTED_LIMITS[kind]]! - at[i]!).toBeGreaterThanOrEqual(WINDOW_MS);
            }
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it('plans the classes in parallel: write-bound traffic takes about its write floor, not the sum', async () => {
    const { clock, pacer } = fakeClock();
    // 240 writes, 80 token requests and 1200 reads, interleaved as a run sends them, 100 ms each.
    for (let i = 0; i < 240; i++) {
      for (const kind of ['write', 'read', 'read', 'read', 'read', 'read'] as const) {
        const slot = await pacer.acquire(KEY, kind);
        clock.t += 100;
        slot.done();
      }
      if (i % 3 === 0) {
        const slot = await pacer.acquire(KEY, 'token');
        clock.t += 100;
        slot.done();
      }
    }
    const floor = rateFloorMs(pacer.tally(KEY));
    expect(floor).toBe(240_000);
    expect(clock.t).toBeLessThanOrEqual(1.2 * floor);
  });
});

describe('rate-limit floor', () => {
  it('is the slowest class at its documented rate', () => {
    // A measured partner run: 325 reads, 225 writes, 68 token requests.
    expect(rateFloorMs({ read: 325, write: 225, token: 68 })).toBe(225_000);
    expect(rateFloorMs({ read: 900, write: 10, token: 1 })).toBe(180_000);
    expect(rateFloorMs({ read: 0, write: 0, token: 0 })).toBe(0);
  });
});
