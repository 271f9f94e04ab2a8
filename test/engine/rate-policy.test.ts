import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withRatePolicy } from '../../lib/client/rate-limits.js';
import type { HttpResponse } from '../../lib/client/types.js';
import { HarnessError, NotVerifiable } from '../../lib/violations/harness-error.js';

function answer(status: number, exchange: number): HttpResponse {
  const headers: Record<string, string> = status === 429 ? { 'retry-after': '7' } : {};
  return {
    requestPath: '/api/on-demand/v1/orders',
    status,
    headers,
    header: (name) => headers[name.toLowerCase()],
    text: '',
    json: undefined,
    exchange,
    durationMs: 1,
  };
}

/** A target that answers these statuses in turn; counts what it was sent. */
function target(...statuses: number[]) {
  let sent = 0;
  return {
    send: async () => answer(statuses[Math.min(sent, statuses.length - 1)] ?? 200, ++sent),
    sent: () => sent,
  };
}

describe('one 429 policy for checks of rules that do not provoke 429s', () => {
  const waits: number[] = [];
  const scope = (partner: boolean, provokes429 = false) => ({
    partner,
    provokes429,
    note: () => undefined,
    wait: async (ms: number) => {
      waits.push(ms);
    },
  });

  it('on the partner key waits Retry-After and sends again', async () => {
    const t = target(429, 200);
    waits.length = 0;
    const res = await withRatePolicy(t.send, scope(true));
    expect(res.status).toBe(200);
    expect(t.sent()).toBe(2);
    expect(waits).toEqual([7000]);
  });

  it('on the partner key ends not_verifiable when the 429s go on, never a violation', async () => {
    const t = target(429);
    await expect(withRatePolicy(t.send, scope(true))).rejects.toBeInstanceOf(NotVerifiable);
    expect(t.sent()).toBe(3);
  });

  it('ends not_verifiable with the reason "throttled", never failed or error', async () => {
    const t = target(429);
    const error = await withRatePolicy(t.send, scope(false)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotVerifiable);
    expect(error).not.toBeInstanceOf(HarnessError);
    expect((error as Error).message).toMatch(/^throttled: /);
  });

  it('on a key the run made waits a short Retry-After too, within a check with the control API', async () => {
    const t = target(429, 200);
    waits.length = 0;
    expect((await withRatePolicy(t.send, scope(false))).status).toBe(200);
    expect(waits).toEqual([7000]);
  });

  it('gives up at once on a Retry-After longer than a control-API check can wait', async () => {
    const t = {
      send: async (): Promise<HttpResponse> => ({
        ...answer(429, 1),
        header: (name: string) => (name === 'retry-after' ? '60' : undefined),
      }),
    };
    await expect(withRatePolicy(t.send, scope(false))).rejects.toBeInstanceOf(NotVerifiable);
  });

  it("leaves a rate-limit check's 429 alone: it is that check's subject", async () => {
    const t = target(429, 200);
    expect((await withRatePolicy(t.send, scope(false, true))).status).toBe(429);
  });
});

describe('imports flow one way', () => {
  it('lib/client and lib/control never import lib/check', () => {
    const lib = fileURLToPath(new URL('../../lib/', import.meta.url));
    for (const layer of ['client', 'control']) {
      for (const file of readdirSync(join(lib, layer))) {
        const text = readFileSync(join(lib, layer, file), 'utf8');
        expect(text, `${layer}/${file}`).not.toMatch(/from '\.\.\/check\//);
      }
    }
  });

  it('suites reach the engine only through lib/check/index.ts, its one door', () => {
    const suites = fileURLToPath(new URL('../../suites/', import.meta.url));
    const files = readdirSync(suites, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    for (const file of files) {
      const text = readFileSync(join(suites, file), 'utf8');
      const reached = [...text.matchAll(/from '((?:\.\.\/)+lib\/[^']+)'/g)].map((m) => m[1]);
      expect(
        reached.filter((path) => !path?.endsWith('/lib/check/index.js')),
        file,
      ).toEqual([]);
    }
  });

  it('no check file keeps a 429 guard of its own', () => {
    const suites = fileURLToPath(new URL('../../suites/', import.meta.url));
    const files = readdirSync(suites, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    for (const file of files)
      expect(readFileSync(join(suites, file), 'utf8'), file).not.toMatch(/support\/api\.js/);
  });
});
