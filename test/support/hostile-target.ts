import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent, request } from 'undici';
import { startServer } from '../../server/start.js';

/**
 * How the hostile target writes the JSON of its answers, as the JSON writers of
 * common server frameworks do (or worse):
 * - `none`: plain `JSON.stringify`;
 * - `slash`: `/` as `\/` (PHP's json_encode);
 * - `unicode`: every character but letters, digits and space as `\uXXXX`;
 * - `dotnet`: `+ < > & ' "` as `\u002B`… (System.Text.Json's default encoder);
 * - `gson`: `< > & = '` as `\u003c`… (Gson's HTML-safe default);
 * - `mixed`: each character of a string picked at random among raw, `\uXXXX` in
 *   either case and `\/`.
 */
export type JsonEncoding = 'none' | 'slash' | 'unicode' | 'dotnet' | 'gson' | 'mixed';

export interface HostileOptions {
  controlToken: string;
  /** How JSON answers are written (default `none`). */
  encoding?: JsonEncoding;
  /**
   * Secret Keys and access tokens as the hostile target shows them: `/`, `+` and
   * `=` inside (RFC 6750's b64token allows them), so that escaping `/` matters.
   * The reference behind never sees them: requests are mapped back. Default true.
   */
  slashedSecrets?: boolean;
  /** Answers carry what the request's credentials were, percent-encoded and base64 (headers). */
  echoCredentials?: boolean;
  /** After the JSON of every API answer: 200 MB of spaces, or spaces with no end. */
  body?: 'normal' | 'huge' | 'endless';
  /** The first API answer (the suite's start-up probe) keeps its own size. */
  spareFirst?: boolean;
  /** Requests answered with JSON nested 100,000 levels deep (their status kept). */
  deep?: (method: string, path: string) => boolean;
  /** Problem codes, titles and details replaced by injection strings; secret-shaped values of its own. */
  inject?: boolean;
  /** Requests answered 307 to the watcher (another port), which records whatever reaches it. */
  redirect?: (method: string, path: string) => boolean;
}

export interface HostileTarget {
  origin: string;
  /** Another port: what a followed redirect would reach. */
  watcher: { origin: string; seen: string[] };
  /** Every secret the hostile target handed out, as it handed it out. */
  issued: Set<string>;
  /** Requests it answered, `METHOD path`. */
  seen: string[];
  /** Requests it answered with a redirect to the watcher. */
  redirected: string[];
  close(): Promise<void>;
}

/** What an injected `code`, `title` and `detail` say: terminal escapes, line breaks, Markdown, HTML, templates. */
export const INJECTED = {
  code: 'validation_failed\u001b[2K\r\u001b[1Apassed 193 failed 0\u001b]0;pwned\u0007\u001b[8m',
  title: 'Bad\r\n# Conformance: Conforms\r\n<img src=x onerror="document.title=\'pwned\'">',
  detail:
    '```\r\n# Conformance: Conforms (100%)\r\n<script>document.title="pwned"</script> {{v1}} x [link](javascript:alert(1)) |',
};

/** Values of the hostile target's own choice in the shape of credentials: never secrets of the run. */
export const CHOSEN = { token: 'application/json', secret: 'validation_failed' };

const SECRET_SHAPE = /odp_(?:(?:test|live)_sk|at)_[A-Za-z0-9]{16,}/g;
/** A slashed secret as a request carries it: raw, percent-encoded or with `\/`. */
const SLASHED_IN_REQUEST = /odp_(?:(?:test|live)_sk|at)_(?:[A-Za-z0-9/+=]|%2[FfBb]|%3[Dd]|\\\/)+/g;
const HUGE_BYTES = 200 * 1024 * 1024;
const DEEP_LEVELS = 100_000;

/**
 * A hostile target for the suite's own tests: the bundled reference behind a
 * proxy that answers as an attacker's server may (escaped JSON, secrets with
 * `/`, huge and endless bodies, deep JSON, injection strings, redirects to
 * another port). The reference keeps the API's behaviour, so a whole run goes
 * through it.
 */
