import { describe, expect, it, vi } from 'vitest';
import { FileFixture } from '../../lib/check/file-fixture.js';
import { REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import type { RunConfig } from '../../lib/target/run-config.js';

const CONFIG = {
  origin: 'http://127.0.0.1:9',
  apiBaseUrl: 'http://127.0.0.1:9/api/on-demand/v1',
  controlUrl: 'http://127.0.0.1:9/__control',
  controlToken: 'control-token-of-the-test',
  capabilities: ['accounts', 'keys'],
  requestTimeoutMs: 30_000,
  dialect: REFERENCE_DIALECT,
  seed: 1,
  numRuns: 1,
} as unknown as RunConfig;

// A group runs many check files as one vitest file, which keeps each file's fixture until the
// group ends: the file's last check closes it instead, and lets go of what it recorded.
describe("a check file's fixture", () => {
  it('is closed when its last check ends, not before, and only once', async () => {
    const fixture = new FileFixture(CONFIG);
    const close = vi.spyOn(fixture, 'close');
    fixture.checkRegistered();
    fixture.checkRegistered();
    fixture.shared.set('made once', Promise.resolve({ value: 1, exchanges: [] } as never));

    await fixture.checkEnded();
    expect(close).not.toHaveBeenCalled();
    expect(fixture.shared.size).toBe(1);

    await fixture.checkEnded();
    expect(close).toHaveBeenCalledTimes(1);
    expect(fixture.shared.size).toBe(0);
    // The group's end closes every file again: the same close, not a second.
    expect(fixture.close()).toBe(fixture.close());
  });
});
