import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { RawExchange } from '../../lib/evidence/exchange.js';
import { EvidenceRecorder } from '../../lib/evidence/recorder.js';
import { Redactor } from '../../lib/evidence/redactor.js';
import { ReplayBook } from '../../lib/evidence/trace.js';
import { readableIn } from '../support/leaks.js';

const SECRET = 'odp_test_sk_AbCdEfGhIjKlMnOpQrStUvWx12';
const TOKEN = 'odp_at_ZyXwVuTsRqPoNmLkJiHgFeDcBa98';

describe('Redactor', () => {
  test('replaces reference-shaped secrets and tokens it never saw', () => {
    const out = new Redactor().redact(`secret=${SECRET} token=${TOKEN}`);
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain(TOKEN);
  });

  test('masks a shaped secret whole, symbols (RFC 6750 b64token) included, and a schemeless Authorization', () => {
    const redactor = new Redactor();
    const symbolic = 'odp_at_Ab12Cd34-Ef56_Gh78.Ij90~Kl12+Mn/Op==';
    const out = redactor.redact(`a ${symbolic} b acme_test_sk_Abc-def_ghijkl&x=1`);
    expect(out).toBe('a [REDACTED] b [REDACTED]&x=1');
    expect(redactor.redactHeader('authorization', 'odp_at_Ab12-x')).toBe('[REDACTED]');
  });

  test('replaces exact known values of any shape, also percent-encoded', () => {
    const redactor = new Redactor();
    redactor.add('s3cr+t:with%odd', 'secret');
    const out = redactor.redact(`a s3cr+t:with%odd b ${encodeURIComponent('s3cr+t:with%odd')}`);
    expect(out).not.toContain('s3cr+t');
    expect(out).toMatch(/\[REDACTED:secret#1\].*\[REDACTED:secret#1\]/);
  });

  test('finds every known secret among many, wherever it stands in the text (the rolling lookup)', () => {
    // More than the few searched one by one: the lookup by a rolling hash of their first characters.
    const piece = fc.string({ unit: 'binary', minLength: 0, maxLength: 12 });
    const secret = fc.string({ unit: 'binary', minLength: 6, maxLength: 30 });
    fc.assert(
      fc.property(
        fc.uniqueArray(secret, { minLength: 17, maxLength: 40 }),
        fc.array(fc.tuple(piece, fc.nat()), { maxLength: 12 }),
        (secrets, parts) => {
          const redactor = new Redactor();
          for (const value of secrets) redactor.add(value, 'secret');
          const used = parts.map(([, pick]) => secrets[pick % secrets.length] as string);
          const text = parts.map(([before], i) => `${before}${used[i]}`).join('');
          const out = redactor.redact(text);
          // Each secret used is gone, unless a mark that replaced a longer one happens to hold it.
          for (const value of used)
            expect(out.includes(value) && !value.includes('REDACTED')).toBe(false);
        },
      ),
      { seed: 27, numRuns: 300 },
    );
  });

  test('answers text holding no secret unchanged', () => {
    const redactor = new Redactor();
    for (let i = 0; i < 40; i++) redactor.add(`secret-value-${i}-xyz`, 'secret');
    const text = 'an order body {"id":"ord_1","created_at":"2026-11-26"} with nothing to hide';
    expect(redactor.redact(text)).toBe(text);
  });

  test('keeps distinct tokens distinguishable', () => {
    const redactor = new Redactor('xyz');
    const a = redactor.redactHeader('Authorization', 'Bearer tokenAAAAAAAAAA');
    const b = redactor.redactHeader('Authorization', 'Bearer tokenBBBBBBBBBB');
    expect(a).not.toContain('tokenAAAA');
    expect(a).not.toEqual(b);
    expect(redactor.redactHeader('authorization', 'Bearer tokenAAAAAAAAAA')).toEqual(a);
  });

  test('hides Basic credentials and the control token header whole', () => {
    const redactor = new Redactor();
    expect(redactor.redactHeader('Authorization', 'Basic b2RwOnNlY3JldA==')).toBe(
      'Basic [REDACTED:basic-credentials]',
    );
    expect(redactor.redactHeader('X-Control-Token', 'anything')).toBe('[REDACTED]');
  });
});

describe('EvidenceRecorder', () => {
  test('learns secrets from JSON, form bodies, Basic headers and query strings before recording', () => {
    const redactor = new Redactor('acme');
    const recorder = new EvidenceRecorder(redactor, new ReplayBook());
    const basic = Buffer.from('acme_test_ak_1:plainsecret123').toString('base64');
    recorder.record({
      channel: 'api',
      startedAt: new Date(),
      durationMs: 1,
      method: 'POST',
      url: '/oauth/token?access_token=querytoken999',
      requestHeaders: { authorization: `Basic ${basic}` },
      requestBody: 'grant_type=client_credentials&client_secret=formsecret42',
      status: 200,
      responseHeaders: {},
      responseBody: JSON.stringify({ access_token: 'opaqueTOKENvalue77', scope: 'orders:read' }),
    });
    const text = JSON.stringify(recorder.take().evidence);
    for (const secret of [
      'plainsecret123',
      'querytoken999',
      'formsecret42',
      'opaqueTOKENvalue77',
      basic,
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('orders:read');
  });

  test('trims long runs of exchanges but keeps pinned ones', () => {
    const recorder = new EvidenceRecorder(new Redactor(), new ReplayBook());
    const ids = Array.from({ length: 100 }, () =>
      recorder.record({
        channel: 'api',
        startedAt: new Date(),
        durationMs: 1,
        method: 'GET',
        url: '/x',
        requestHeaders: {},
        status: 200,
      }),
    );
    recorder.pin(ids[50]!);
    const { evidence, omitted } = recorder.take();
    expect(evidence.map((e) => e.id)).toContain(ids[50]);
    expect(omitted).toBe(100 - evidence.length);
    expect(evidence.length).toBe(41);
  });

  test('an exchange read after a later one taught a secret shows it redacted: never fewer secrets than when recorded', () => {
    const recorder = new EvidenceRecorder(new Redactor(), new ReplayBook());
    const exchange = (over: Partial<RawExchange>): RawExchange => ({
      channel: 'api',
      startedAt: new Date(),
      durationMs: 1,
      method: 'POST',
      url: '/x',
      requestHeaders: {},
      status: 200,
      responseHeaders: {},
      ...over,
    });
    // A target shows a value before the run knows it for a secret of its own.
    recorder.record(exchange({ responseBody: JSON.stringify({ note: 'early-Secret-77889900' }) }));
    recorder.record(exchange({ requestBody: 'client_secret=early-Secret-77889900' }));
    const text = JSON.stringify(recorder.take().evidence);
    expect(text).not.toContain('early-Secret-77889900');
    expect(text).toContain('"note\\":');
  });
});

/** Secrets with the characters writers escape: `/ + = _ . ~ -`, HTML's `& < > " '`, and beyond ASCII. */
const HELD = {
  token: 'odp_at_AbCdEf/GhIjKl+MnOpQr=StUvWx_YzAbCd/EfGhIj==',
  secret: 'odp_test_sk_Zz9Yy8/Xx7Ww6+Vv5Uu4=Tt3Ss2.QqRrPp~OoNnMm-LlKkJj',
  control: `c0ntr0l&Tok3nAlpha<Beta>"Gamma'Delta/Epsilonß-ключсекрет`,
};
const KEY_ID = 'odp_test_ak_Key0123456789abcdef';

const u4 = (char: string, upper = false) => {
  const hex = (char.codePointAt(0) as number).toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
};
/** A JSON string whose characters `pick` picks are written as it says, the rest as JSON.stringify does. */
const jsonWith = (value: string, pick: (char: string) => string | undefined) =>
  `{"value":"${[...value].map((c) => pick(c) ?? JSON.stringify(c).slice(1, -1)).join('')}"}`;
const nonAscii = (c: string, upper = false) => (c > '\u007e' ? u4(c, upper) : undefined);
const php = (value: string) => jsonWith(value, (c) => (c === '/' ? '\\/' : nonAscii(c)));
const b64 = (text: string, alphabet: BufferEncoding = 'base64') =>
  Buffer.from(text, 'utf8').toString(alphabet);
const form = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
const everyByte = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
const htmlRails = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** What common server frameworks write when they put a value in an answer, and a few mixes of them. */
const ENCODINGS: [string, (value: string) => string][] = [
  ['plain JSON (JSON.stringify: Express, Fastify, Jackson)', (v) => JSON.stringify({ value: v })],
  ['PHP json_encode: `/` as `\\/`, non-ASCII as \\uXXXX', php],
  [
    'Ruby JSON with script_safe: `/` as `\\/`',
    (v) => jsonWith(v, (c) => (c === '/' ? '\\/' : undefined)),
  ],
  ['Python json.dumps (ensure_ascii)', (v) => jsonWith(v, (c) => nonAscii(c))],
  ['Jackson with ESCAPE_NON_ASCII', (v) => jsonWith(v, (c) => nonAscii(c, true))],
  [
    '.NET System.Text.Json: + < > & \' " ` and non-ASCII as \\uXXXX',
    (v) => jsonWith(v, (c) => ('+<>&\'"`'.includes(c) ? u4(c, true) : nonAscii(c, true))),
  ],
  [
    'Go encoding/json: < > & as \\u003c',
    (v) => jsonWith(v, (c) => ('<>&'.includes(c) ? u4(c) : undefined)),
  ],
  [
    "Gson (HTML-safe): < > & = ' as \\u003c",
    (v) => jsonWith(v, (c) => ("<>&='".includes(c) ? u4(c) : undefined)),
  ],
  ['every character as \\uXXXX', (v) => jsonWith(v, (c) => u4(c))],
  ['PHP JSON inside a JSON string (escaped twice)', (v) => JSON.stringify({ body: php(v) })],
  ['percent-encoded (encodeURIComponent)', (v) => `/cb?token=${encodeURIComponent(v)}`],
  [
    'percent-encoded in lower case',
    (v) => `/cb?token=${encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`,
  ],
  ['form-encoded (URLSearchParams)', (v) => new URLSearchParams({ client_secret: v }).toString()],
  ['every byte percent-encoded', (v) => `/cb?token=${everyByte(v)}`],
  [
    'a percent-encoded URL in PHP JSON',
    (v) => php(`https://partner.example/cb?token=${encodeURIComponent(v)}`),
  ],
  [
    'JSON with \\u0025 for the % of percent-encoding',
    (v) => JSON.stringify({ next: encodeURIComponent(v) }).replaceAll('%', '\\u0025'),
  ],
  ['HTML: Rails and Django escaping', htmlRails],
  [
    'HTML: OWASP (every non-alphanumeric as &#xHH;)',
    (v) => v.replace(/[^A-Za-z0-9]/g, (c) => `&#x${(c.codePointAt(0) as number).toString(16)};`),
  ],
  [
    'HTML: decimal and named references',
    (v) => v.replace(/\//g, '&sol;').replace(/[+=&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
  ],
  [
    'Basic credentials (base64 of id:secret)',
    (v) => `Authorization: Basic ${b64(`${KEY_ID}:${v}`)}`,
  ],
  [
    'Basic credentials, parts form-encoded (RFC 6749 §2.3.1)',
    (v) => `Basic ${b64(`${form(KEY_ID)}:${form(v)}`)}`,
  ],
  ['base64 at the other two alignments', (v) => `${b64(`x${v}`)} ${b64(`xy${v}`)}`],
  [
    'base64url of a JSON payload (a JWT part)',
    (v) => `eyJhbGciOiJIUzI1NiJ9.${b64(JSON.stringify({ sub: 'x', tok: v }), 'base64url')}.sig`,
  ],
  ['base64 Basic credentials in PHP JSON', (v) => php(`Basic ${b64(`${KEY_ID}:${v}`)}`)],
];

describe('Redactor: a secret the run holds, in every encoding a server framework writes', () => {
  const redactor = new Redactor();
  redactor.add(HELD.token, 'token');
  redactor.add(HELD.secret, 'secret');
  redactor.add(HELD.control, 'control-token');

  test.each(ENCODINGS)('%s', (_what, encode) => {
    for (const [name, value] of Object.entries(HELD)) {
      const text = `before ${encode(value)} after`;
      expect(readableIn(text, value), `the test's encoding shows ${name}`).toBe(true);
      const out = redactor.redact(text);
      expect(readableIn(out, value), `${name} readable in ${out}`).toBe(false);
      expect(out).toMatch(/^before .*\[REDACTED[^\]]*\].* after$/s);
    }
  });

  test('keeps JSON valid: whole escapes are replaced, never part of one', () => {
    for (const [, encode] of ENCODINGS.slice(0, 10)) {
      const out = redactor.redact(encode(HELD.token));
      expect(() => JSON.parse(out)).not.toThrow();
    }
  });
});

describe('EvidenceRecorder: values a target chose are its words, never taken for secrets', () => {
  const exchange = (body: string, extra: Partial<RawExchange> = {}): RawExchange => ({
    channel: 'api',
    startedAt: new Date(),
    durationMs: 1,
    method: 'GET',
    url: '/api/on-demand/v1/account',
    requestHeaders: { authorization: `Bearer ${HELD.token}` },
    status: 422,
    responseHeaders: {
      'content-type': 'application/json',
      authorization: 'Bearer application/json',
    },
    responseBody: body,
    ...extra,
  });

  test('a `token`, `secret` or `access_token` field of an answer hides nothing, anywhere', () => {
    const redactor = new Redactor();
    const recorder = new EvidenceRecorder(redactor, new ReplayBook());
    const chosen = JSON.stringify({
      code: 'validation_failed',
      token: 'application/json',
      secret: 'validation_failed',
      access_token: 'chosen-by-the-server-42',
      nested: { password: 'content-type' },
    });
    recorder.record(exchange(chosen));
    recorder.record(exchange('{"code":"validation_failed"}'));
    const text = JSON.stringify(recorder.take().evidence);
    expect(text).not.toContain(HELD.token.slice(7, 20));
    for (const kept of [
      'application/json',
      'validation_failed',
      'chosen-by-the-server-42',
      'content-type',
    ])
      expect(text).toContain(kept);
    expect(redactor.redact('content-type: application/json; code validation_failed')).toBe(
      'content-type: application/json; code validation_failed',
    );
  });

  test('what a token answer or the control API hands the run is a secret it holds', () => {
    const redactor = new Redactor();
    const recorder = new EvidenceRecorder(redactor, new ReplayBook());
    recorder.record(
      exchange(
        JSON.stringify({ access_token: 'handed-out-token-0123456789', token_type: 'Bearer' }),
        {
          method: 'POST',
          url: '/api/on-demand/v1/oauth/token',
          requestBody: 'grant_type=client_credentials',
          status: 200,
        },
      ),
    );
    recorder.record(
      exchange(
        JSON.stringify({ access_key_id: KEY_ID, secret_key: 'handed-out-secret-0123456789' }),
        {
          channel: 'control',
          method: 'POST',
          url: '/__control/accounts/acct_1/keys',
          requestHeaders: { 'x-control-token': 'ctl' },
          status: 201,
        },
      ),
    );
    for (const held of ['handed-out-token-0123456789', 'handed-out-secret-0123456789'])
      expect(redactor.redact(`later: ${held}`)).not.toContain(held);
  });
});
