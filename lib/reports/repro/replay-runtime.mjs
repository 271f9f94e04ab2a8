// The runtime of a standalone reproduction: appended, as is, after the `REPRO`
// constant of each repro/<RULE-ID>.mjs. Plain Node (22 and later), no dependencies: global
// fetch, node:test. Replays the check's steps in order, every identifier learned from the
// answers it gets now, then judges the result's violations again.
import { randomUUID } from 'node:crypto';

const EXIT = { notReproduced: 0, reproduced: 1, cannot: 2 };
/** Longest wait for a Retry-After outside the steps that are the rule's subject. */
const MAX_RETRY_AFTER_S = 65;

class CannotRun extends Error {}

function parseArgs(argv) {
  // Under `node --test` no flag reaches the file: the suite's own variables point it elsewhere.
  const out = {
    target: process.env.TARGET_BASE_URL || REPRO.target,
    controlUrl: process.env.CONTROL_URL || REPRO.controlUrl,
    verbose: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (name === '--target') out.target = value();
    else if (name === '--control-url') out.controlUrl = value();
    else if (name === '--verbose') out.verbose = true;
    else if (name === '--help' || name === '-h') out.help = true;
    else throw new CannotRun(`unknown argument ${arg} (see --help)`);
  }
  return out;
}

function usage() {
  const env = [
    ...new Set(
      Object.values(REPRO.vars)
        .filter((v) => v.kind === 'env')
        .map((v) => v.name),
    ),
  ];
  return [
    `${REPRO.rule.id} ${REPRO.rule.title}`,
    `usage: ${env.map((e) => `${e}=…`).join(' ')} node ${REPRO.rule.id}.mjs [--target URL] [--control-url URL] [--verbose]`,
    `  --target       the API's origin (default: the run's, ${REPRO.target})`,
    ...(REPRO.controlUrl
      ? [`  --control-url  the control API (default: the run's, ${REPRO.controlUrl})`]
      : []),
    '  --verbose      print each request and answer (secrets redacted)',
    'exit 1: REPRODUCED, 0: NOT REPRODUCED, 2: could not run (says why)',
  ].join('\n');
}

/** A value made by the client in the run (an Idempotency-Key, an external_id): fresh, same shape. */
function fresh(shape) {
  if (
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(shape.replace(/0/g, 'a'))
  )
    return randomUUID();
  return shape.replace(/0/g, () => String(Math.floor(Math.random() * 10)));
}

