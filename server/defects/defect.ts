import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Behaviour } from '../behaviour.js';
import { API_BASE } from '../config/api.js';
import type { AppContext } from '../context.js';
import type { Wide } from './store/wide.js';

/** The area a defect belongs to: the area of the rules it breaks (docs/rules.md), one file each. */
export type DefectArea =
  | 'TOKEN'
  | 'AUTH'
  | 'KEY'
  | 'SCOPE'
  | 'URL'
  | 'IP'
  | 'ACCT'
  | 'RATE'
  | 'RACE'
  | 'IDEM'
  | 'ORDER'
  | 'PAY'
  | 'PROB'
  | 'CANCEL'
  | 'MODE'
  | 'HOOK'
  | 'SVC'
  | 'ERR'
  | 'READ'
  | 'MODEL';

/** What a defect is given when it is composed into one app. */
export interface DefectEnv {
  readonly ctx: AppContext;
  /** The behaviour of the correct server, for a defect that falls back to it. */
  readonly correct: Behaviour;
  /** The questions only defects ask the database (store/wide.ts). */
  readonly wide: Wide;
}

export type Json = Record<string, unknown>;

/** An answer the correct routes made, about to be sent. */
export interface Answer {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** A problem (problem+json, or JSON with an error status) rather than a resource. */
  readonly problem: boolean;
  /** The body, parsed; a bend replaces it. */
  body: Json;
}

/** A member of a part, as a defect has it, made from the member composed so far. */
type Bend<T> = (current: T) => T;

/** Per part of the behaviour, the members a defect replaces. */
export type MemberReplacements = {
  readonly [P in keyof Behaviour]?: { readonly [M in keyof Behaviour[P]]?: Bend<Behaviour[P][M]> };
};

/** The functions a defect replaces in one app. */
export interface Replacements extends MemberReplacements {
  /** The answer as sent: problem fields, token response, views (an `onSend` hook). */
  readonly answer?: (answer: Answer) => void;
  /** A step before the handler (a `preHandler` hook), for a route that has no member to bend. */
  readonly beforeHandler?: (app: FastifyInstance) => void;
}

/**
 * One test-only defect: a server that breaks one rule of the API document and
 * is correct otherwise. `replaces` is called once per app, when app.ts
 * composes the defective server; memory a defect keeps lives in its closure,
 * so two servers in one process never share it.
 */
export interface Defect {
  /** Stable, kebab-case; the defect matrix (test/matrices/expectations.ts) names the rule it breaks. */
  readonly name: string;
  readonly area: DefectArea;
  /** What the defective server does, in one line (docs/detection-matrix.md shows it). */
  readonly breaks: string;
  readonly replaces: (env: DefectEnv) => Replacements;
}

/** Whether `answer` is a 2xx answer of the API route `method path` (path under the API base, e.g. `/orders/:id`). */
export function successOf(answer: Answer, method: string, path: string): boolean {
  const { request, reply } = answer;
  return (
    !answer.problem &&
    reply.statusCode >= 200 &&
    reply.statusCode < 300 &&
    request.method === method &&
    request.routeOptions.url === `${API_BASE}${path}`
  );
}

/**
 * The defects of one area, each with its area: `defectsOf('TOKEN', [...])`.
 * The names stay literal types, so the catalogue knows every `DefectName`.
 */
export function defectsOf<const N extends string>(
  area: DefectArea,
  list: readonly (Omit<Defect, 'area' | 'name'> & { readonly name: N })[],
): readonly (Defect & { readonly name: N })[] {
  return Object.freeze(list.map((defect) => Object.freeze({ ...defect, area })));
}
