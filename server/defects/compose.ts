import type { FastifyInstance } from 'fastify';
import type { Behaviour } from '../behaviour.js';
import type { AppContext } from '../context.js';
import { PROBLEM_CONTENT_TYPE } from '../problems/body.js';
import type { Answer, Defect, DefectEnv, Json, MemberReplacements } from './defect.js';
import { openWide } from './store/wide.js';

/** A defective server: its behaviour, and the hooks its defects add beside the routes. */
export interface Defective {
  readonly behaviour: Behaviour;
  /** Installs the answer rewriting and the hooks of the selected defects (none: nothing). */
  install(app: FastifyInstance): void;
}

/**
 * The behaviour of a server with the `selected` defects, composed once at
 * start over the correct one: each defect replaces the members it names,
 * given the member as composed so far.
 */
export async function withDefects(
  correct: Behaviour,
  selected: readonly Defect[],
  ctx: AppContext,
): Promise<Defective> {
  const env: DefectEnv = { ctx, correct, wide: await openWide(ctx.store) };
  let behaviour = correct;
  const answers: ((answer: Answer) => void)[] = [];
  const hooks: ((app: FastifyInstance) => void)[] = [];
  for (const defect of selected) {
    const { answer, beforeHandler, ...members } = defect.replaces(env);
    behaviour = replaceMembers(behaviour, members);
    if (answer) answers.push(answer);
    if (beforeHandler) hooks.push(beforeHandler);
  }
  return {
    behaviour,
    install(app) {
      for (const hook of hooks) hook(app);
      if (answers.length > 0) installAnswerBends(app, answers);
    },
  };
}

function replaceMembers(behaviour: Behaviour, members: MemberReplacements): Behaviour {
  const next: Record<string, unknown> = { ...behaviour };
  for (const [part, bends] of Object.entries(members) as [keyof Behaviour, object][]) {
    const current = behaviour[part] as unknown;
    if (typeof current !== 'object' || current === null) {
      throw new Error(`no part ${part} of the behaviour`);
    }
    const replaced: Record<string, unknown> = { ...current };
    for (const [member, bend] of Object.entries(bends) as [string, (c: unknown) => unknown][]) {
      if (!(member in current)) throw new Error(`no member ${part}.${member} to replace`);
      replaced[member] = bend(replaced[member]);
    }
    next[part] = Object.freeze(replaced);
  }
  return next as unknown as Behaviour;
}

/**
 * The answer seam: an `onSend` hook that lets each bend reword a JSON answer
 * the correct routes made (problem fields, status and media type, the token
 * response, the account and order views).
 */
function installAnswerBends(app: FastifyInstance, bends: readonly ((answer: Answer) => void)[]) {
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (typeof payload !== 'string' || payload === '' || !isJson(type)) {
      // Headers only (a 429's Retry-After) for an answer without a JSON body.
      done(null, payload);
      return;
    }
    try {
      const parsed = JSON.parse(payload) as Json;
      const problem =
        type.startsWith(PROBLEM_CONTENT_TYPE) ||
        (type.startsWith('application/json') && reply.statusCode >= 400);
      const answer: Answer = { request, reply, problem, body: parsed };
      for (const bend of bends) bend(answer);
      done(null, answer.body === parsed ? payload : JSON.stringify(answer.body));
    } catch (error) {
      done(error as Error);
    }
  });
}

function isJson(type: string): boolean {
  return type.startsWith('application/json') || type.startsWith(PROBLEM_CONTENT_TYPE);
}
