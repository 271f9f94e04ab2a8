/** Why a request got no answer, in words: `connection refused (ECONNREFUSED)`. */
export function networkCause(error: unknown, timeoutMs: number): string {
  const err = error as { code?: string; name?: string; message?: string; cause?: unknown };
  const cause = (err.cause ?? {}) as { code?: string; message?: string };
  const code = cause.code ?? err.code;
  if (
    err.name === 'TimeoutError' ||
    err.name === 'AbortError' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT'
  ) {
    return `no answer within ${timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`}`;
  }
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    ECONNRESET: 'connection reset',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    UND_ERR_SOCKET: 'connection closed',
  };
  if (code && words[code]) return `${words[code]} (${code})`;
  const message = (cause.message ?? err.message ?? 'unknown error').split('\n')[0];
  return code ? `${message} (${code})` : String(message);
}
