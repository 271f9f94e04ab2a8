import { valueAt } from '../../evidence/json-pointer.js';
import {
  type Dialect,
  isDocumentPath,
  type OperationName,
  type PathName,
  pathOf,
} from '../../target/dialect.js';
import { PROBE_ADDRESS } from '../dialect-probe.js';
import type { Inferred } from '../infer.js';
import type { MoneySeen } from '../judge.js';
import type { Answer, ProbeSession } from '../probe-session.js';
import type { Draft } from './draft.js';

/**
 * What the draft's steps share: the session, the draft being written and its
 * dialect, and the ways a step marks a field inferred or names a TODO. Before
 * the token (the door, the key): a `Drafting`; after it, the `Steps` every
 * other step takes.
 */
export interface Drafting {
  session: ProbeSession;
  draft: Draft;
  d: Dialect;
  /** Marks fields inferred (dialect field paths, prefixes of leaves). */
  got: (...fields: string[]) => void;
  /** Sets a field to what was found and marks it inferred; else its TODO. Answers whether it was found. */
  take: <T>(field: string, found: Inferred<T>, set: (value: T) => void) => boolean;
  /** Notes a path as answered or missing (404, 405), with the TODO a missing one needs. */
  answered: (name: PathName, res: Answer) => boolean;
}

export interface Steps extends Drafting {
  token: string;
  /** Money seen at each place, judged together at the end (money.ts). */
  money: MoneySeen[];
}

/** The list paths whose method the API document does not show (section 4), by their operation. */
export const METHOD_OPEN: Partial<Record<PathName, OperationName>> = {
  webhookEndpoints: 'webhookEndpointList',
  events: 'eventList',
};

export function startDrafting(session: ProbeSession, draft: Draft): Drafting {
  const d = draft.dialect;
  const got = (...fields: string[]) => {
    for (const f of fields) if (!draft.inferred.includes(f)) draft.inferred.push(f);
  };
  const take = <T>(field: string, found: Inferred<T>, set: (value: T) => void): boolean => {
    if ('todo' in found) {
      draft.todos.push(found.todo);
      return false;
    }
    set(found.value);
    got(field);
    return true;
  };
  const answered = (name: PathName, res: Answer): boolean => {
    const found = res.status !== 404 && res.status !== 405;
    const list = found ? draft.answered : draft.missing;
    if (!list.includes(name)) list.push(name);
    // A path the document fixes is no profile field: only the dialect's are drafted.
    if (found && !isDocumentPath(name)) got(`paths.${name}`);
    else if (!found && isDocumentPath(name)) {
      // Where the document leaves the method open, a 404 or 405 may be the method.
      const op = METHOD_OPEN[name];
      draft.todos.push(
        op
          ? `dialect.operations.${op}.method: ${res.request} answered ${res.status}: write the target's method (the path is the API document's)`
          : `${res.request} answered ${res.status} at a path the API document fixes (section 4): no profile field moves it, and the checks will fail a target that does not serve it there`,
      );
    } else if (!found)
      draft.todos.push(
        `dialect.paths.${name}: ${res.request} answered ${res.status}: write the target's path`,
      );
    return found;
  };
  return { session, draft, d, got, take, answered };
}

/** A GET with the token at a path of the dialect. */
export function get(
  s: Steps,
  name: PathName,
  params?: Record<string, string>,
  query?: Record<string, string>,
): Promise<Answer> {
  return s.session.send(
    { method: 'GET', path: pathOf(s.d, name, params), ...(query ? { query } : {}) },
    s.token,
  );
}

/** The address of the probe's orders and quotes. */
export const ADDRESS = { ...PROBE_ADDRESS, line2: 'Suite 1' };

/** The values once each, in their order. */
export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Puts `value` at a JSON pointer of `body`, making the objects on the way. */
export function putAt(body: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = body;
  for (const token of tokens.slice(0, -1)) {
    const next = node[token];
    node[token] = typeof next === 'object' && next !== null ? next : {};
    node = node[token] as Record<string, unknown>;
  }
  node[tokens.at(-1) ?? ''] = value;
}

/**
 * A member no rule of the probe recognises, shown where the starting profile
 * (`--profile`) says: the profile's pointer stands, no TODO.
 */
export function orStart(found: Inferred<string>, body: unknown, start: string): Inferred<string> {
  return 'todo' in found && valueAt(body, start) !== undefined ? { value: start } : found;
}
