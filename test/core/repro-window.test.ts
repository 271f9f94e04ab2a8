import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import type { Replay, TraceStep, TraceVar } from '../../lib/evidence/trace.js';
import type { RuleResult } from '../../lib/reports/report-model.js';
import { curlScript } from '../../lib/reports/repro/curl-script.js';
import { planReplay } from '../../lib/reports/repro/plan.js';
import type { ReplayPlan } from '../../lib/reports/repro/plan-types.js';
import { reproFile } from '../../lib/reports/repro/repro-file.js';
import type { ReproSettings } from '../../lib/reports/repro/repro-settings.js';
import { emptyDir } from '../support/temp-dir.js';

/**
 * A target whose rate window ends while a reproduction's burst is under way: `perWindow`
 * writes a window, the window ends before write number `endsBefore` (once), and its 429
 * says `Retry-After: 0` (the defect the reproduction judges). Other requests are answered
 * and not counted.
 */
function windowedTarget(
  perWindow: number,
  endsBefore: number,
): Promise<{ origin: string; close: () => Promise<void> }> {
  let sent = 0;
  let inWindow = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url !== QUOTES) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      sent++;
      inWindow++;
      if (sent === endsBefore) inWindow = 1;
      if (inWindow > perWindow) {
        res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '0' });
        res.end(JSON.stringify({ status: 429, code: 'rate_limited' }));
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return listening(server);
}

