import type { HarnessCode } from '../violations/harness-error.js';
import { errors as undiciErrors } from './undici.js';

/**
 * The one reading of why a request got no answer: a harness code (a timeout
 * or any other network failure, never the target's violation) and the cause
 * in words, `connection refused (ECONNREFUSED)`, `no answer within 8 s`.
 */
export function classifyNetworkError(
  error: unknown,
  timeoutMs: number,
): { code: Extract<HarnessCode, 'HARNESS_NETWORK' | 'HARNESS_TIMEOUT'>; words: string } {
  const err = (error ?? {}) as { code?: string; name?: string; message?: string; cause?: unknown };
  const cause = (err.cause ?? {}) as { code?: string; message?: string };
  const code = cause.code ?? err.code;
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError ||
    err.name === 'TimeoutError' ||
    err.name === 'AbortError' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    const within = timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`;
    return { code: 'HARNESS_TIMEOUT', words: `no answer within ${within}` };
  }
  if (code && WORDS[code]) return { code: 'HARNESS_NETWORK', words: `${WORDS[code]} (${code})` };
  const message =
    String(cause.message ?? err.message ?? error ?? 'unknown error').split('\n')[0] ?? '';
  return { code: 'HARNESS_NETWORK', words: code ? `${message} (${code})` : message };
}

const WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
  UND_ERR_SOCKET: 'connection closed',
};
