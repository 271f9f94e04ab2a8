import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import { announceWait } from '../../lib/client/wait-channel.js';
import { ProgressLine } from '../../lib/runner/progress-line.js';

class Capture extends Writable {
  text = '';
  isTTY: boolean;
  columns = 80;
  constructor(tty: boolean) {
    super();
    this.isTTY = tty;
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    this.emit('text');
    done();
  }
  /** Resolves when the text holds `part`: waits on the write, never on a clock. */
  until(part: string): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!this.text.includes(part)) return;
        this.off('text', check);
        resolve();
      };
      this.on('text', check);
      check();
    });
  }
}

const module = (tests: number) =>
  ({
    children: { allTests: () => Array.from({ length: tests })[Symbol.iterator]() },
  }) as unknown as TestModule;
const testCase = (name: string, verdict?: string, state = 'passed') =>
  ({
    name,
    meta: () => ({
      ruleId: name.split(' ')[0],
      ...(verdict ? { conformance: { verdict } } : {}),
    }),
    result: () => ({ state }),
  }) as unknown as TestCase;

describe('ProgressLine', () => {
  it('rewrites one line in place on a terminal and clears it at the end', () => {
    const stream = new Capture(true);
    const progress = new ProgressLine({ stream });
    progress.onTestRunStart();
    progress.onTestModuleCollected(module(3));
    progress.onTestCaseResult(testCase('IDEM-01 MUST x', 'passed'));
    progress.onTestCaseResult(testCase('IDEM-02 MUST y', 'failed'));
    progress.onTestCaseResult(testCase('IDEM-03 MUST z', undefined, 'failed'));
    progress.onTestRunEnd();
    expect(stream.text).not.toContain('\n');
    // Each write starts with carriage return + erase-line; shown here as `|`.
    const frames = stream.text.replaceAll('\r\u001b[2K', '|');
    expect(frames).toMatch(
      /\|checks 3\/3 {2}passed 1 {2}failed 1 {2}error 1 {2}\d+\.\ds {2}IDEM-03\|$/,
    );
  });

  it('prints plain lines elsewhere, only when something changed', () => {
    vi.useFakeTimers();
    const stream = new Capture(false);
    const progress = new ProgressLine({ stream, intervalMs: 5_000 });
    progress.onTestRunStart();
    progress.onTestModuleCollected(module(2));
    progress.onTestCaseResult(testCase('TOKEN-01 MUST x', 'not_verifiable'));
    vi.advanceTimersByTime(20_000);
    progress.onTestCaseResult(testCase('TOKEN-02 MUST x', 'passed'));
    progress.onTestRunEnd();
    vi.useRealTimers();
    const lines = stream.text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^checks 1\/2 {2}n\/v 1 /);
    expect(lines[1]).toMatch(/^checks 2\/2 {2}passed 1 {2}n\/v 1 /);
    expect(stream.text).not.toContain('\r');
  });

  it('prints no line before any check is known (workers started beside a slow dialect probe)', () => {
    vi.useFakeTimers();
    const stream = new Capture(false);
    const progress = new ProgressLine({ stream, intervalMs: 5_000 });
    progress.onTestRunStart();
    vi.advanceTimersByTime(20_000);
    // The run is called off before its checks: none ran.
    progress.onTestRunEnd();
    vi.useRealTimers();
    expect(stream.text).toBe('');
  });

  it('says what a check waits for and how long, announced from any thread', async () => {
    const stream = new Capture(false);
    const progress = new ProgressLine({ stream, intervalMs: 60_000 });
    progress.onTestRunStart();
    progress.onTestModuleCollected(module(2));
    // What the pacer does in a worker thread (lib/check/run-shared.ts): a BroadcastChannel message.
    announceWait({ what: 'the write window of key odp_test_ak_abc', ms: 41_000 });
    announceWait({ what: 'the write window of key odp_test_ak_abc', ms: 41_000 });
    await stream.until('waiting');
    await new Promise((resolve) => setImmediate(resolve));
    expect(stream.text).toMatch(
      /^checks 0\/2 .* waiting 41 s for the write window of key odp_test_ak_abc\n$/,
    );
    progress.onTestCaseResult(testCase('TOKEN-01 MUST x', 'passed'));
    expect(progress.line()).not.toContain('waiting');
    progress.onTestRunEnd();
  });
});
