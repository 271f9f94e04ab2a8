import { describe, expect, it } from 'vitest';
import { burstInFlight, filesAtATime } from '../../lib/check/run-shared.js';
import { workerConnections } from '../../lib/plan/concurrency.js';
import { REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import type { RunConfig } from '../../lib/target/run-config.js';

const config = (extra: Partial<RunConfig>): RunConfig => ({
  origin: 'http://127.0.0.1:1',
  apiBaseUrl: 'http://127.0.0.1:1/api/on-demand/v1',
  capabilities: [],
  seed: 1,
  numRuns: 100,
  requestTimeoutMs: 10_000,
  dialect: REFERENCE_DIALECT,
  ...extra,
});

describe("a worker's sockets", () => {
  it('are 32 up to 8 files at a time, and never more than 256 for every worker together', () => {
    for (const files of [1, 2, 4, 8]) expect(workerConnections(files)).toBe(32);
    expect(workerConnections(16)).toBe(16);
    expect(workerConnections(32)).toBe(8);
    // The bundled reference closes connections past 512 from one address; the CLI's own 32 besides.
    for (let files = 1; files <= 32; files++) {
      expect(files * workerConnections(files)).toBeLessThanOrEqual(256);
    }
  });
});

describe("a burst's requests in flight", () => {
  it('are 16 against the bundled reference, whose checks go side by side in one file at a time', () => {
    expect(burstInFlight(config({ concurrency: 4, filesAtATime: 1 }))).toBe(16);
  });

  it("are the worker's sockets against a target elsewhere", () => {
    expect(burstInFlight(config({ concurrency: 8, filesAtATime: 8 }))).toBe(32);
    expect(burstInFlight(config({ concurrency: 16, filesAtATime: 16 }))).toBe(16);
  });

  it('count files at a time from the concurrency when the run configuration does not say', () => {
    expect(filesAtATime(config({ concurrency: 8 }))).toBe(8);
    expect(filesAtATime(config({}))).toBe(1);
    expect(burstInFlight(config({ concurrency: 8 }))).toBe(32);
  });
});
