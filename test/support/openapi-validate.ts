import {
  createInstance,
  getHttpOperationsFromSpec,
  type IHttpRequest,
  type IHttpResponse,
} from '@stoplight/prism-http';
import type { Exchange } from '../../lib/evidence/exchange.js';

/**
 * Answers of a run judged against an OpenAPI document by Prism
 * (@stoplight/prism-http), the validation of its proxy: its router finds the
 * operation, its validators judge the request (security, parameters, body)
 * and the answer (status among those documented, media type, headers, body).
 * Prism is handed each recorded answer in place of an upstream's, so nothing
 * is sent anywhere. A request Prism finds invalid (the suite sends many on
 * purpose) or that names no operation of the document is not held against
 * the answer: the document only promises answers to valid requests.
 */
export interface ExchangeVerdict {
  exchange: string;
  /** `valid`: the request was valid and so was the answer. */
  kind: 'valid' | 'violation' | 'invalid-request' | 'no-operation' | 'not-judged';
  /** What Prism said of the answer (violations), or why the exchange was set aside. */
  messages: string[];
}

const API_BASE = '/api/on-demand/v1';

/** A logger for Prism that says nothing (pino's shape: levels and child). */
function silentLogger(): never {
  const noop = () => undefined;
  const logger: Record<string, unknown> = {};
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'success', 'log'])
    logger[level] = noop;
  logger.child = () => logger;
  return logger as never;
}

/** `keyPrefix`: the dialect's, for the stand-ins of redacted tokens. */
export async function openApiJudge(document: object, keyPrefix: string) {
  const standIns = standInsOf(keyPrefix);
  const operations = await getHttpOperationsFromSpec(structuredClone(document));
  return async (exchange: Exchange): Promise<ExchangeVerdict> => {
    const id = String(exchange.id);
    const url = new URL(exchange.request.url, 'http://target.invalid');
    if (!exchange.response || exchange.channel === 'control' || !url.pathname.startsWith(API_BASE))
      return { exchange: id, kind: 'not-judged', messages: ['no answer, or not an API request'] };
    const body = exchange.response.body ?? '';
    if (/… \[\d+ more characters\]$/.test(body))
      return { exchange: id, kind: 'not-judged', messages: ['the evidence cut the body'] };
    const request: IHttpRequest = {
      method: exchange.request.method.toLowerCase() as IHttpRequest['method'],
      url: {
        path: url.pathname.slice(API_BASE.length) || '/',
        query: queryOf(url.searchParams),
      },
      headers: standIns(exchange.request.headers),
      ...(exchange.request.body === undefined ? {} : { body: parsed(exchange.request.body) }),
    };
    const response: IHttpResponse = {
      statusCode: exchange.response.status,
      headers: standIns(exchange.response.headers),
      ...(body === '' ? {} : { body: parsed(standIns({ body }).body ?? '') }),
    };
    const prism = createInstance(
      {
        isProxy: true,
        upstream: new URL('http://upstream.invalid'),
        upstreamProxy: undefined,
        checkSecurity: true,
        validateRequest: true,
        validateResponse: true,
        errors: false,
        mock: { dynamic: false },
      },
      {
        logger: silentLogger(),
        // The recorded answer, in place of the upstream's (fp-ts ReaderTaskEither: logger → task → Either).
        forward: () => () => async () => ({ _tag: 'Right', right: response }) as never,
      },
    );
    const result = await prism.request(request, operations)();
    if (result._tag === 'Left')
      return { exchange: id, kind: 'no-operation', messages: [result.left.message] };
    const { input, output } = result.right.validations;
    if (input.length > 0)
      return { exchange: id, kind: 'invalid-request', messages: input.map(say) };
    if (output.length > 0) return { exchange: id, kind: 'violation', messages: output.map(say) };
    return { exchange: id, kind: 'valid', messages: [] };
  };
}

function say(d: { message: string; path?: string[] }): string {
  return `${d.path?.length ? `${d.path.join('.')}: ` : ''}${d.message}`;
}

function queryOf(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The evidence holds no secret: each is `[REDACTED:<kind>#<n>]`. An access
 * token and Basic credentials stand in with values of their kind's shape
 * (`odp_at_…`, base64 of `id:secret`), so that what was sent around them is
 * judged as sent (the suite's own checks judge the credentials).
 */
/** Basic credentials of the shape RFC 7617 gives them (base64 of `id:secret`). */
const BASIC_STAND_IN = Buffer.from('redacted-key-id:redacted-secret').toString('base64');

function standInsOf(keyPrefix: string) {
  return <T extends Record<string, string>>(values: T): T => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(values))
      out[name] = value
        .replace(/\[REDACTED:token#(\d+)\]/g, (_, n: string) => `${keyPrefix}_at_redacted${n}`)
        .replace(/\[REDACTED:basic-credentials(#\d+)?\]/g, BASIC_STAND_IN);
    return out as T;
  };
}
