import type { Exchange } from '../evidence/exchange.js';
import { jsonPieces } from './json-pieces.js';
import type { Report } from './report-model.js';
import { suiteVersion } from './suite-version.js';

/**
 * `exchanges.har`: every HTTP exchange of the run as HAR 1.2
 * (http://www.softwareishard.com/blog/har-12-spec/), one page per rule, so a
 * HAR viewer shows a rule's requests together. Built from the report's
 * evidence, which is redacted where it is recorded: the HAR holds no secret
 * the report does not. What the run did not record (HTTP version, sizes on
 * the wire, timing phases) is given as HAR's "unknown" (-1) or folded into
 * `wait`, never invented. Written in pieces (json-pieces.ts).
 */
export function* renderHar(report: Report): Generator<string> {
  const probe = report.dialect_probe?.evidence ?? [];
  const pages: HarPage[] = [];
  if (probe.length > 0) pages.push(pageOf(PROBE_PAGE, 'dialect probe (before the checks)', probe));
  // A client report: the client's exchanges once, in order, on one page (its results point into them).
  const client = report.client?.exchanges;
  if (client) {
    if (client.length > 0)
      pages.push(pageOf(CLIENT_PAGE, `the client: ${report.client?.command.join(' ')}`, client));
  } else {
    for (const result of report.results) {
      const evidence = result.evidence ?? [];
      const title = `${result.rule_id} ${result.title} (${result.verdict})`;
      if (evidence.length > 0) pages.push(pageOf(result.rule_id, title, evidence));
    }
  }
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'partner-ordering-conformance', version: suiteVersion() },
      pages,
      // Made one at a time as they are written (json-pieces.ts): a full run has thousands.
      entries: entriesOf(report, probe),
      comment: report.client
        ? `client grading against ${report.target}, ${report.started_at}`
        : `conformance run of ${report.target}, seed ${report.seed}, ${report.started_at}`,
    },
  };
  yield* jsonPieces(har, ['log', 'entries']);
  yield '\n';

  function pageOf(id: string, title: string, evidence: readonly Exchange[]): HarPage {
    const startedDateTime = evidence[0]?.startedAt ?? report.started_at;
    return { startedDateTime, id, title, pageTimings: { onContentLoad: -1, onLoad: -1 } };
  }
}

function* entriesOf(report: Report, probe: readonly Exchange[]): Generator<HarEntry> {
  for (const exchange of probe) yield entryOf(exchange, PROBE_PAGE, report);
  if (report.client) {
    for (const exchange of report.client.exchanges) yield entryOf(exchange, CLIENT_PAGE, report);
    return;
  }
  for (const result of report.results) {
    for (const exchange of result.evidence ?? []) yield entryOf(exchange, result.rule_id, report);
  }
}

/** The HAR page of the dialect probe's exchanges (report.dialect_probe). */
const PROBE_PAGE = 'dialect-probe';
/** The HAR page of a client report's exchanges (report.client). */
const CLIENT_PAGE = 'client';

interface HarPage {
  startedDateTime: string;
  id: string;
  title: string;
  pageTimings: { onContentLoad: number; onLoad: number };
}

type NameValue = { name: string; value: string };

interface HarEntry {
  pageref: string;
  startedDateTime: string;
  time: number;
  request: Record<string, unknown>;
  response: Record<string, unknown>;
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment: string;
}

function entryOf(exchange: Exchange, ruleId: string, report: Report): HarEntry {
  const origin =
    exchange.channel === 'control' && report.target_info.control_url
      ? new URL(report.target_info.control_url).origin
      : report.target;
  const url = new URL(exchange.request.url, origin);
  const requestHeaders = headerList(exchange.request.headers);
  const body = exchange.request.body;
  const request: Record<string, unknown> = {
    method: exchange.request.method,
    url: url.href,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: requestHeaders,
    queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
    headersSize: -1,
    bodySize: body === undefined ? 0 : Buffer.byteLength(body),
    ...(body === undefined
      ? {}
      : {
          postData: {
            mimeType: header(exchange.request.headers, 'content-type') ?? '',
            text: body,
          },
        }),
  };
  const res = exchange.response;
  const responseBody = res?.body ?? '';
  const response: Record<string, unknown> = {
    // HAR's convention for "no response" (a network error): status 0.
    status: res?.status ?? 0,
    statusText: '',
    httpVersion: res ? 'HTTP/1.1' : '',
    cookies: [],
    headers: headerList(res?.headers ?? {}),
    content: {
      size: Buffer.byteLength(responseBody),
      mimeType: header(res?.headers ?? {}, 'content-type') ?? '',
      ...(res?.body === undefined ? {} : { text: res.body }),
    },
    redirectURL: header(res?.headers ?? {}, 'location') ?? '',
    headersSize: -1,
    bodySize: res ? Buffer.byteLength(responseBody) : -1,
    ...(exchange.error ? { _error: `${exchange.error.code}: ${exchange.error.message}` } : {}),
  };
  const time = Math.max(0, exchange.durationMs);
  return {
    pageref: ruleId,
    startedDateTime: exchange.startedAt,
    time,
    request,
    response,
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    comment: `exchange #${exchange.id} of ${ruleId} (${exchange.channel})`,
    // Requests sent together (held at their last byte and released at once): their race's number.
    ...(exchange.together === undefined ? {} : { _together: exchange.together }),
  };
}

function headerList(map: Record<string, string>): NameValue[] {
  return Object.entries(map).map(([name, value]) => ({ name, value }));
}

function header(map: Record<string, string>, name: string): string | undefined {
  const found = Object.entries(map).find(([key]) => key.toLowerCase() === name);
  return found?.[1];
}
