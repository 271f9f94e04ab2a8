import { describe, expect, test } from 'vitest';
import { EvidenceRecorder } from '../../lib/evidence/recorder.js';
import { Redactor } from '../../lib/evidence/redactor.js';

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
    const recorder = new EvidenceRecorder(redactor);
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
    const recorder = new EvidenceRecorder(new Redactor());
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
