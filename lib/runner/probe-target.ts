import { Agent, request } from 'undici';
import { networkCause } from './network-cause.js';
import { RunAborted } from './run-aborted.js';

/** Well inside the 15 seconds an unreachable target may take to end the run (issue 3). */
export const PROBE_TIMEOUT_MS = 8_000;

/** The probe's answer: the preflight judges whether it is this API at all. */
export interface ProbeAnswer {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  /** The body, at most PROBE_BODY_LIMIT characters. */
  text: string;
}

const PROBE_BODY_LIMIT = 64 * 1024;

/**
 * Is anything answering HTTP at the target? Any status counts (a 404 or a
 * garbage body is the checks' business); only no answer at all aborts the
 * run, fast, instead of letting every check time out one by one.
 */
export async function probeTarget(
  url: string,
  what: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ProbeAnswer> {
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
    const contentType = response.headers['content-type'];
    const text = (await response.body.text()).slice(0, PROBE_BODY_LIMIT);
    return {
      method: 'GET',
      url,
      status: response.statusCode,
      contentType: Array.isArray(contentType) ? contentType.join(', ') : contentType,
      text,
    };
  } catch (error) {
    throw new RunAborted(
      `${what} ${new URL(url).origin} is unreachable: ${networkCause(error, timeoutMs)}`,
    );
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}
