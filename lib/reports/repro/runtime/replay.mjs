// Executes a replay plan (REPRO): every step in the plan's order, like requests as loops, the
// requests the check had in flight together sent together, each value learned from the answers
// it gets now; then removes what it made (orders cancelled, webhook endpoints deleted, keys
// revoked, service states put back), on Ctrl-C too. Decides nothing the plan does not say.
import { answerAt } from '../../../violations/condition.mjs';
import { removeMade } from './cleanup.mjs';
import { fresh, madeUp } from './fresh.mjs';
import { closeConnections, NoAnswer, send, sendTogether } from './http.mjs';
import { describeStep } from './step-text.mjs';
import { bodyEncoder, fill, fillUrl, Unfilled } from './template.mjs';
import { visible } from './visible.mjs';

/** A failure of the reproduction's own (never the target's): exit 2, saying why. */
export class CannotRun extends Error {}

/** Longest wait for a Retry-After outside the steps that are the rule's subject. */
const MAX_RETRY_AFTER_S = 65;

/**
 * Replays REPRO against `options.target` / `options.control`; answers the answers by step id, the
 * values learned and the secrets (for a LEAK). `log` prints progress (stderr).
 */
export async function replayPlan(REPRO, options, log) {
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
    else if (def.kind === 'made') values.set(name, madeUp(def.prefix, def.shape));
  }
  guardLiveOrders(REPRO, options);
  const steps = new Map(REPRO.steps.map((step) => [step.id, step]));
  const secrets = secretNames(REPRO);
  const redact = (text) => {
    let out = String(text).replace(
      /("(?:access_token|refresh_token|secret_key|client_secret|secret|password|token)"\s*:\s*)"[^"]*"/gi,
      '$1"[REDACTED]"',
    );
    for (const name of secrets) {
      const value = values.get(name);
      if (value) out = out.split(value).join('[REDACTED]');
    }
    if (options.controlToken) out = out.split(options.controlToken).join('[REDACTED]');
    return out;
  };
  const say = (text) => log(visible(text));

  /** The request of a step, every value filled as it is written where it goes. */
  const requestOf = (step) => {
    try {
      const base = step.channel === 'api' ? options.target : options.control;
      if (!base) throw new CannotRun('this check uses the control API: pass --control-url URL');
      const headers = {};
      for (const [name, value] of Object.entries(step.headers)) {
        headers[name] = headerValue(fill(value, values), name);
      }
      if (step.basic !== undefined) {
        const form = (text) => encodeURIComponent(text).replace(/%20/g, '+');
        const [id, ...rest] = step.basic.split(':');
        headers.authorization = `Basic ${Buffer.from(`${form(fill(id, values))}:${form(fill(rest.join(':'), values))}`).toString('base64')}`;
      }
      const body =
        step.body === undefined
          ? undefined
          : fill(step.body, values, bodyEncoder(step.headers['content-type']));
      return { url: base + fillUrl(step.url, values), method: step.method, headers, body };
    } catch (error) {
      if (error instanceof Unfilled) throw new CannotRun(`${describeStep(step)}: ${error.message}`);
      throw error;
    }
  };

  const show = (req, answer) => {
    if (!options.verbose) return;
    say(`> ${req.method} ${redact(req.url)}`);
    for (const [name, value] of Object.entries(req.headers))
      say(
        `  ${name}: ${/^(authorization|x-control-token)$/.test(name) ? redact(value).replace(/(\S+\s+)?\S+$/, '$1[REDACTED]') : redact(value)}`,
      );
    if (req.body) say(`  ${redact(req.body).slice(0, 2000)}`);
    if (!answer) return;
    say(`< ${answer.status}${answer.overCap ? ' (answer over 2 MiB: cut)' : ''}`);
    for (const [name, value] of Object.entries(answer.headers)) say(`  ${name}: ${redact(value)}`);
    if (answer.text) say(`  ${redact(answer.text).slice(0, 2000)}`);
  };

  const noAnswer = (step, error) =>
    new CannotRun(
      `${describeStep(step)} got no answer: ${error.code ?? error.message} (is the target up at ${step.channel === 'api' ? options.target : options.control}?)`,
    );

  /** Sends a step; `pace`: a 429 the run did not meet there is waited out (Retry-After), not judged. */
  const sendStep = async (step, pace) => {
    for (let attempt = 0; ; attempt++) {
      const req = requestOf(step);
      let answer;
      try {
        answer = await send(req);
      } catch (error) {
        if (error instanceof NoAnswer) throw noAnswer(step, error);
        throw error;
      }
      show(req, answer);
      const wait = Number(answer.headers['retry-after']);
      if (
        pace &&
        answer.status === 429 &&
        step.status !== 429 &&
        attempt < 3 &&
        wait >= 0 &&
        wait <= MAX_RETRY_AFTER_S
      ) {
        say(`(429 at ${describeStep(step)}: waiting ${wait} s as Retry-After asks)`);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      return { req, answer };
    }
  };

  const answers = new Map();
  const made = { orders: [], webhooks: [], keys: [], accounts: [], services: [] };
  const learn = (step, req, answer) => {
    answers.set(step.id, answer);
    if (answer.overCap)
      say(`${describeStep(step)}: answer over 2 MiB (the target's; read no further)`);
    for (const [name, pointer, then] of step.captures ?? []) {
      const value = answerAt(answer, `/body${pointer}`);
      if (then === 'untilMinute') {
        const seconds = typeof value === 'string' ? secondsToMinute(value) : Number.NaN;
        if (Number.isFinite(seconds)) values.set(name, String(seconds));
      } else if ((typeof value === 'string' && value) || typeof value === 'number')
        values.set(name, String(value));
    }
    const ok = answer.status >= 200 && answer.status < 300;
    if (ok) remember(step, req, answer);
    if (step.setUp === 'control' && !ok) {
      const why =
        answer.status === 401
          ? 'the control token was refused (CONTROL_TOKEN)'
          : `HTTP ${answer.status}`;
      throw new CannotRun(`set-up through the control API failed: ${describeStep(step)}: ${why}`);
    }
    if (step.setUp === 'key' && answer.status === 401)
      throw new CannotRun(
        `the API key was refused at ${describeStep(step)} (PARTNER_ACCESS_KEY_ID / PARTNER_SECRET_KEY, or a key made by the control API)`,
      );
  };
  const remember = (step, req, answer) => {
    const id = (pointer) => {
      const value = answerAt(answer, `/body${pointer}`);
      return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
    };
    if (step.makes === 'order' && id(REPRO.paths.orders.idPointer))
      made.orders.push({ id: id(REPRO.paths.orders.idPointer), step, headers: req.headers });
    if (step.makes === 'webhook' && id(REPRO.paths.webhooks.idPointer))
      made.webhooks.push({ id: id(REPRO.paths.webhooks.idPointer), step, headers: req.headers });
    if (step.makes === 'key' && id('/access_key_id')) made.keys.push(id('/access_key_id'));
    if (step.makes === 'account' && id('/id')) made.accounts.push(id('/id'));
    if (step.makes === 'service') made.services.push(req.url);
  };

  let cleaning;
  const cleanUp = () => {
    cleaning ??= removeMade(REPRO, options, made, steps, requestOf, say);
    return cleaning;
  };
  const onSignal = (signal) => {
    say(`${signal}: removing what the replay made`);
    cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  /** A step that needs a value this replay's race did not give: not sent, and said so. */
  const notLearned = (step) => {
    if (!step.ifLearned) return false;
    const missing = namesIn(step).filter((name) => !values.has(name));
    if (missing.length === 0) return false;
    say(`${describeStep(step)}: not sent, the race gave no ${missing.join(', ')} this time`);
    return true;
  };
  try {
    for (const item of REPRO.items) {
      if ('step' in item) {
        const step = steps.get(item.step);
        if (notLearned(step)) continue;
        const { req, answer } = await sendStep(step, true);
        learn(step, req, answer);
      } else if ('together' in item) {
        const members = item.together.map((id) => steps.get(id)).filter((s) => !notLearned(s));
        if (members.length === 0) continue;
        const reqs = members.map(requestOf);
        let got;
        try {
          got = await sendTogether(reqs);
        } catch (error) {
          if (error instanceof NoAnswer) throw noAnswer(members[0], error);
          throw error;
        }
        members.forEach((step, i) => {
          show(reqs[i], got[i]);
          learn(step, reqs[i], got[i]);
        });
      } else {
        // Like requests (a rate limit's) until the answer the run's last one got; they are the
        // subject, so no pacing; past the run's count, each with client values of its own.
        const loop = item.loop.map((id) => steps.get(id));
        const last = loop.at(-1);
        let answer;
        for (let i = 0; i < item.most; i++) {
          const step = loop[Math.min(i, loop.length - 1)];
          if (i >= loop.length) refreshClientValues(REPRO, step, values);
          const sent = await sendStep(step, false);
          answer = sent.answer;
          learn(step, sent.req, answer);
          if (item.until !== undefined && answer.status === item.until) break;
        }
        answers.set(last.id, answer);
      }
    }
  } finally {
    await cleanUp();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    closeConnections();
  }
  const secretValues = [...secrets].map((name) => values.get(name)).filter(Boolean);
  return { answers, values, secrets: secretValues };
}

/** A value sent in a header: a line break in it would be a header of the target's making. */
function headerValue(value, name) {
  if (/[\r\n\0]/.test(value))
    throw new CannotRun(`the value for header ${name} holds a line break: not sent`);
  return value;
}

/** Seconds from an ISO time to the next whole minute (60 at a whole minute), as the plan says. */
function secondsToMinute(time) {
  const ms = Date.parse(time);
  return Number.isFinite(ms) ? 60 - Math.floor((ms / 1000) % 60) : Number.NaN;
}

/** The variables a step's request names. */
function namesIn(step) {
  const text = JSON.stringify([step.url, step.headers, step.basic, step.body]);
  return [...new Set([...text.matchAll(/\{\{(v\d+)\}\}/g)].map((m) => m[1]))];
}

/** New client-made values (Idempotency-Key, external_id) for a step sent once more. */
function refreshClientValues(REPRO, step, values) {
  const text = JSON.stringify([step.url, step.body, step.headers, step.basic]);
  for (const [, name] of text.matchAll(/\{\{(v\d+)\}\}/g)) {
    const def = REPRO.vars[name];
    if (def?.kind === 'client') values.set(name, fresh(def.shape));
  }
}

/** Variables holding a secret: never printed. */
function secretNames(REPRO) {
  const names = new Set();
  for (const [name, def] of Object.entries(REPRO.vars)) {
    if (def.kind === 'env' && def.name !== 'PARTNER_ACCESS_KEY_ID') names.add(name);
    if (def.kind === 'answer' && /secret|token|password/i.test(def.pointer)) names.add(name);
    if (def.kind === 'made') names.add(name);
  }
  return names;
}

/** Live orders are real: placed only with --allow-live-orders, as the suite itself asks. */
function guardLiveOrders(REPRO, options) {
  if (options.allowLiveOrders) return;
  const partnerLive =
    REPRO.mode === 'partner' && (process.env.PARTNER_ACCESS_KEY_ID ?? '').includes('_live_');
  const live = REPRO.steps.filter((s) => s.live || (partnerLive && s.makes === 'order'));
  if (live.length === 0) return;
  throw new CannotRun(
    `this reproduction places orders with a live key (${live.map((s) => `#${s.id}`).join(', ')}), which are real: pass --allow-live-orders (or set CONFORMANCE_ALLOW_LIVE_ORDERS=1), never against production`,
  );
}
