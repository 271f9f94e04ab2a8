import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Judgement, Replay, TraceStep, TraceVar } from '../../lib/evidence/trace.js';
import type { RuleResult } from '../../lib/reports/report-model.js';
import { curlScript } from '../../lib/reports/repro/curl-script.js';
import { planReplay } from '../../lib/reports/repro/plan.js';
import type { ReplayPlan } from '../../lib/reports/repro/plan-types.js';
import type { ReproSettings } from '../../lib/reports/repro/repro-settings.js';
import { judgeReplay } from '../../lib/reports/repro/runtime/judge.mjs';
import { writeRepro } from '../../lib/reports/repro/write-repro.js';
import { SafetyNet } from '../../lib/reports/safety-net.js';
import { sampleReport } from '../engine/support/sample-report.js';
import { emptyDir } from '../support/temp-dir.js';

const SETTINGS: ReproSettings = {
  target: 'http://127.0.0.1:9',
  controlUrl: 'http://127.0.0.1:9/__control',
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
};

let next = 1;
/** A step sent at `at` ms that took `ms`; `over` for the rest. */
function step(at: number, ms: number, over: Partial<TraceStep> = {}): TraceStep {
  return {
    id: next++,
    channel: 'api',
    method: 'POST',
    url: '/api/orders',
    headers: { 'idempotency-key': '{{v1}}' },
    status: 201,
    uses: [],
    at,
    ms,
    ...over,
  };
}

function plan(
  steps: TraceStep[],
  judge: Judgement[] = [],
  vars: Record<string, TraceVar> = {},
): ReplayPlan {
  const replay: Replay = {
    trace: { steps, vars: { v1: { kind: 'client', shape: 'k-0000' }, ...vars } },
    judge,
  };
  const result = {
    rule_id: 'IDEM-10',
    title: 'a rule',
    section: '4',
    level: 'MUST',
    area: 'IDEM',
    verdict: 'failed',
  } as RuleResult;
  return planReplay(result, replay, SETTINGS);
}

