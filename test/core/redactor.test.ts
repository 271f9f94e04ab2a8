import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EvidenceRecorder } from '../../lib/evidence/recorder.js';
import { Redactor } from '../../lib/evidence/redactor.js';
import { ReplayBook } from '../../lib/evidence/trace.js';

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
});