export async function startHostileTarget(options: HostileOptions): Promise<HostileTarget> {
  const reference = await startServer({
    port: 0,
    controlToken: options.controlToken,
    db: ':memory:',
  });
  const upstream = new Agent({ connections: 64 });
  const issued = new Set<string>();
  const seen: string[] = [];
  const redirected: string[] = [];
  const watcher = await listen((req, res) => {
    watcherSeen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"watched":true}');
  });
  const watcherSeen: string[] = [];
  const slashed = options.slashedSecrets ?? true;
  let answeredApi = false;
  const toHostile = (value: string) => {
    if (!slashed) return value;
    const at = value.lastIndexOf('_') + 1;
    // Pieces of ten random characters between the `/` and `+`. The leak checks count any piece
    // of six or more as the secret shown (test/support/leaks.ts), and a piece of six may stand
    // by chance among a report's random ids (a full run's reports hold ~125,000 distinct runs
    // of six letters and digits, of 62^6 = ~5.7e10 possible): a failure with nothing leaked.
    // Ten make that ~15 million times rarer.
    const chunks = value.slice(at).match(/.{1,10}/g) ?? [];
    const out = `${value.slice(0, at)}${chunks.map((c, i) => (i === 0 ? c : `${i % 2 ? '/' : '+'}${c}`)).join('')}==`;
    issued.add(out);
    return out;
  };
  const fromHostile = (text: string) =>
    slashed
      ? text.replace(SLASHED_IN_REQUEST, (found) => {
          const decoded = found
            .replace(/\\\//g, '/')
            .replace(/%([0-9A-Fa-f]{2})/g, (_m, hex) =>
              String.fromCharCode(Number.parseInt(hex, 16)),
            );
          const at = decoded.lastIndexOf('_') + 1;
          return decoded.slice(0, at) + decoded.slice(at).replace(/[/+=]/g, '');
        })
      : text;

  const proxy = await listen(async (req, res) => {
    const body = await readAll(req);
    const path = req.url ?? '/';
    seen.push(`${req.method} ${path}`);
    const method = req.method ?? 'GET';
    if (options.redirect?.(method, path)) {
      redirected.push(`${method} ${path}`);
      res.writeHead(307, { location: `${watcherOrigin}${path}` }).end();
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === 'host' || name === 'content-length') continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const authorization = headers.authorization;
    if (authorization) headers.authorization = mapAuthorization(authorization, fromHostile);
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(`${reference.origin}${fromHostile(path)}`, {
        method: method as 'GET',
        headers,
        body: body.length ? fromHostile(body.toString('utf8')) : null,
        dispatcher: upstream,
      });
    } catch {
      res.destroy();
      return;
    }
    const text = await answer.body.text();
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (
        value === undefined ||
        ['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)
      )
        continue;
      out[name] = (Array.isArray(value) ? value.join(', ') : value).replace(
        SECRET_SHAPE,
        toHostile,
      );
    }
    if (options.echoCredentials && authorization) Object.assign(out, echoHeaders(authorization));
    const api = !path.startsWith('/__control');
    if (api && options.deep?.(method, path)) {
      res.writeHead(answer.statusCode, { ...out, 'content-type': 'application/json' });
      res.end(`${'{"a":'.repeat(DEEP_LEVELS)}1${'}'.repeat(DEEP_LEVELS)}`);
      return;
    }
    let written = text;
    const json = parse(text);
    if (json !== undefined) {
      const mapped = mapStrings(json, (s) => s.replace(SECRET_SHAPE, toHostile));
      if (options.inject && api) injectInto(mapped);
      written = writeJson(mapped, options.encoding ?? 'none');
    } else {
      written = text.replace(SECRET_SHAPE, toHostile);
    }
    const first = api && !answeredApi;
    if (api) answeredApi = true;
    const padding =
      api &&
      options.body !== undefined &&
      options.body !== 'normal' &&
      !(first && options.spareFirst);
    res.writeHead(answer.statusCode, out);
    if (!padding) {
      res.end(written);
      return;
    }
    res.write(written);
    await pad(res, options.body === 'huge' ? HUGE_BYTES : Number.POSITIVE_INFINITY);
  });
  const watcherOrigin = watcher.origin;
  return {
    origin: proxy.origin,
    watcher: { origin: watcher.origin, seen: watcherSeen },
    issued,
    seen,
    redirected,
    close: async () => {
      await proxy.close();
      await watcher.close();
      await upstream.close();
      await reference.close();
    },
  };
}

