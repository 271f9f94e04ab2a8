import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddedReference,
  startEmbeddedReference,
} from '../../lib/prepare/embedded-reference.js';
import { emptyDir } from '../support/temp-dir.js';
import { pickRule } from './fixtures/pick-rule.js';
import { readReport } from './support/report-files.js';
import { fixtureSuites, runCli } from './support/run-cli.js';

let reference: EmbeddedReference;
let liveKey: { PARTNER_ACCESS_KEY_ID: string; PARTNER_SECRET_KEY: string };

/** A control-protocol call to the reference (target contract, section 3). */
async function control(path: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(`${reference.controlUrl}${path}`, {
    method: 'POST',
    headers: { 'x-control-token': reference.controlToken, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`control ${path}: HTTP ${res.status}`);
  return (await res.json()) as Record<string, string>;
}

beforeAll(async () => {
  reference = await startEmbeddedReference();
  const account = await control('/accounts', { live_access: true });
  const key = await control(`/accounts/${account.id}/keys`, { mode: 'live' });
  liveKey = {
    PARTNER_ACCESS_KEY_ID: key.access_key_id ?? '',
    PARTNER_SECRET_KEY: key.secret_key ?? '',
  };
});

afterAll(async () => {
  await reference?.close();
});

/** The fixture's result, and whether any order creation went out on the wire. */
async function placeWithLiveKey(extra: string[]) {
  const dir = join(emptyDir(), 'live');
  const result = await runCli(
    ['--target', reference.origin, '--report-dir', dir, ...extra, ...fixtureSuites('live')],
    liveKey,
  );
  const ruleResult = readReport(dir).results.find((r) => r.rule_id === pickRule('MUST').id);
  const ordersPosted = (ruleResult?.evidence ?? []).filter(
    (e) => e.request.method === 'POST' && e.request.url.endsWith('/orders'),
  ).length;
  return { result, ruleResult, ordersPosted };
}

describe('a live partner key', () => {
  it('places no order without --allow-live-orders: not_verifiable, nothing sent', async () => {
    const { result, ruleResult, ordersPosted } = await placeWithLiveKey([]);
    expect(result.stderr).toContain('the partner key is a live key: no order will be placed');
    expect(ruleResult).toMatchObject({ verdict: 'not_verifiable', missing: ['live_orders'] });
    expect(ruleResult?.reason).toContain('--allow-live-orders');
    expect(ordersPosted).toBe(0);
  });

  it('places the order with --allow-live-orders', async () => {
    const { result, ruleResult, ordersPosted } = await placeWithLiveKey(['--allow-live-orders']);
    expect(result.code, result.stderr).toBe(0);
    expect(ruleResult?.verdict).toBe('passed');
    expect(ordersPosted).toBe(1);
  });
});
