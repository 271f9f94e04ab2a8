import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { runCli } from './support/run-cli.js';

interface HarEntry {
  pageref: string;
  startedDateTime: string;
  request: { method: string; url: string };
  response: { status: number };
}

/**
 * A burst that provokes a 429 crosses into the next fixed window of the account clock when a
 * minute of it ends during the burst: no 429 comes from the burst, and the check then sends one
 * request at a time for the rest of the new window's allowance (through 50 ms of round-trip
 * time, 300 reads took 15 s). With a clock to move, every key's burst starts at a minute's start.
 */
describe("the rate-limit checks' bursts", () => {
  it('start just after the account clock was moved to the start of a minute', async () => {
    const dir = join(emptyDir(), 'rate-window');
    const result = await runCli(['--only', 'RATE-16', '--seed', '9', '--report-dir', dir]);
    expect(result.code, result.stderr).toBe(0);
    const har = JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')) as {
      log: { entries: HarEntry[] };
    };
    const entries = har.log.entries.filter((entry) => entry.pageref === 'RATE-16');
    // The reads' burst, the longest of the three: an account's clock was moved before its first read.
    const reads = entries.findIndex(
      (e) => e.request.method === 'GET' && /\/account$/.test(e.request.url),
    );
    expect(reads).toBeGreaterThan(0);
    const clockMoves = entries.filter((e) =>
      /\/__control\/accounts\/[^/]+\/clock$/.test(e.request.url),
    );
    const firstReadAt = Date.parse((entries[reads] as HarEntry).startedDateTime);
    const movedBefore = clockMoves.filter((e) => Date.parse(e.startedDateTime) <= firstReadAt);
    expect(movedBefore.length).toBeGreaterThan(0);
  });
});
