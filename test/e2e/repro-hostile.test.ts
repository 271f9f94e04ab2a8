import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Judgement, TraceStep, TraceVar } from '../../lib/evidence/trace.js';
import type { RuleResult } from '../../lib/reports/report-model.js';
import { curlScript } from '../../lib/reports/repro/curl-script.js';
import { planReplay } from '../../lib/reports/repro/plan.js';
import type { ReplayPlan } from '../../lib/reports/repro/plan-types.js';
import { reproFile } from '../../lib/reports/repro/repro-file.js';
import type { ReproSettings } from '../../lib/reports/repro/repro-settings.js';
import { emptyDir } from '../support/temp-dir.js';
import { type Ran, run } from './support/reproductions.js';

/**
 * A reproduction run against a hostile target: it follows no redirect (its
 * clean-up included: the control token goes only to the control API),
 * judges the target's text literally (a value holding `{{v1}}` is that
 * text), percent-encodes ids it puts in URLs, prints no control character
 * the target sent, reads no body past 2 MiB and says so, and ends every
 * failure of its own with exit 2. Both forms, on plans made as a report
 * makes them.
 */
const CONTROL_TOKEN = 'hostile-test-control-token-0123456789';
/** An id a path can only carry percent-encoded. */
const ACCOUNT = 'acct:1/x';
const ESCAPES = '\u001b[2J\u001b]0;pwned\u0007';

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

/** Everything a watcher (where the hostile target redirects to) was sent. */
const stolen: { url: string; controlToken: boolean; authorization: boolean }[] = [];
/** What the target was asked, in order; and the answers it holds back (the `/api/hang` step). */
const seen: string[] = [];
const hanging: ServerResponse[] = [];
let hung: () => void = () => undefined;
let watcher = '';
let origin = '';
const servers: Server[] = [];

function hostile(
  req: IncomingMessage,
  body: string,
): { status: number; headers?: Record<string, string>; body?: string } {
  const json = (status: number, value: unknown) => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });
  const url = req.url ?? '';
  if (req.method === 'POST' && url === '/__control/accounts') return json(201, { id: ACCOUNT });
  if (req.method === 'POST' && url === `/__control/accounts/${encodeURIComponent(ACCOUNT)}/keys`)
    return json(201, { access_key_id: 'ak_hostile_000001', secret_key: 'sk_hostile_000001' });
  if (req.method === 'POST' && url === '/api/token')
    return json(200, { access_token: 'tok_hostile_000001' });
  // Where an order or a key would be: a redirect to another origin, never followed.
  if (url === `/api/items/${encodeURIComponent(ACCOUNT)}`)
    return { status: 302, headers: { location: `${watcher}/stolen` }, body: '' };
  if (url.startsWith('/__control/keys/'))
    return { status: 307, headers: { location: `${watcher}/revoke` } };
  if (url === '/api/code')
    return json(400, { code: `{{v1}} x${ESCAPES}`, type: 'about:blank', seen: body.length });
  if (url === '/api/big') return json(200, { code: 'x'.repeat(3 * 1024 * 1024) });
  return json(400, { code: 'not_this', url });
}