// The plan is made once, in TypeScript: both forms of a reproduction only execute it.
describe('the replay plan', () => {
  test('requests in flight at once are sent together; one sent after an answer is not', () => {
    next = 1;
    const racers = [step(1000, 9), step(1000.4, 9), step(1001, 9)];
    // Sent 0.1 ms after the last answer came: in sequence, even within the same millisecond.
    const after = step(1010.1, 1);
    const items = plan([...racers, after]).items;
    expect(items).toEqual([{ together: [1, 2, 3] }, { step: 4 }]);
  });

  test('a request that uses another answer is never in its group', () => {
    next = 1;
    const first = step(1000, 50, { status: 201 });
    const uses = step(1010, 5, { uses: [1], url: '/api/orders/{{v9}}', method: 'GET' });
    const items = plan([first, uses], [], {
      v9: { kind: 'answer', step: 1, pointer: '/id' },
    }).items;
    expect(items).toEqual([{ step: 1 }, { step: 2 }]);
  });

  test('two bursts sent at once, interleaved, are a loop each, until the status their last got', () => {
    next = 1;
    const steps: TraceStep[] = [];
    for (let i = 0; i < 6; i++) {
      steps.push(step(1000 + 10 * i, 1, { url: '/api/token', status: i === 5 ? 429 : 200 }));
      steps.push(step(1005 + 10 * i, 1, { url: '/api/quotes', status: 201 }));
    }
    const items = plan(steps).items;
    expect(items).toEqual([
      { loop: [1, 3, 5, 7, 9, 11], until: 429, most: 12 },
      { loop: [2, 4, 6, 8, 10, 12], most: 6 },
    ]);
  });

  test("a judgement on one of a race's requests reads all of them; statuses the check accepted of them are no different answer", () => {
    next = 1;
    const racers = [
      step(1000, 9, { status: 201 }),
      step(1000.5, 9, { status: 200 }),
      step(1001, 9, { status: 409, code: 'duplicate_external_id' }),
    ];
    const judge: Judgement[] = [
      {
        code: 'VALUE',
        pointer: '/body/code',
        exchange: 3,
        expected: 'idempotency_conflict',
        received: 'duplicate_external_id',
        must: {
          all: [
            { at: '/status', is: { equals: 409 } },
            { at: '/body/code', is: { equals: 'idempotency_conflict' } },
          ],
        },
        message: 'expected code idempotency_conflict',
      },
      {
        code: 'STATE',
        pointer: '/body/id',
        exchanges: [1, 2, 3],
        expected: 'one order',
        received: ['{{v5}}'],
        must: {
          distinct: '/body/id',
          among: { at: '/status', is: { between: [200, 299] } },
          min: 1,
          max: 1,
        },
        held: true,
        message: 'one order',
      },
    ];
    const made = plan(racers, judge);
    expect(made.judge[0]).toMatchObject({ steps: [1, 2, 3] });
    expect(made.judge[1]).toMatchObject({ steps: [1, 2, 3], across: true, held: true });
    const answers = (statuses: number[], ids: string[]) =>
      new Map(
        statuses.map((status, i) => [
          i + 1,
          {
            status,
            headers: {},
            json: status < 300 ? { id: ids[i] } : { code: 'duplicate_external_id' },
          },
        ]),
      );
    // Fixed: every racer served, one order.
    const fixed = judgeReplay(made, answers([201, 200, 200], ['o1', 'o1', 'o1']), new Map(), []);
    expect(fixed.exit, fixed.lines.join('\n')).toBe(0);
    // Broken another way: three orders.
    const three = judgeReplay(made, answers([201, 201, 201], ['o1', 'o2', 'o3']), new Map(), []);
    expect(three.exit).toBe(1);
    expect(three.lines.join('\n')).toMatch(
      /^REPRODUCED: IDEM-10 one order; now not so: exactly 1 distinct id/m,
    );
    // Broken the run's way, whichever racer got it this time.
    const again = judgeReplay(made, answers([409, 201, 200], ['', 'o1', 'o1']), new Map(), []);
    expect(again.exit).toBe(1);
  });

  test('a header is never judged on another answer: the run got 429, now 200', () => {
    next = 1;
    const refused = step(1000, 1, { url: '/api/token', status: 429, code: 'rate_limited' });
    const judge: Judgement[] = [
      {
        code: 'HEADER',
        pointer: '/headers/retry-after',
        exchange: 1,
        expected: 'a number of seconds',
        received: null,
        must: { at: '/headers/retry-after', is: { matches: '^\\s*\\d+\\s*$' } },
        message: 'header retry-after is missing',
      },
    ];
    const made = plan([refused], judge);
    expect(made.judge[0]?.guard).toEqual([429]);
    const served = judgeReplay(made, new Map([[1, { status: 200, headers: {} }]]), new Map(), []);
    expect(served.exit).toBe(2);
    expect(served.lines[0]).toBe(
      'DIFFERENT ANSWER: IDEM-10 the run got 429 rate_limited, now 200 (#1 POST /api/token: HTTP 200): header retry-after is not judged on another answer',
    );
    expect(served.lines.join('\n')).not.toMatch(/REPRODUCED|retry-after is absent/);
    // Another invalid value: still broken.
    const soon = judgeReplay(
      made,
      new Map([[1, { status: 429, headers: { 'retry-after': 'soon' } }]]),
      new Map(),
      [],
    );
    expect(soon.exit).toBe(1);
    expect(soon.lines[0]).toContain('header retry-after is "soon"');
  });

  test('a different answer that breaks what the check required there is reproduced too', () => {
    next = 1;
    const replay = step(1000, 1, { status: 200 });
    const made = planReplay(
      {
        rule_id: 'IDEM-06',
        title: 't',
        section: '4',
        level: 'MUST',
        area: 'IDEM',
        verdict: 'failed',
      } as RuleResult,
      {
        trace: { steps: [replay], vars: { v1: { kind: 'client', shape: 'k-0000' } } },
        judge: [
          {
            code: 'HEADER',
            pointer: '/headers/idempotent-replayed',
            exchange: 1,
            expected: '"true"',
            received: null,
            must: { at: '/headers/idempotent-replayed', is: { equals: 'true' } },
            message: 'header Idempotent-Replayed is missing',
          },
        ],
        expects: [{ exchange: 1, must: { at: '/status', is: { oneOf: [200] } } }],
      },
      SETTINGS,
    );
    const ran = judgeReplay(made, new Map([[1, { status: 201, headers: {} }]]), new Map(), []);
    expect(ran.exit).toBe(1);
    expect(ran.lines).toEqual([
      expect.stringMatching(/^DIFFERENT ANSWER: IDEM-06 the run got 200, now 201/),
      expect.stringMatching(
        /^REPRODUCED: IDEM-06 a different answer breaks the rule: #1 POST \/api\/orders: HTTP 201 where the check requires that the status is 200$/,
      ),
    ]);
  });

  test('an answer over 2 MiB is the target’s finding: its body is not judged, nothing crashes', () => {
    next = 1;
    const made = plan(
      [step(1000, 1, { status: 404, code: 'not_found' })],
      [
        {
          code: 'PROBLEM',
          pointer: '/body/type',
          exchange: 1,
          expected: 'x',
          received: 'y',
          must: { at: '/body/type', is: { problemType: {} } },
          message: 'type must be the documentation address',
        },
      ],
    );
    const ran = judgeReplay(
      made,
      new Map([[1, { status: 404, headers: {}, text: '', overCap: true }]]),
      new Map(),
      [],
    );
    expect(ran.exit).toBe(2);
    expect(ran.lines[0]).toMatch(
      /^ANSWER OVER 2 MiB: IDEM-10 the answer of #1 POST \/api\/orders: HTTP 404 is over 2 MiB/,
    );
  });

  test('keys by label, live orders marked, what clean-up removes', () => {
    next = 1;
    const vars: Record<string, TraceVar> = {
      v1: { kind: 'client', shape: 'k-0000' },
      v2: { kind: 'answer', step: 1, pointer: '/id' },
      v3: { kind: 'answer', step: 2, pointer: '/access_key_id' },
      v4: { kind: 'answer', step: 2, pointer: '/secret_key' },
      v5: { kind: 'answer', step: 3, pointer: '/access_token' },
    };
    const steps: TraceStep[] = [
      step(1, 1, { channel: 'control', url: '/__control/accounts', headers: {} }),
      step(3, 1, {
        channel: 'control',
        url: '/__control/accounts/{{v2}}/keys',
        headers: {},
        body: '{"mode":"live"}',
        uses: [1],
      }),
      step(5, 1, {
        url: '/api/token',
        headers: {},
        basic: '{{v3}}:{{v4}}',
        status: 200,
        uses: [2],
      }),
      step(7, 1, {
        headers: { authorization: 'Bearer {{v5}}', 'idempotency-key': '{{v1}}' },
        uses: [3],
      }),
    ];
    const made = planReplay(
      {
        rule_id: 'MODE-01',
        title: 't',
        section: '4',
        level: 'MUST',
        area: 'MODE',
        verdict: 'failed',
      } as RuleResult,
      { trace: { steps, vars }, judge: [] },
      SETTINGS,
    );
    expect(made.steps.map((s) => [s.url, s.key, s.live, s.makes, s.tokenFrom])).toEqual([
      ['/accounts', undefined, undefined, 'account', undefined],
      ['/accounts/{{v2}}/keys', undefined, undefined, 'key', undefined],
      ['/api/token', 'key 1', undefined, undefined, undefined],
      ['/api/orders', 'key 1', true, 'order', 3],
    ]);
    expect(made.steps[2]?.captures).toEqual([['v5', '/access_token']]);
  });
});

