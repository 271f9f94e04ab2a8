import { type HttpClient, networkWords, UNRECORDED } from '../client/http-client.js';
import { HarnessError } from '../violations/harness-error.js';
import { RunAborted } from './run-aborted.js';

/** Well inside the 15 seconds an unreachable target may take to end the run. */
export const PROBE_TIMEOUT_MS = 8_000;

/** The probe's answer: the preflight judges whether it is this API at all. */
export interface ProbeAnswer {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  /** The body, at most the client's cap (`over` when it went on). */
  text: string;
  /** The body went on past the suite's cap: `text` is its beginning. */
  over?: true;
}

/**
 * Is anything answering HTTP at the target? Any status counts (a 404 or a
 * garbage body is the checks' business, a body past the cap too); only no
 * answer at all aborts the run, fast, instead of letting every check time out
 * one by one.
 */
export async function probeTarget(
  http: HttpClient,
  url: string,
  what: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ProbeAnswer> {
  const answer = await sendOrAbort(
    http,
    { method: 'GET', url, headers: {}, channel: 'api' },
    `${what} ${new URL(url).origin}`,
    timeoutMs,
  );
  return {
    method: 'GET',
    url,
    status: answer.status,
    contentType: answer.headers['content-type'],
    text: answer.text,
    ...(answer.over ? { over: true as const } : {}),
  };
}

/**
 * One request before the run (probe, pre-flight, capabilities), unrecorded;
 * no answer at all ends the run, saying `what` is unreachable and why.
 */
export async function sendOrAbort(
  http: HttpClient,
  req: Parameters<HttpClient['send']>[0],
  what: string,
  timeoutMs: number,
): ReturnType<HttpClient['send']> {
  try {
    return await http.send(req, UNRECORDED);
  } catch (error) {
    if (error instanceof HarnessError && error.code !== 'HARNESS_BUG')
      throw new RunAborted(`${what} is unreachable: ${networkWords(error, timeoutMs)}`);
    throw error;
  }
}
