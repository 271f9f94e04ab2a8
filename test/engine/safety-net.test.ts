import { describe, expect, it } from 'vitest';
import { SafetyNet } from '../../lib/reports/safety-net.js';

const partnerKey = {
  accessKeyId: 'odp_live_ak_AAAAbbbbCCCCddddEEEEffff',
  secretKey: 'odp_live_sk_SeCrEt0123456789abcdefXYZ',
};
const controlToken = 'Zr8-control_token+with&odd"chars';
const net = new SafetyNet({ keyPrefix: 'odp', controlToken, partnerKey });
const basic = Buffer.from(`${partnerKey.accessKeyId}:${partnerKey.secretKey}`).toString('base64');

describe('SafetyNet', () => {
  it.each([
    ['the partner secret', `secret=${partnerKey.secretKey}`, 'SeCrEt0123456789'],
    ['any Secret Key shape', 'odp_test_sk_ZZZZyyyyXXXXwwwwVVVVuuuu in a note', 'ZZZZyyyy'],
    ['another prefix', 'acme_live_sk_ZZZZyyyyXXXXwwwwVVVVuuuu', 'ZZZZyyyy'],
    ['an access token', 'Bearer odp_at_QQQQrrrrSSSSttttUUUUvvvv', 'QQQQrrrr'],
    [
      'a bearer token of any shape',
      'authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig',
      'eyJhbGci',
    ],
    ['Basic credentials', `Authorization: Basic ${basic}`, basic.slice(0, 20)],
    [
      'Basic credentials of another key',
      `Basic ${Buffer.from('someone:else-secret').toString('base64')}`,
      'c29tZW9uZTpl',
    ],
    ['the control token', `X-Control-Token: ${controlToken}`, 'control_token+with'],
    ['the control token JSON-escaped', JSON.stringify({ t: controlToken }), 'control_token+with'],
    [
      'the control token HTML-escaped',
      'Zr8-control_token+with&amp;odd&quot;chars',
      'control_token+with',
    ],
    ['the control token percent-encoded', encodeURIComponent(controlToken), 'control_token%2Bwith'],
  ])('removes %s', (_what, text, fragment) => {
    const cleaned = net.clean(text);
    expect(cleaned).not.toContain(fragment);
    expect(cleaned).toContain('[REDACTED');
  });

  it('leaves prose and challenges alone', () => {
    const prose =
      'MUST answer bad Basic credentials with 401 and WWW-Authenticate: Basic realm="api", Bearer realm="api"';
    expect(net.clean(prose)).toBe(prose);
    expect(
      net.clean('an Access Key ID odp_live_ak_AAAAbbbbCCCCddddEEEEffff is safe to log'),
    ).toContain('odp_live_ak_AAAA');
  });

  it('cleans every string inside a value, before any escaping hides a shape', () => {
    const report = {
      results: [{ notes: [`odp\\_live\\_sk\\_ is escaped, ${partnerKey.secretKey} is not`], n: 3 }],
    };
    const cleaned = net.cleanValue(report);
    expect(JSON.stringify(cleaned)).not.toContain('SeCrEt');
    expect(cleaned.results[0]?.n).toBe(3);
  });
});
