import { Agent, request } from 'undici';
import { networkCause } from './network-cause.js';
import { RunAborted } from './run-aborted.js';

/** Well inside the 15 seconds an unreachable target may take to end the run (issue 3). */
export const PROBE_TIMEOUT_MS = 8_000;

/**
 * Is anything answering HTTP at the target? Any status counts (a 404 or a
 * garbage body is the checks' business); only no answer at all aborts the
 * run, fast, instead of letting every check time out one by one.
 */
export async function probeTarget(
  url: string,
  what: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<void> {
  const agent = new Agent({
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  try {
    const response = await request(url, {
      method: 'GET',
      dispatcher: agent,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body.dump();
  } catch (error) {
    throw new RunAborted(
      `${what} ${new URL(url).origin} is unreachable: ${networkCause(error, timeoutMs)}`,
    );
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}
