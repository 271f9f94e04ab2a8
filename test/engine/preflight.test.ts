import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notThisApi } from '../../lib/prepare/preflight.js';
import { emptyDir } from '../support/temp-dir.js';
import { runCli } from './support/run-cli.js';
import { startTinyTarget, type TinyTarget } from './support/tiny-target.js';

const KEY_ID = 'odp_test_ak_Preflight0123456789';
const SECRET = 'odp_test_sk_ThisSecretMustNeverBePrinted0123';

describe('preflight: credentials are tried before any check', () => {
  let refusing: TinyTarget;
  beforeAll(async () => {
    refusing = await startTinyTarget('unauthorized');
  });
  afterAll(() => refusing?.close());

  it('a refused partner key ends the run at once with exit 2, naming the key id, never the secret', async () => {
    const dir = emptyDir();
    const run = await runCli(['--target', refusing.origin, '--report-dir', `${dir}/r`], {
      PARTNER_ACCESS_KEY_ID: KEY_ID,
      PARTNER_SECRET_KEY: SECRET,
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`refused the partner key ${KEY_ID}`);
    expect(run.stderr).toContain('HTTP 401');
    expect(run.stderr).toContain('broken token endpoint');
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    // One probe and one token request: no check ran.
    expect(refusing.seen.filter((s) => s.startsWith('POST'))).toHaveLength(1);
  });

  it('a run stopped before its checks loses nothing of the last run in the same report directory', async () => {
    // The checks' workers start while a target elsewhere is tried; stopped, they leave
    // the folder as it was: the last run's Allure results are emptied only once checks go ahead.
    const dir = `${emptyDir()}/r`;
    const allure = `${dir}/allure-results`;
    mkdirSync(allure, { recursive: true });
    writeFileSync(`${allure}/last-run-result.json`, '{}');
    const run = await runCli(['--target', refusing.origin, '--report-dir', dir], {
      PARTNER_ACCESS_KEY_ID: KEY_ID,
      PARTNER_SECRET_KEY: SECRET,
    });
    expect(run.code, run.stderr).toBe(2);
    expect(readdirSync(allure)).toEqual(['last-run-result.json']);
  });
});

describe('"not this API": a target that answers HTML', () => {
  let html: Server;
  let origin: string;
  beforeAll(async () => {
    html = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Welcome</h1>');
    });
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => html.close(() => resolve())));

  it('stops with exit 2 and one line quoting the status and content type', async () => {
    const run = await runCli(['--target', origin, '--report-dir', `${emptyDir()}/r`], {
      PARTNER_ACCESS_KEY_ID: KEY_ID,
      PARTNER_SECRET_KEY: SECRET,
    });
    expect(run.code, run.stderr).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('not this API');
    expect(lines[0]).toContain('HTTP 200');
    expect(lines[0]).toContain('text/html');
  });

  it('judges by the media type: JSON of any kind passes, text and non-JSON bodies do not', () => {
    const answer = (contentType: string | undefined, text = '') => ({
      method: 'GET',
      url: 'http://x/api/on-demand/v1/account',
      status: 401,
      contentType,
      text,
    });
    expect(notThisApi(answer('application/problem+json'))).toBeUndefined();
    expect(notThisApi(answer('application/json; charset=utf-8', '{'))).toBeUndefined();
    expect(notThisApi(answer(undefined))).toBeUndefined();
    expect(notThisApi(answer('text/plain', 'Unauthorized'))).toContain('text/plain');
    expect(notThisApi(answer(undefined, '<html>'))).toContain('not JSON');
  });
});