function valueAt(body, pointer) {
  let node = body;
  for (const raw of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

function deepEqual(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Secret-looking variables: printed as [REDACTED] by --verbose and never anywhere else. */
function secretNames() {
  const names = new Set();
  for (const [name, def] of Object.entries(REPRO.vars)) {
    if (def.kind === 'env' && def.name !== 'PARTNER_ACCESS_KEY_ID') names.add(name);
    if (def.kind === 'answer' && /secret|token|password/i.test(def.pointer)) names.add(name);
  }
  return names;
}

async function replay(options, log) {
  if (REPRO.unreplayable)
    throw new CannotRun(`this check cannot be replayed standalone: ${REPRO.unreplayable}`);
  const values = new Map();
  for (const [name, def] of Object.entries(REPRO.vars)) {
    if (def.kind === 'env') {
      const value = process.env[def.name];
      if (!value)
        throw new CannotRun(
          `set ${def.name} in the environment (the run's credential; never put it in this file)`,
        );
      values.set(name, value);
    } else if (def.kind === 'client') values.set(name, fresh(def.shape));
  }
  const secrets = secretNames();
  const redact = (text) => {
    // Credentials by field name too: an answer is printed before its values are learned.
    let out = text.replace(
      /("(?:access_token|refresh_token|secret_key|client_secret|secret|password|token)"\s*:\s*)"[^"]*"/gi,
      '$1"[REDACTED]"',
    );
    for (const name of secrets) {
      const value = values.get(name);
      if (value) out = out.split(value).join('[REDACTED]');
    }
    return out;
  };
  const fill = (template) =>
    template.replace(/\{\{(v\d+)\}\}/g, (whole, name) => {
      if (!(name in REPRO.vars)) return whole;
      if (!values.has(name))
        throw new CannotRun(`no value for ${name}: the answer it comes from did not carry it`);
      return values.get(name);
    });
  const origin = (options.target ?? '').replace(/\/$/, '');
  if (!origin) throw new CannotRun('no target: pass --target URL');
  const control = (options.controlUrl ?? '').replace(/\/$/, '');
  const urlOf = (step) => {
    const path = fill(step.url);
    if (step.channel === 'api') return origin + path;
    if (!control) throw new CannotRun('this check uses the control API: pass --control-url URL');
    return control + path.slice(REPRO.controlPath.length);
  };
  /** New client-made values (Idempotency-Key, external_id) for a step sent once more. */
  const refreshClientValues = (step) => {
    const text = JSON.stringify([step.url, step.body, step.headers, step.basic]);
    for (const [, name] of text.matchAll(/\{\{(v\d+)\}\}/g)) {
      const def = REPRO.vars[name];
      if (def?.kind === 'client') values.set(name, fresh(def.shape));
    }
  };
  const cleanup = { accounts: new Set(), keys: new Set(), orders: [], serviceChanged: new Set() };
  const answers = new Map();

  /** Sends a step; `pace`: a 429 the run did not meet there is waited out (Retry-After), not judged. */
  const send = async (step, pace = true) => {
    const headers = {};
    for (const [name, value] of Object.entries(step.headers)) {
      if (name === 'host' || name === 'content-length' || name === 'connection') continue;
      headers[name] = fill(value);
    }
    if (step.basic !== undefined) {
      const form = (text) => encodeURIComponent(text).replace(/%20/g, '+');
      const [id, ...rest] = step.basic.split(':');
      headers.authorization = `Basic ${Buffer.from(`${form(fill(id))}:${form(fill(rest.join(':')))}`).toString('base64')}`;
    }
    const url = urlOf(step);
    const body = step.body === undefined ? undefined : fill(step.body);
    for (let attempt = 0; ; attempt++) {
      if (options.verbose)
        log(`> ${step.method} ${redact(url)}${body ? `\n  ${redact(body).slice(0, 2000)}` : ''}`);
      let res;
      try {
        res = await fetch(url, {
          method: step.method,
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(30_000),
        });
      } catch (error) {
        throw new CannotRun(
          `${step.method} ${redact(url)} got no answer: ${error.cause?.code ?? error.message} (is the target up?)`,
        );
      }
      const text = await res.text();
      let json;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      const answer = { status: res.status, headers: Object.fromEntries(res.headers), text, json };
      if (options.verbose) log(`< ${res.status} ${redact(text).slice(0, 2000)}`);
      // A 429 the run did not meet here is pacing, not the subject: wait as the target asks, once.
      const wait = Number(answer.headers['retry-after']);
      if (
        pace &&
        res.status === 429 &&
        step.status !== 429 &&
        attempt < 3 &&
        wait >= 0 &&
        wait <= MAX_RETRY_AFTER_S
      ) {
        log(`(429: waiting ${wait} s as Retry-After asks)`);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      return answer;
    }
  };

  const learn = (step, answer) => {
    answers.set(step.id, answer);
    for (const [name, def] of Object.entries(REPRO.vars)) {
      if (def.kind !== 'answer' || def.step !== step.id) continue;
      const value = valueAt(answer.json, def.pointer);
      if (typeof value === 'string' && value) values.set(name, value);
    }
    const ok = answer.status >= 200 && answer.status < 300;
    if (step.channel === 'control') {
      if (!ok && step.status !== undefined && step.status >= 200 && step.status < 300) {
        const why =
          answer.status === 401
            ? 'the control token was refused (CONTROL_TOKEN)'
            : `HTTP ${answer.status}`;
        throw new CannotRun(
          `set-up through the control API failed: ${step.method} ${step.url}: ${why}`,
        );
      }
      if (ok && step.method === 'POST' && /\/accounts$/.test(step.url) && answer.json?.id)
        cleanup.accounts.add(answer.json.id);
      if (ok && step.method === 'POST' && /\/keys$/.test(step.url) && answer.json?.access_key_id)
        cleanup.keys.add(answer.json.access_key_id);
      if (ok && step.method === 'PATCH' && /"service"|"suspended"/.test(step.body ?? ''))
        cleanup.serviceChanged.add(urlOf(step));
    } else {
      if (answer.status === 401 && step.status !== 401 && step.basic !== undefined)
        throw new CannotRun(
          'the API key was refused (PARTNER_ACCESS_KEY_ID / PARTNER_SECRET_KEY, or a key made by the control API)',
        );
      const placed =
        REPRO.orders && step.method === 'POST' && step.url.split('?')[0] === REPRO.orders.path;
      const id = placed && ok ? valueAt(answer.json, REPRO.orders.idPointer) : undefined;
      if (typeof id === 'string') cleanup.orders.push({ id, headers: step.headers });
    }
  };

  const onInterrupt = () => {
    log('interrupted: cleaning up');
    cleanUp().finally(() => process.exit(130));
  };
  const cleanUp = async () => {
    // Orders placed with a partner key are cancelled, as the run does; made keys are revoked;
    // service states are put back. Faults live in the replay's own account, which nothing else uses.
    if (REPRO.mode === 'partner' && REPRO.orders) {
      for (const order of cleanup.orders) {
        const step = {
          channel: 'api',
          method: 'POST',
          url: REPRO.orders.cancel.replace('{id}', encodeURIComponent(order.id)),
          headers: order.headers,
        };
        await send({ ...step, status: 200 }).catch(() => undefined);
      }
    }
    for (const url of cleanup.serviceChanged) {
      await fetch(url, {
        method: 'PATCH',
        headers: {
          'content-type': 'application/json',
          'x-control-token': process.env.CONTROL_TOKEN ?? '',
        },
        body: JSON.stringify({ service: 'normal', suspended: false }),
      }).catch(() => undefined);
    }
    for (const key of cleanup.keys) {
      await fetch(`${control}/keys/${encodeURIComponent(key)}/revoke`, {
        method: 'POST',
        headers: { 'x-control-token': process.env.CONTROL_TOKEN ?? '' },
      }).catch(() => undefined);
    }
  };
  process.once('SIGINT', onInterrupt);
  try {
    for (const item of plan()) {
      if (item.loop) {
        // Like requests (a rate limit's) until the answer the run's last one got (the limit
        // reached); they are the subject: no pacing. A window that ends during the loop starts
        // the count again, once (the check allows as much), and the new window may need the
        // whole burst the run sent, its like requests before this loop included (another
        // class's requests sent at once split it); the sends past the run's count get fresh
        // client values of their own.
        const last = item.loop.at(-1);
        const limit = last.status !== item.loop[0].status ? last.status : undefined;
        const most = limit === undefined ? item.loop.length : item.loop.length + item.burst;
        let answer;
        for (let i = 0; i < most; i++) {
          const step = item.loop[Math.min(i, item.loop.length - 1)];
          if (i >= item.loop.length) refreshClientValues(step);
          answer = await send(step, false);
          learn(step, answer);
          if (limit !== undefined && answer.status === limit) break;
        }
        answers.set(last.id, answer);
        continue;
      }
      learn(item.step, await send(item.step));
    }
  } finally {
    await cleanUp();
    process.removeListener('SIGINT', onInterrupt);
  }
  return judge(answers, values);
}

/** Runs of at least five identical requests (a rate limit's) become one loop. */
function plan() {
  const out = [];
  // Alike: the same request but for the client's fresh values (each its own Idempotency-Key).
  const shape = (s) =>
    JSON.stringify([s.channel, s.method, s.url, s.body, s.headers, s.basic]).replace(
      /\{\{(v\d+)\}\}/g,
      (w, n) => (REPRO.vars[n]?.kind === 'client' ? '{{client}}' : w),
    );
  const same = (a, b) => shape(a) === shape(b);
  // A step whose answer gives a later one a value is set-up, not a burst: only a loop's last may.
  const defining = new Set(
    Object.values(REPRO.vars).flatMap((v) => (v.kind === 'answer' ? [v.step] : [])),
  );
  const steps = REPRO.steps;
  for (let i = 0; i < steps.length; ) {
    let j = i + 1;
    while (
      j < steps.length &&
      same(steps[i], steps[j]) &&
      steps[j - 1].status === steps[i].status &&
      !defining.has(steps[j - 1].id)
    )
      j++;
    if (j - i >= 5) {
      const burst = steps.slice(0, j).filter((s) => same(s, steps[i])).length;
      out.push({ loop: steps.slice(i, j), burst });
    } else for (let k = i; k < j; k++) out.push({ step: steps[k] });
    i = j;
  }
  return out;
}

function fillValue(value, values) {
  if (value === undefined) return undefined;
  return JSON.parse(
    JSON.stringify(value).replace(/\{\{(v\d+)\}\}/g, (whole, name) =>
      values.has(name) ? JSON.stringify(values.get(name)).slice(1, -1) : whole,
    ),
  );
}

/** Each violation judged again on the answer of the same step now. */
function judge(answers, values) {
  const verdicts = [];
  for (const v of REPRO.judge) {
    const step = REPRO.steps.find((s) => s.id === v.exchange);
    const answer = v.exchange === undefined ? undefined : answers.get(v.exchange);
    if (!step || !answer) {
      // Judged across answers (two orders that must be one): the values compared are learned
      // again from this replay's answers, so their (in)equality is judged anew.
      const learned = JSON.stringify(v.received).match(/\{\{(v\d+)\}\}/g) ?? [];
      const fresh = learned.some((m) => REPRO.vars[m.slice(2, -2)]?.kind === 'answer');
      if (v.code === 'VALUE' && fresh && v.exchange === undefined) {
        const expected = fillValue(v.expected, values);
        const received = fillValue(v.received, values);
        const open = /\{\{v\d+\}\}/.test(JSON.stringify([expected, received]));
        if (!open) {
          const reproduced = !deepEqual(expected, received);
          verdicts.push({
            v,
            judged: true,
            reproduced,
            here: `now ${JSON.stringify(received)} against ${JSON.stringify(expected)}`,
            current: received,
          });
          continue;
        }
      }
      verdicts.push({ v, judged: false, why: 'it names no single answer' });
      continue;
    }
    const here = `${step.method} ${step.url.replace(/\{\{v\d+\}\}/g, '…')}: HTTP ${answer.status}${answer.json?.code ? ` ${answer.json.code}` : ''}`;
    let current;
    let resolvable = true;
    if (v.pointer === '/status') current = answer.status;
    else if (v.pointer.startsWith('/headers/'))
      current = answer.headers[v.pointer.slice('/headers/'.length).toLowerCase()];
    else if (v.pointer === '/body' || v.pointer.startsWith('/body/'))
      current =
        answer.json === undefined
          ? v.pointer === '/body'
            ? answer.text || undefined
            : undefined
          : valueAt(answer.json, v.pointer.slice(5));
    else resolvable = false;
    let reproduced;
    const at = (pointer) =>
      pointer === '/status'
        ? answer.status
        : pointer.startsWith('/headers/')
          ? answer.headers[pointer.slice('/headers/'.length).toLowerCase()]
          : valueAt(answer.json, pointer.slice('/body'.length));
    if (v.holds) {
      // What the answer must show for the rule to hold (a model's step): any of it missing breaks it.
      const broken = v.holds.find((h) => !deepEqual(at(h.pointer), fillValue(h.equals, values)));
      verdicts.push({
        v,
        judged: true,
        reproduced: broken !== undefined,
        here,
        current: broken ? at(broken.pointer) : undefined,
      });
      continue;
    }
    const statuses = [v.expected].flat();
    if (v.pointer === '/status' && statuses.every((x) => typeof x === 'number')) {
      reproduced = !statuses.includes(answer.status);
    } else if (v.code === 'LEAK') {
      const secrets = [...secretNames()].map((n) => values.get(n)).filter(Boolean);
      reproduced =
        secrets.some((s) => answer.text.includes(s)) ||
        (resolvable &&
          v.observed &&
          'value' in v.observed &&
          deepEqual(current, fillValue(v.observed.value, values)));
    } else if (resolvable && v.observed) {
      reproduced =
        'absent' in v.observed
          ? current === undefined
          : deepEqual(current, fillValue(v.observed.value, values));
    } else {
      // Where the violation points the run's evidence could not say: the same answer as the run's.
      reproduced = answer.status === step.status && (answer.json?.code ?? undefined) === step.code;
    }
    verdicts.push({ v, judged: true, reproduced, here, current });
  }
  return verdicts;
}

function describe(verdict) {
  const { v } = verdict;
  const at = v.pointer ? ` at ${v.pointer}` : '';
  return `${v.message}${at} (${verdict.here}; expected ${JSON.stringify(v.expected)})`;
}

/** Runs the replay and answers the lines to print and the exit code. */
export async function reproduce(argv = process.argv.slice(2), log = (line) => console.error(line)) {
  let options;
  try {
    options = parseArgs(argv);
  } catch (error) {
    return { exit: EXIT.cannot, lines: [`CANNOT RUN: ${error.message}`] };
  }
  if (options.help) return { exit: 0, lines: [usage()] };
  let verdicts;
  try {
    verdicts = await replay(options, log);
  } catch (error) {
    if (error instanceof CannotRun)
      return { exit: EXIT.cannot, lines: [`CANNOT RUN: ${error.message}`] };
    throw error;
  }
  const judged = verdicts.filter((v) => v.judged);
  if (REPRO.judge.length === 0) {
    // A harness error, not a violation: the sequence was replayed (see --verbose), nothing is judged.
    return {
      exit: EXIT.cannot,
      lines: [
        `CANNOT RUN: the run ended this check in error (${REPRO.reason ?? 'no reason given'}); it judged nothing to judge again. --verbose shows the replayed exchanges.`,
      ],
    };
  }
  if (judged.length === 0) {
    return {
      exit: EXIT.cannot,
      lines: [
        `CANNOT RUN: none of the violations can be judged standalone (${verdicts.map((v) => v.why).join('; ')})`,
      ],
    };
  }
  const reproduced = judged.filter((v) => v.reproduced);
  if (reproduced.length > 0)
    return {
      exit: EXIT.reproduced,
      lines: reproduced.map((v) => `REPRODUCED: ${REPRO.rule.id} ${describe(v)}`),
    };
  return {
    exit: EXIT.notReproduced,
    lines: [
      `NOT REPRODUCED: ${REPRO.rule.id} ${judged.map((v) => `${v.v.message} (${v.here})`).join('; ')}`,
    ],
  };
}

if (process.env.NODE_TEST_CONTEXT) {
  // `node --test repro/`: one test per reproduction; a fixed server turns it green.
  const { test } = await import('node:test');
  test(`${REPRO.rule.id} ${REPRO.rule.title}`, async () => {
    const { exit, lines } = await reproduce([], () => undefined);
    if (exit !== EXIT.notReproduced) throw new Error(lines.join('\n'));
  });
} else if (
  import.meta.url === `file://${process.argv[1]}` ||
  process.argv[1]?.endsWith(`${REPRO.rule.id}.mjs`)
) {
  const { exit, lines } = await reproduce();
  for (const line of lines) console.log(line);
  process.exitCode = exit;
}