/** The server on a free loopback port: its origin, and how to close it. */
function listening(server: Server): Promise<{ origin: string; close: () => Promise<void> }> {
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

const QUOTES = '/api/on-demand/v1/quotes';

/**
 * The run: like writes, each with an Idempotency-Key of its own, the last refused; `tokenAfter`
 * puts a token request (another class's, sent at once) after that many writes.
 */
function result(origin: string, writes: number, tokenAfter?: number): ReplayPlan {
  const vars: Record<string, TraceVar> = {};
  const steps: TraceStep[] = [];
  for (let write = 1; write <= writes; write++) {
    if (write === (tokenAfter ?? 0) + 1 && tokenAfter !== undefined) {
      steps.push({
        id: steps.length + 1,
        channel: 'api',
        method: 'POST',
        url: '/api/on-demand/v1/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
        status: 200,
        uses: [],
      });
    }
    const id = steps.length + 1;
    vars[`v${id}`] = { kind: 'client', shape: 'key-00000000' };
    steps.push({
      id,
      channel: 'api',
      method: 'POST',
      url: QUOTES,
      headers: { 'content-type': 'application/json', 'idempotency-key': `{{v${id}}}` },
      body: '{}',
      status: write === writes ? 429 : 201,
      ...(write === writes ? { code: 'rate_limited' } : {}),
      uses: [],
    });
  }
  return planOf(
    'RATE-05',
    {
      trace: { steps, vars },
      judge: [
        {
          code: 'HEADER',
          pointer: '/headers/retry-after',
          exchange: steps.length,
          expected: 'a whole number of seconds, at least 1',
          received: '0',
          observed: { value: '0' },
          must: { at: '/headers/retry-after', is: { seconds: { min: 1 } } },
          message: 'Retry-After is 0',
        },
      ],
    },
    settingsAt(origin),
  );
}

/** Where the API keeps what a replay makes (the reference dialect's paths). */
const PATHS: ReproSettings['paths'] = {
  orders: {
    path: '/api/on-demand/v1/orders',
    cancel: '/api/on-demand/v1/orders/{id}/cancel',
    idPointer: '/id',
  },
  webhooks: {
    path: '/api/on-demand/v1/webhook-endpoints',
    create: 'POST',
    item: '/api/on-demand/v1/webhook-endpoints/{id}',
    remove: 'DELETE',
    idPointer: '/id',
  },
};

function settingsAt(origin: string, control = false): ReproSettings {
  return {
    target: origin,
    ...(control ? { controlUrl: `${origin}/__control` } : {}),
    mode: 'control',
    paths: PATHS,
  };
}

/** The plan a report would carry for a failed result of `rule` with this replay. */
function planOf(rule: string, replay: Replay, settings: ReproSettings): ReplayPlan {
  const result = {
    rule_id: rule,
    title: `${rule} under test`,
    section: '8',
    level: 'MUST',
    area: rule.split('-')[0],
    verdict: 'failed',
  } as RuleResult;
  return planReplay(result, replay, settings);
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

/** The plan's repro/<RULE>.mjs, written into `dir` and run against the target. */
async function replayMjs(
  dir: string,
  target: { origin: string },
  plan: ReplayPlan,
): Promise<{ code: number | null; out: string }> {
  const file = join(dir, `${plan.rule.id}.mjs`);
  writeFileSync(file, reproFile(plan, 'test', 'README.md'));
  return runNode(file, ['--target', target.origin]);
}

// A reproduction of a rate limit's burst must not miss the limit because a window
// ended during the burst: it sends on past the run's count, as the check does.
describe('a reproduction whose burst straddles a rate window', () => {
  const dir = emptyDir('repro-window-');

  test('the .mjs form sends past the run\u2019s count and reaches the limit: REPRODUCED', async () => {
    // 5 a window; the run met the 429 at its 6th write; the replay's window ends before its 4th.
    const target = await windowedTarget(5, 4);
    onTestFinished(() => target.close());
    const ran = await replayMjs(dir, target, result(target.origin, 6));
    expect(ran.out).toContain('REPRODUCED');
    expect(ran.out).not.toContain('NOT REPRODUCED');
    expect(ran.code).toBe(1);
  });

  test('the curl form loops up to twice the run\u2019s count, stopping at the limit', () => {
    const script = curlScript(result('http://127.0.0.1:9', 6)).join('\n');
    expect(script).toContain('while [ "$i" -lt 12 ]; do');
    expect(script).toContain('[ "$_s" = 429 ] && break');
  });

  // Another class's request sent at once (RATE-04's token burst beside its writes) splits the
  // run's writes: 3, a token request, then 6, the 9th write refused. The replay's window ends
  // late in the loop (before the 9th write), and the new window needs all 9 again: the loop
  // goes on for the whole burst, not only for twice its own 6.
  test('a burst split by another request: the loop allows a new window the whole burst (.mjs)', async () => {
    const target = await windowedTarget(8, 9);
    onTestFinished(() => target.close());
    const ran = await replayMjs(dir, target, result(target.origin, 9, 3));
    expect(ran.out).toContain('REPRODUCED');
    expect(ran.out).not.toContain('NOT REPRODUCED');
    expect(ran.code).toBe(1);
  });

  test('a burst split by another request: the curl loop allows a new window the whole burst', () => {
    const script = curlScript(result('http://127.0.0.1:9', 9, 3)).join('\n');
    // One loop of the 9 writes either side of the token request (sent after it), and as many
    // again for a new window.
    expect(script).toContain('while [ "$i" -lt 18 ]; do');
    expect(script.indexOf('while [ "$i"')).toBeLessThan(script.indexOf('/oauth/token'));
  });
});

// Like requests whose answers later steps use are set-up, not a burst: six accounts made at once
// (a check that provokes 429s makes its own), then a key in each. A loop would keep only the
// last account's id, and the keys of the other five would name no account ("parameter not set").
describe('like requests whose answers later steps use', () => {
  const dir = emptyDir('repro-setup-');
  const vars: Record<string, TraceVar> = {};
  const steps: TraceStep[] = [];
  for (let id = 1; id <= 6; id++) {
    vars[`v${id}`] = { kind: 'answer', step: id, pointer: '/id' };
    steps.push({
      id,
      channel: 'control',
      method: 'POST',
      url: '/__control/accounts',
      headers: {},
      body: '{}',
      status: 201,
      uses: [],
    });
  }
  for (let n = 1; n <= 6; n++) {
    steps.push({
      id: 6 + n,
      channel: 'control',
      method: 'POST',
      url: `/__control/accounts/{{v${n}}}/keys`,
      headers: {},
      body: '{}',
      status: 201,
      uses: [n],
    });
  }
  const replay: Replay = { trace: { steps, vars }, judge: [] };

  test('the curl form sends each and keeps each answer’s value', () => {
    const script = curlScript(
      planOf('ERR-02', replay, settingsAt('http://127.0.0.1:9', true)),
    ).join('\n');
    expect(script).not.toContain('while [ "$i"');
    // Each account's id picked from its own answer.
    for (let id = 1; id <= 6; id++)
      expect(script).toContain(`step ${id} '#${id} POST /accounts' v${id}=/id`);
  });

  test('the .mjs form makes a key in each of the six accounts', async () => {
    // A control API that numbers its accounts and notes where keys are made.
    let accounts = 0;
    const keysIn: string[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const keys = /^\/__control\/accounts\/([^/]+)\/keys$/.exec(req.url ?? '');
        if (keys?.[1]) keysIn.push(keys[1]);
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            req.url === '/__control/accounts'
              ? { id: `acct_${String(++accounts).padStart(8, '0')}` }
              : { access_key_id: `ak_${keysIn.length}` },
          ),
        );
      });
    });
    const target = await listening(server);
    onTestFinished(() => target.close());
    await replayMjs(dir, target, planOf('ERR-02', replay, settingsAt(target.origin, true)));
    expect(keysIn.sort()).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `acct_${String(n).padStart(8, '0')}`),
    );
  });
});
