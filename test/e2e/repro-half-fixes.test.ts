import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RuleResult } from '../../lib/reports/report-model.js';
import type { RunningServer } from '../../server/start.js';
import { readReport } from '../engine/support/report-files.js';
import { runCli } from '../engine/support/run-cli.js';
import { emptyDir } from '../support/temp-dir.js';
import { alone, controlServer, type Ran, run, runCurlForm } from './support/reproductions.js';
import { type ProxiedAnswer, rewritingProxy, withJson } from './support/rewriting-proxy.js';

/**
 * A reproduction judges the rule, not the run's old value: a server that
 * keeps the rule broken another way (the correct reference behind a proxy
 * that rewrites its answers) is still REPRODUCED, and one whose answer is no
 * longer the run's gets DIFFERENT ANSWER, never a header judged on another
 * answer. Both forms, `repro/<RULE>.mjs` and the curl form.
 */
const PATIENCE = 30 * 60_000;

type Rewrite = (req: { method: string; url: string }, answer: ProxiedAnswer) => ProxiedAnswer;

const REWRITES: Record<string, Rewrite> = {
  /** Every 429 with a Retry-After that is no number of seconds. */
  soon: (_, a) =>
    a.status === 429 ? { ...a, headers: { ...a.headers, 'retry-after': 'soon' } } : a,
  /** Every problem with another wrong type URI (a path, not the documented anchor). */
  wrongType: (_, a) => ({
    ...a,
    body: withJson(a.body, (json) => {
      if (typeof json.type === 'string')
        json.type = `https://docs.example.com/errors/${String(json.code)}`;
    }),
  }),
  /** Every 404 as 410: not the documented status either. */
  gone: (_, a) => (a.status === 404 ? { ...a, status: 410 } : a),
  /** Every 429 served instead: the run's refusal never comes. */
  served: (_, a) =>
    a.status === 429
      ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }
      : a,
  /** A replayed order answered 201 where the check requires 200. */
  created: (req, a) =>
    req.method === 'POST' && req.url.endsWith('/orders') && a.status === 200
      ? { ...a, status: 201 }
      : a,
};

describe('reproductions of half fixes and of different answers', () => {
  const controlToken = randomBytes(16).toString('hex');
  const secret = { CONTROL_TOKEN: controlToken };
  const reportDir = emptyDir('repro-half-');
  const results = new Map<string, RuleResult>();
  let good: RunningServer;
  const origins = new Map<string, string>();

  beforeAll(async () => {
    good = await controlServer(controlToken);
    for (const [name, rewrite] of Object.entries(REWRITES))
      origins.set(name, (await rewritingProxy(good.origin, rewrite)).origin);
    // Unknown ids answered 422 apart: ERR-03 provokes errors with unknown ids, and the correct
    // reference's 404 there would be another answer than its run's.
    for (const [defects, only] of [
      [
        ['retry-after-missing', 'problem-type-underscores', 'idem-replay-without-header'],
        'RATE-04,ERR-03,IDEM-06',
      ],
      [['unknown-id-as-422'], 'MODE-05'],
    ] as const) {
      const bad = await controlServer(controlToken, [...defects]);
      const dir = join(reportDir, only);
      const ran = await runCli(
        [
          ...['--target', bad.origin, '--control-url', `${bad.origin}/__control`],
          ...['--only', only, '--report-dir', dir],
        ],
        secret,
      );
      expect(ran.code, ran.stderr).toBe(1);
      for (const result of readReport(dir).results.filter((r) => r.verdict === 'failed'))
        results.set(result.rule_id, {
          ...result,
          reproduce: {
            command: '',
            curl: result.reproduce?.curl ?? [],
            file: join(only, result.reproduce?.file ?? ''),
          },
        });
    }
    expect([...results.keys()].sort()).toEqual(['ERR-03', 'IDEM-06', 'MODE-05', 'RATE-04']);
  }, PATIENCE);

  /** Both forms of a rule's reproduction against one origin. */
  async function both(rule: string, origin: string): Promise<{ mjs: Ran; curl: Ran }> {
    const result = results.get(rule);
    if (!result) throw new Error(`${rule} did not fail`);
    const { dir, file } = alone(reportDir, result);
    const [mjs, curl] = await Promise.all([
      run(process.execPath, [file, '--target', origin], dir, secret),
      runCurlForm(result, { ...secret, TARGET: origin }),
    ]);
    return { mjs, curl };
  }

  test.each([
    ['RATE-04', 'soon', /header retry-after is "soon"/],
    ['ERR-03', 'wrongType', /type is "https:\/\/docs\.example\.com\/errors\/[a-z_]+"/],
    ['MODE-05', 'gone', /the status is 410/],
  ])(
    '%s broken another way (%s): still REPRODUCED, exit 1, in both forms',
    async (rule, rewrite, judged) => {
      const ran = await both(rule, origins.get(rewrite) ?? '');
      for (const [form, out] of Object.entries(ran)) {
        expect(out.out, `${form}\n${out.out}`).toMatch(new RegExp(`^REPRODUCED: ${rule} `, 'm'));
        expect(out.out, form).toMatch(judged);
        expect(out.code, `${form}\n${out.out}`).toBe(1);
      }
    },
    PATIENCE,
  );

  test(
    'the run got 429, now 200: DIFFERENT ANSWER, exit 2, the header judged on no other answer',
    async () => {
      const ran = await both('RATE-04', origins.get('served') ?? '');
      for (const [form, out] of Object.entries(ran)) {
        expect(out.out, form).toMatch(
          /^DIFFERENT ANSWER: RATE-04 the run got 429 rate_limited, now 200/m,
        );
        expect(out.out, form).not.toMatch(/^REPRODUCED/m);
        // No value of the header shown as judged: it was not.
        expect(out.out, form).not.toMatch(/retry-after is (absent|")/);
        expect(out.code, `${form}\n${out.out}`).toBe(2);
      }
    },
    PATIENCE,
  );

  test(
    'a different answer that breaks what the check required there: DIFFERENT ANSWER and REPRODUCED, exit 1',
    async () => {
      const ran = await both('IDEM-06', origins.get('created') ?? '');
      for (const [form, out] of Object.entries(ran)) {
        expect(out.out, form).toMatch(/^DIFFERENT ANSWER: IDEM-06 the run got 200, now 201/m);
        expect(out.out, form).toMatch(
          /^REPRODUCED: IDEM-06 a different answer breaks the rule: .* HTTP 201 where the check requires that the status is 200$/m,
        );
        expect(out.code, `${form}\n${out.out}`).toBe(1);
      }
    },
    PATIENCE,
  );

  test.each(['RATE-04', 'ERR-03', 'MODE-05', 'IDEM-06'])(
    '%s against the correct reference: NOT REPRODUCED, exit 0, in both forms',
    async (rule) => {
      const ran = await both(rule, good.origin);
      for (const [form, out] of Object.entries(ran)) {
        expect(out.out, form).toMatch(new RegExp(`^NOT REPRODUCED: ${rule} `, 'm'));
        expect(out.code, `${form}\n${out.out}`).toBe(0);
      }
    },
    PATIENCE,
  );
});
