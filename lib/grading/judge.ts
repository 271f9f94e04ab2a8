import type { ClientExchange } from '../sandbox/exchange.js';
import type { Traffic } from './traffic.js';

/** What a judge found on one occasion the client had to keep its rule. */
export interface Finding {
  outcome: 'honoured' | 'broken' | 'not_exercised';
  /** The exchanges that show it, the occasion first. */
  exchanges: number[];
  /** One sentence: what the client did. */
  reason: string;
}

/**
 * The judge of one client rule (the rule's data is in rules/client/): which
 * exchanges gave the client a chance to keep it, and what it did with each.
 * A pure function of the recorded traffic.
 */
export interface Judge {
  ruleId: string;
  /**
   * Its occasions are answers the client must recognise by their code (a
   * 429, a 500, token_expired): those whose title and detail were reworded
   * are CLIENT-21's to judge, so that a client reading `detail` is broken on
   * that rule, and on this one only where it fails with the usual words too.
   */
  reacts?: true;
  occasions(traffic: Traffic): ClientExchange[];
  judge(occasion: ClientExchange, traffic: Traffic): Finding;
}

export function honoured(reason: string, ...exchanges: number[]): Finding {
  return { outcome: 'honoured', exchanges, reason };
}

export function broken(reason: string, ...exchanges: number[]): Finding {
  return { outcome: 'broken', exchanges, reason };
}

export function notExercised(reason: string, ...exchanges: number[]): Finding {
  return { outcome: 'not_exercised', exchanges, reason };
}

/** `#12 GET /api/on-demand/v1/account` (the query left out: it may hold what must not be shown). */
export function named(ex: ClientExchange): string {
  const q = ex.url.indexOf('?');
  return `#${ex.id} ${ex.method} ${q === -1 ? ex.url : `${ex.url.slice(0, q)}?…`}`;
}

/** The media type of a Content-Type, lower-cased, without parameters. */
export function mediaTypeOf(ex: ClientExchange): string | undefined {
  const value = ex.requestHeaders['content-type'];
  return value?.split(';')[0]?.trim().toLowerCase();
}