beforeAll(async () => {
  const watch = createServer((req, res) => {
    stolen.push({
      url: req.url ?? '',
      controlToken: req.headers['x-control-token'] !== undefined,
      authorization: req.headers.authorization !== undefined,
    });
    res.end('{}');
  });
  const target = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url === '/api/hang') {
        // Never answered: the reproduction is interrupted while it waits.
        hanging.push(res);
        hung();
        return;
      }
      const answer = hostile(req, body);
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  servers.push(watch, target);
  watcher = await listen(watch);
  origin = await listen(target);
});
afterAll(async () => {
  for (const res of hanging) res.socket?.destroy();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

const settings = (): ReproSettings => ({
  target: origin,
  controlUrl: `${origin}/__control`,
  mode: 'control',
  paths: {
    orders: { path: '/api/orders', cancel: '/api/orders/{id}/cancel', idPointer: '/id' },
    webhooks: {
      path: '/api/hooks',
      create: 'POST',
      item: '/api/hooks/{id}',
      remove: 'DELETE',
      idPointer: '/id',
    },
  },
});

let id = 0;
function step(over: Partial<TraceStep>): TraceStep {
  id += 1;
  return {
    id,
    channel: 'api',
    method: 'GET',
    url: '/',
    headers: {},
    status: 200,
    uses: [],
    ...over,
  };
}

function plan(steps: TraceStep[], vars: Record<string, TraceVar>, judge: Judgement[]): ReplayPlan {
  const result = {
    rule_id: 'HOST-01',
    title: 'a rule',
    section: '4',
    level: 'MUST',
    area: 'HOST',
    verdict: 'failed',
  } as unknown as RuleResult;
  return planReplay(result, { trace: { steps, vars }, judge }, settings());
}

/** Both forms of a plan, run alone in a folder of their own. */
async function both(
  made: ReplayPlan,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Record<string, Ran>> {
  const dir = emptyDir('repro-hostile-');
  writeFileSync(join(dir, 'HOST-01.mjs'), reproFile(made, 'test', 'README.md'));
  writeFileSync(join(dir, 'HOST-01.sh'), `${curlScript(made).join('\n')}\n`);
  const secrets = { CONTROL_TOKEN, ...env };
  return {
    mjs: await run(process.execPath, ['HOST-01.mjs', ...args], dir, secrets),
    curl: await run('sh', ['HOST-01.sh'], dir, {
      ...secrets,
      ...(args[1] ? { TARGET: args[1] } : {}),
    }),
  };
}

describe('a reproduction against a hostile target', () => {
  test('follows no redirect, clean-up included, and percent-encodes ids in URLs', async () => {
    id = 0;
    const vars: Record<string, TraceVar> = {
      v1: { kind: 'env', name: 'CONTROL_TOKEN' },
      v2: { kind: 'answer', step: 1, pointer: '/id' },
      v3: { kind: 'answer', step: 2, pointer: '/access_key_id' },
      v4: { kind: 'answer', step: 2, pointer: '/secret_key' },
      v5: { kind: 'answer', step: 3, pointer: '/access_token' },
    };
    const made = plan(
      [
        step({
          channel: 'control',
          method: 'POST',
          url: '/__control/accounts',
          headers: { 'x-control-token': '{{v1}}' },
          body: '{}',
          status: 201,
        }),
        step({
          channel: 'control',
          method: 'POST',
          url: '/__control/accounts/{{v2}}/keys',
          headers: { 'x-control-token': '{{v1}}' },
          body: '{"mode":"test"}',
          status: 201,
          uses: [1],
        }),
        step({
          method: 'POST',
          url: '/api/token',
          basic: '{{v3}}:{{v4}}',
          body: 'grant_type=client_credentials',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          uses: [2],
        }),
        step({
          url: '/api/items/{{v2}}',
          headers: { authorization: 'Bearer {{v5}}' },
          uses: [1, 3],
        }),
      ],
      vars,
      [
        {
          code: 'STATUS',
          pointer: '/status',
          exchange: 4,
          expected: 200,
          received: 500,
          must: { at: '/status', is: { equals: 200 } },
          message: 'the item must be served',
        },
      ],
    );
    for (const [form, ran] of Object.entries(await both(made, ['--target', origin]))) {
      // The set-up went through (the id reached the target encoded), the redirect was the answer.
      expect(ran.out, form).toMatch(/^REPRODUCED: HOST-01 the status is 302 /m);
      expect(ran.code, `${form}\n${ran.out}`).toBe(1);
    }
    // Neither the judged step nor the clean-up's revoke (answered 307) went to the watcher.
    expect(stolen).toEqual([]);
  });

  test("judges the target's text literally and prints none of its control characters", async () => {
    id = 0;
    const made = plan(
      [
        step({
          url: '/api/code',
          headers: { 'x-control-token': '{{v1}}' },
          status: 400,
          code: 'x',
        }),
      ],
      { v1: { kind: 'env', name: 'CONTROL_TOKEN' } },
      [
        {
          code: 'VALUE',
          pointer: '/body/code',
          exchange: 1,
          expected: 'a code of the table',
          // As the run's book writes it: its own `{{` as `{{!}}`, never a variable.
          received: `{{!}}v1}} x${ESCAPES}`,
          observed: { value: `{{!}}v1}} x${ESCAPES}` },
          message: 'the code is not one the API document defines',
        },
      ],
    );
    for (const [form, ran] of Object.entries(await both(made, ['--target', origin]))) {
      expect(ran.out, form).toMatch(/^REPRODUCED: HOST-01 code is "\{\{v1\}\} x\\u001b\[2J/m);
      expect(ran.out, form).not.toContain('\u001b');
      expect(ran.out, form).not.toContain('\u0007');
      expect(ran.out, form).not.toContain(CONTROL_TOKEN);
      expect(ran.code, `${form}\n${ran.out}`).toBe(1);
    }
  });

  test('reads no answer past 2 MiB: the target’s finding, exit 2, no crash', async () => {
    id = 0;
    const made = plan([step({ url: '/api/big', status: 200 })], {}, [
      {
        code: 'VALUE',
        pointer: '/body/code',
        exchange: 1,
        expected: 'short',
        received: 'long',
        must: { at: '/body/code', is: { equals: 'short' } },
        message: 'the code is short',
      },
    ]);
    for (const [form, ran] of Object.entries(await both(made, ['--target', origin]))) {
      // Known gap: in the curl form the shell's file size limit ends curl before the script can
      // say ANSWER OVER 2 MiB; the .mjs form is judged.
      // if (form === "curl") continue;
      expect(ran.out, form).toMatch(/^ANSWER OVER 2 MiB: HOST-01 /m);
      expect(ran.code, `${form}\n${ran.out}`).toBe(2);
    }
  });

  test('every failure of its own is exit 2, never exit 1 without REPRODUCED', async () => {
    id = 0;
    const made = plan([step({ url: '/api/code', status: 400 })], {}, [
      {
        code: 'STATUS',
        pointer: '/status',
        exchange: 1,
        expected: 404,
        received: 400,
        must: { at: '/status', is: { equals: 404 } },
        message: 'not found',
      },
    ]);
    const closed = 'http://127.0.0.1:9';
    for (const [form, ran] of Object.entries(await both(made, ['--target', closed]))) {
      expect(ran.out, form).toMatch(/^CANNOT RUN: .*no answer/m);
      expect(ran.code, form).toBe(2);
    }
    for (const args of [['--what'], ['--target', 'ftp://example.com'], ['--target']]) {
      const ran = (await both(made, args)).mjs;
      expect(ran?.out, args.join(' ')).toMatch(/^CANNOT RUN: /m);
      expect(ran?.code).toBe(2);
    }
    const curl = (await both(made, ['--target', 'ftp://example.com'])).curl;
    expect(curl?.code).toBe(2);
  });

  test('interrupted (Ctrl-C), it still removes what it made, and exits 130', async () => {
    id = 0;
    const vars: Record<string, TraceVar> = {
      v1: { kind: 'env', name: 'CONTROL_TOKEN' },
      v2: { kind: 'answer', step: 1, pointer: '/id' },
    };
    const made = plan(
      [
        step({
          channel: 'control',
          method: 'POST',
          url: '/__control/accounts',
          headers: { 'x-control-token': '{{v1}}' },
          body: '{}',
          status: 201,
        }),
        step({
          channel: 'control',
          method: 'POST',
          url: '/__control/accounts/{{v2}}/keys',
          headers: { 'x-control-token': '{{v1}}' },
          body: '{}',
          status: 201,
          uses: [1],
        }),
        step({ url: '/api/hang' }),
      ],
      vars,
      [
        {
          code: 'STATUS',
          pointer: '/status',
          exchange: 3,
          expected: 200,
          received: 500,
          must: { at: '/status', is: { equals: 200 } },
          message: 'served',
        },
      ],
    );
    const dir = emptyDir('repro-interrupted-');
    writeFileSync(join(dir, 'HOST-01.mjs'), reproFile(made, 'test', 'README.md'));
    writeFileSync(join(dir, 'HOST-01.sh'), `${curlScript(made).join('\n')}\n`);
    const revoke = `POST /__control/keys/ak_hostile_000001/revoke`;
    for (const [command, args] of [
      [process.execPath, ['HOST-01.mjs', '--target', origin]],
      ['sh', ['HOST-01.sh']],
    ] as const) {
      seen.length = 0;
      const waiting = new Promise<void>((resolve) => {
        hung = resolve;
      });
      // Its own process group, as a terminal's foreground job: Ctrl-C reaches every process of it.
      const child = spawn(command, [...args], {
        cwd: dir,
        detached: true,
        env: { PATH: process.env.PATH ?? '', CONTROL_TOKEN, TARGET: origin },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((resolve) =>
        child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : null))),
      );
      await waiting;
      process.kill(-(child.pid as number), 'SIGINT');
      expect(await exited, command).toBe(130);
      expect(seen, command).toContain(revoke);
    }
  });
});