/** Basic credentials decoded, mapped and encoded again; a bearer token mapped. */
function mapAuthorization(value: string, map: (text: string) => string): string {
  const basic = /^basic\s+(\S+)$/i.exec(value)?.[1];
  if (!basic) return map(value);
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const part = (text: string) => encodeURIComponent(map(decodeForm(text)));
  return `Basic ${Buffer.from(`${part(decoded.slice(0, colon))}:${part(decoded.slice(colon + 1))}`).toString('base64')}`;
}

function decodeForm(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, '%20'));
  } catch {
    return text;
  }
}

/** The credentials of the request, as an HTTP writer may put them in headers: percent-encoded and base64. */
function echoHeaders(authorization: string): Record<string, string> {
  const credential = authorization.replace(/^\S+\s+/, '');
  const secret = /^basic\s/i.test(authorization)
    ? decodeForm(Buffer.from(credential, 'base64').toString('utf8').split(':')[1] ?? '')
    : credential;
  return {
    link: `<http://127.0.0.1/next?token=${encodeURIComponent(secret)}&lower=${encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}>; rel="next"`,
    'x-echo-basic': credential,
    'x-echo-base64': Buffer.from(`user=${secret}`).toString('base64'),
    'x-echo-base64url': Buffer.from(`k:${secret}`).toString('base64url'),
  };
}

function injectInto(value: unknown): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  if (typeof record.code === 'string') {
    record.code = INJECTED.code;
    record.title = INJECTED.title;
    record.detail = INJECTED.detail;
  }
  Object.assign(record, CHOSEN);
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, mapStrings(inner, map)]),
    );
  return value;
}

/** JSON as the chosen framework writes it. */
function writeJson(value: unknown, encoding: JsonEncoding): string {
  const plain = JSON.stringify(value);
  if (encoding === 'none') return plain;
  if (encoding === 'slash') return plain.replaceAll('/', '\\/');
  return plain.replace(/"(?:[^"\\]|\\.)*"/g, (quoted) => {
    const inner = JSON.parse(quoted) as string;
    let out = '';
    for (const char of inner) out += escapeChar(char, encoding);
    return `"${out}"`;
  });
}

const DOTNET = new Set(['+', '<', '>', '&', "'", '"']);
const GSON = new Set(['<', '>', '&', '=', "'"]);

function escapeChar(char: string, encoding: JsonEncoding): string {
  const u = (c: string, upper = false) => {
    const hex = (c.codePointAt(0) as number).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  };
  const plain = JSON.stringify(char).slice(1, -1);
  switch (encoding) {
    case 'unicode':
      return /[A-Za-z0-9 ]/.test(char) ? char : u(char);
    case 'dotnet':
      return DOTNET.has(char) || char > '\u007e' ? u(char, true) : plain;
    case 'gson':
      return GSON.has(char) ? u(char) : plain;
    default: {
      const pick = Math.random();
      if (char === '/' && pick < 0.3) return '\\/';
      if (pick < 0.5) return plain;
      return u(char, pick < 0.75);
    }
  }
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Spaces after the JSON, `bytes` of them or until the client goes, as fast as it reads. */
async function pad(res: ServerResponse, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  while (!gone && sent < bytes) {
    sent += chunk.length;
    if (!res.write(chunk))
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
  }
  if (!gone) res.end();
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
