import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { type CredentialUrl, credentialUrl } from './support/credential-url.js';
import { API, basicAuth, CONTROL_TOKEN } from './support/harness.js';
import { type Spawned, spawnServer, stop } from './support/spawn-server.js';

/**
 * The request log (`--log`) holds no credential in any encoding.
 * The real CLI logs to stderr; real credentials of a real key are sent in
 * URLs, encoded every way credential-url.ts knows (percent, twice, three
 * times, hex, base64 …), on every kind of path; then the whole log is
 * searched for every credential, and for every encoded form that was sent.
 */
const SEED = Number(process.env.LOG_FUZZ_SEED ?? 20_261_126);
const RUNS = 600;

describe('the request log holds no credential, however the URL encodes it', () => {
  let server: Spawned | undefined;
  const dir = emptyDir('reference-log-');
  const agent = new Agent({ connections: 8 });

  beforeAll(async () => {
    const tokenFile = join(dir, 'control-token');
    writeFileSync(tokenFile, CONTROL_TOKEN, { mode: 0o600 });
    server = await spawnServer([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--log',
      '--control-token-file',
      tokenFile,
    ]);
  });
  afterAll(async () => {
    if (server) await stop(server.child, 'SIGTERM');
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function send(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ) {
    const res = await request(`${server?.origin}${path}`, {
      method: method as 'GET',
      headers,
      dispatcher: agent,
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.body.text();
    return { status: res.statusCode, text };
  }

  it(`${RUNS} URLs holding real credentials (seed ${SEED}): none reaches the log, in clear or as sent`, async () => {
    const control = { 'x-control-token': CONTROL_TOKEN, 'content-type': 'application/json' };
    const account = JSON.parse((await send('POST', '/__control/accounts', control, '{}')).text);
    const key = JSON.parse(
      (await send('POST', `/__control/accounts/${account.id}/keys`, control, '{}')).text,
    );
    const token = JSON.parse(
      (
        await send(
          'POST',
          `${API}/oauth/token`,
          {
            authorization: basicAuth(key.access_key_id, key.secret_key),
            'content-type': 'application/x-www-form-urlencoded',
          },
          'grant_type=client_credentials',
        )
      ).text,
    ).access_token as string;
    const credentials = {
      secret_key: key.secret_key as string,
      access_key_id: key.access_key_id as string,
      access_token: token,
      control_token: CONTROL_TOKEN,
      basic: `${key.access_key_id}:${key.secret_key}`,
    };
    const urls = fc.sample(credentialUrl(credentials), { seed: SEED, numRuns: RUNS });
    const sent: CredentialUrl[] = [];
    for (const url of urls) {
      try {
        await send(url.method, url.path);
        sent.push(url);
      } catch {
        // A URL undici will not send (a character it refuses) never reached the server.
      }
    }
    expect(sent.length).toBeGreaterThan(RUNS / 2);
    // The log is complete once the server answered a last request (lines are written before answers end).
    await send('GET', '/healthz');
    const log = server?.output().stderr ?? '';
    expect(log.split('\n').filter((line) => line.includes('"url"')).length).toBeGreaterThan(
      sent.length / 2,
    );
    const leaks: string[] = [];
    for (const [name, value] of Object.entries(credentials)) {
      if (log.includes(value)) leaks.push(`${name} in clear`);
      // The random part alone (past the prefix) is as good as the credential.
      const tail = value.slice(-20);
      if (log.includes(tail)) leaks.push(`${name}'s last 20 characters`);
    }
    for (const url of sent) {
      if (url.encoded.length >= 16 && log.includes(url.encoded)) {
        const line = log.split('\n').find((l) => l.includes(url.encoded)) ?? '';
        leaks.push(
          `${url.credential} as ${url.encoding}: ${url.method} ${url.path}\n  logged: ${line}`,
        );
      }
    }
    expect(leaks, `replay with LOG_FUZZ_SEED=${SEED}`).toEqual([]);
  });
});
