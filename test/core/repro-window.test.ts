import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { TraceStep, TraceVar } from '../../lib/evidence/trace.js';
import type { RuleResult } from '../../lib/reports/report-model.js';
import { curlScript } from '../../lib/reports/repro/curl-script.js';
import { reproFile } from '../../lib/reports/repro/repro-file.js';
import type { ReproSettings } from '../../lib/reports/repro/repro-settings.js';

/**
 * A target whose rate window ends while a reproduction's burst is under way: 5 writes a
 * window, the window ends after the 3rd write (once), and its 429 says `Retry-After: 0`
 * (the defect the reproduction judges). The run met the 429 at its 6th write; the replay
 * meets it at the 9th, past the run's count.
 */
function windowedTarget(): Promise<{ origin: string; close: () => Promise<void> }> {
  let sent = 0;
  let inWindow = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      sent++;
      inWindow++;
      if (sent === 4) inWindow = 1; // the window ended before the 4th write
      if (inWindow > 5) {
        res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '0' });
        res.end(JSON.stringify({ status: 429, code: 'rate_limited' }));
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** The run: six like writes, each with an Idempotency-Key of its own, the 6th refused. */
function result(origin: string): { result: RuleResult; settings: ReproSettings } {
  const vars: Record<string, TraceVar> = {};
  const steps: TraceStep[] = [];
  for (let id = 1; id <= 6; id++) {
    vars[`v${id}`] = { kind: 'client', shape: 'key-00000000' };
    steps.push({
      id,
      channel: 'api',
      method: 'POST',
      url: '/api/on-demand/v1/quotes',
      headers: { 'content-type': 'application/json', 'idempotency-key': `{{v${id}}}` },
      body: '{}',
      status: id === 6 ? 429 : 201,
      ...(id === 6 ? { code: 'rate_limited' } : {}),
      uses: [],
    });
  }
  return {
    settings: {
      target: origin,
      mode: 'control',
      orders: { path: '/api/on-demand/v1/orders', cancel: '/x', idPointer: '/id' },
    },
    result: {
      rule_id: 'RATE-05',
      title: 'MUST send a Retry-After of at least 1 second',
      section: '8',
      level: 'MUST',
      area: 'RATE',
      verdict: 'failed',
      replay: {
        trace: { steps, vars },
        judge: [
          {
            code: 'HEADER',
            pointer: '/headers/retry-after',
            exchange: 6,
            expected: 'a whole number of seconds, at least 1',
            received: '0',
            observed: { value: '0' },
            message: 'Retry-After is 0',
          },
        ],
      },
    } as RuleResult,
  };
}

function runNode(file: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...args], {
      env: { PATH: process.env.PATH ?? '' },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

// Issue 21: a reproduction of a rate limit's burst must not miss the limit because a window
// ended during the burst: it sends on past the run's count (up to twice), as the check does.
describe('a reproduction whose burst straddles a rate window', () => {
  const dir = mkdtempSync(join(tmpdir(), 'repro-window-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the .mjs form sends past the run\u2019s count and reaches the limit: REPRODUCED', async () => {
    const target = await windowedTarget();
    try {
      const { result: r, settings } = result(target.origin);
      const file = join(dir, 'RATE-05.mjs');
      writeFileSync(file, reproFile(r, settings, 'test'));
      const ran = await runNode(file, ['--target', target.origin]);
      expect(ran.out).toContain('REPRODUCED');
      expect(ran.out).not.toContain('NOT REPRODUCED');
      expect(ran.code).toBe(1);
    } finally {
      await target.close();
    }
  });

  test('the curl form loops up to twice the run\u2019s count, stopping at the limit', () => {
    const { result: r, settings } = result('http://127.0.0.1:9');
    const script = curlScript(r, settings).join('\n');
    expect(script).toContain('while [ "$i" -lt 12 ]; do');
    expect(script).toContain('[ "$code" = 429 ] && break');
  });
});
