import type { JsonText } from './json-text.js';

/**
 * One HTTP exchange as evidence. Recorded already redacted: no field here may
 * hold a Secret Key, an access token, Basic credentials or the control token.
 */
export interface Exchange {
  /** Sequence number within the check, from 1. */
  id: number;
  channel: 'api' | 'control';
  startedAt: string;
  durationMs: number;
  request: {
    method: string;
    /** Path and query as sent, relative to the origin. */
    url: string;
    headers: Record<string, string>;
    body?: string;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    body?: string;
  };
  /** Set when no response came: the harness error's code and message. */
  error?: { code: string; message: string };
  /** In a client report: what the sandbox did around this exchange (a situation played, a clock moved). */
  notes?: string[];
  /**
   * Set on requests sent together, as one race (lib/client/last-byte.ts):
   * the race's number in the check file. Exchanges with the same number were
   * held at their last byte and released at once, each on its own connection.
   */
  together?: number;
}

/** One exchange as the client saw it, before redaction: what the recorder records. */
export interface RawExchange {
  channel: Exchange['channel'];
  startedAt: Date;
  /**
   * When it was sent, in milliseconds since the epoch to the fraction: which
   * requests were in flight together (a race a reproduction sends together again).
   */
  sentAt?: number;
  durationMs: number;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  /** The body went on past the suite's cap (these words say so): `responseBody` is its beginning. */
  responseOver?: string;
  /** `responseBody` as the client read it as JSON (readJsonText), when it did: not read again. */
  responseRead?: JsonText;
  error?: { code: string; message: string };
  together?: number;
  /** The racer's place in its race (`together`): its last byte went out in this order. */
  place?: number;
  /**
   * A racer's warm-up (last-byte.ts): evidence like any exchange, but no step
   * a reproduction replays (it warms its racers' connections its own way).
   */
  warmUp?: true;
}
