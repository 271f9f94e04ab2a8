import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyDir } from '../support/temp-dir.js';
import { API, orderBody } from './support/harness.js';
import { type Spawned, spawnServer, stop } from './support/spawn-server.js';

const dir = emptyDir('reference-crash-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, 'reference.db');
const controlToken = `ct-${randomUUID()}`;
const tokenFile = join(dir, 'control-token');
writeFileSync(tokenFile, controlToken, { mode: 0o600 });
// The durable default (fsync before every acknowledged write) is the mode under test.
const args = ['--port', '0', '--control-token-file', tokenFile, '--db', db];

let running: Spawned | undefined;
afterAll(async () => {
  if (running) await stop(running.child, 'SIGKILL');
});

const agent = new Agent({ connections: 16 });
afterAll(() => agent.close());

async function call(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) {
  const res = await request(`${origin}${path}`, {
    method,
    headers,
    dispatcher: agent,
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

describe('a killed server loses no acknowledged order and creates no duplicate', () => {
  it('SIGKILL during a stream of orders, restart, retry every key', async () => {
    running = await spawnServer(args);
    const first = running;
    const control = { 'x-control-token': controlToken, 'content-type': 'application/json' };
    const account = await call(
      first.origin,
      'POST',
      '/__control/accounts',
      control,
      JSON.stringify({
        rate_limits: { write: 100_000, read: 100_000 },
        limits: { max_orders_per_day: 100_000, max_order_value: 100_000_000 },
      }),
    );
    const key = await call(
      first.origin,
      'POST',
      `/__control/accounts/${account.body?.id}/keys`,
      control,
      '{}',
    );
    const token = await call(
      first.origin,
      'POST',
      `${API}/oauth/token`,
      {
        authorization: `Basic ${Buffer.from(`${key.body?.access_key_id}:${key.body?.secret_key}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      'grant_type=client_credentials',
    );
    const bearer = {
      authorization: `Bearer ${token.body?.access_token}`,
      'content-type': 'application/json',
    };

    // Stream orders from 8 concurrent senders; kill the process once 150 are acknowledged.
    const bodies = new Map<string, string>();
    const acknowledged = new Map<string, string>();
    let next = 0;
    let killed = false;
    const sender = async () => {
      while (!killed) {
        const idempotencyKey = `crash-${next++}`;
        const body = JSON.stringify(orderBody({ external_id: idempotencyKey }));
        bodies.set(idempotencyKey, body);
        try {
          const reply = await call(
            first.origin,
            'POST',
            `${API}/orders`,
            { ...bearer, 'idempotency-key': idempotencyKey },
            body,
          );
          if (reply.status === 201) acknowledged.set(idempotencyKey, reply.body?.id as string);
          else throw new Error(`unexpected ${reply.status}`);
          if (acknowledged.size >= 150 && !killed) {
            killed = true;
            await stop(first.child, 'SIGKILL');
          }
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, sender));
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(acknowledged.size).toBeGreaterThanOrEqual(150);

    // Restart on the same file; the old token still works (tokens are stored, hashed).
    running = await spawnServer(args);
    const second = running;
    for (const [idempotencyKey, body] of bodies) {
      const reply = await call(
        second.origin,
        'POST',
        `${API}/orders`,
        { ...bearer, 'idempotency-key': idempotencyKey },
        body,
      );
      const acknowledgedId = acknowledged.get(idempotencyKey);
      if (acknowledgedId !== undefined) {
        expect({ key: idempotencyKey, status: reply.status, id: reply.body?.id }).toEqual({
          key: idempotencyKey,
          status: 200,
          id: acknowledgedId,
        });
      } else {
        // Never acknowledged: it was committed before the kill (replayed) or not at all (placed now).
        expect([200, 201]).toContain(reply.status);
      }
    }

    // Exactly one order per key: none lost, none doubled.
    const ids: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const query = `?limit=100${cursor === undefined ? '' : `&starting_after=${cursor}`}`;
      const page = await call(second.origin, 'GET', `${API}/orders${query}`, bearer);
      const data = page.body?.data as Array<{ id: string; external_id: string }>;
      ids.push(...data.map((o) => o.id));
      if (!page.body?.has_more) break;
      cursor = data.at(-1)?.id;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(bodies.size);
    for (const id of acknowledged.values()) expect(ids).toContain(id);
  });
});
