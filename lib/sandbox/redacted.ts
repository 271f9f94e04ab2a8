import type { Exchange } from '../evidence/exchange.js';
import { HANDED_OUT_BY_TOKEN, Redactor } from '../evidence/redactor.js';
import type { ClientExchange } from './exchange.js';
import { jsonOf } from './facts.js';

/** Bodies beyond this many characters are cut in the report (the judges saw them whole). */
const MAX_BODY_CHARS = 4_000;

/** The secrets the sandbox knows of: its control token and every key it made. */
export interface KnownSecrets {
  keyPrefix: string;
  controlToken?: string;
  keys: { accessKeyId: string; secretKey: string }[];
}

/**
 * The client's exchanges as report evidence, redacted as every exchange the
 * suite records is (lib/evidence/redactor.ts): the Secret Keys, every access
 * token the sandbox issued, Basic and Bearer credentials, in plain,
 * percent-encoded and base64 forms, wherever the client put them.
 */
export function redactedExchanges(
  exchanges: readonly ClientExchange[],
  secrets: KnownSecrets,
): Exchange[] {
  const redactor = new Redactor(secrets.keyPrefix);
  redactor.add(secrets.controlToken, 'control-token');
  for (const key of secrets.keys) {
    redactor.add(key.secretKey, 'secret');
    redactor.add(Buffer.from(key.secretKey).toString('base64'), 'secret');
    redactor.add(
      Buffer.from(`${key.accessKeyId}:${key.secretKey}`).toString('base64'),
      'basic-credentials',
    );
  }
  // What the client was handed: the access tokens of the sandbox's token answers (the other
  // values of an answer are the sandbox's words, never taken for secrets), and every Bearer
  // credential the client sent.
  for (const ex of exchanges) {
    const bearer = ex.requestHeaders.authorization?.match(/^bearer\s+(\S+)/i)?.[1];
    if (bearer) redactor.add(bearer, 'token');
    if (ex.kind === 'token' && ex.status !== undefined && ex.status < 300)
      redactor.learnFields(jsonOf(ex.responseBody), HANDED_OUT_BY_TOKEN);
  }
  return exchanges.map((ex) => {
    const out: Exchange = {
      id: ex.id,
      channel: 'api',
      startedAt: ex.startedAt.toISOString(),
      durationMs: Math.round((ex.answeredMs - ex.receivedMs) * 10) / 10,
      request: {
        method: ex.method,
        url: redactor.redact(ex.url),
        headers: redactor.redactHeaders(ex.requestHeaders),
        ...(ex.requestBody === undefined ? {} : { body: cut(redactor.redact(ex.requestBody)) }),
      },
    };
    if (ex.status !== undefined) {
      out.response = {
        status: ex.status,
        headers: redactor.redactHeaders(ex.responseHeaders),
        ...(ex.responseBody === undefined ? {} : { body: cut(redactor.redact(ex.responseBody)) }),
      };
    }
    if (ex.error) out.error = { code: ex.error.code, message: redactor.redact(ex.error.message) };
    const notes = [
      ...(ex.play ? [`situation ${ex.play.situation}${ex.play.reworded ? ', reworded' : ''}`] : []),
      ...(ex.reworded && !ex.play ? ['title and detail reworded (situation reworded)'] : []),
      ...ex.notes,
    ];
    if (notes.length > 0) out.notes = notes.map((note) => redactor.redact(note));
    return out;
  });
}

function cut(text: string): string {
  return text.length > MAX_BODY_CHARS
    ? `${text.slice(0, MAX_BODY_CHARS)}… [${text.length - MAX_BODY_CHARS} more characters]`
    : text;
}