describe('a reproduction of a run against the bundled reference', () => {
  test('names no port of the run, which closed with it', async () => {
    next = 1;
    const settings: ReproSettings = {
      ...SETTINGS,
      target: 'http://127.0.0.1:45123',
      controlUrl: 'http://127.0.0.1:45123/__control',
      embedded: true,
    };
    const made = planReplay(
      {
        rule_id: 'CANCEL-05',
        title: 't',
        section: '3',
        level: 'MUST',
        area: 'CANCEL',
        verdict: 'failed',
      } as RuleResult,
      {
        trace: { steps: [step(1, 1)], vars: { v1: { kind: 'client', shape: 'k-0000' } } },
        judge: [],
      },
      settings,
    );
    expect(made.target).toBeNull();
    expect(made.control).toMatchObject({ path: '/__control', followsTarget: true });
    const dir = emptyDir('repro-embedded-');
    const report = sampleReport({ target: 'http://127.0.0.1:45123' });
    await writeRepro(
      report,
      [{ plan: made, file: 'repro/CANCEL-05.mjs', curl: curlScript(made) }],
      dir,
      new SafetyNet({ keyPrefix: 'odp' }),
    );
    for (const file of ['README.md', 'CANCEL-05.mjs', 'CANCEL-05.sh']) {
      const text = readFileSync(join(dir, 'repro', file), 'utf8');
      expect(text, file).not.toContain('45123');
    }
    expect(readFileSync(join(dir, 'repro', 'README.md'), 'utf8')).toContain('bundled reference');
  });
});
