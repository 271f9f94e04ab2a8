import type { ClientExchange } from '../../sandbox/exchange.js';
import { answered, identityOf, retryAfterOf } from '../../sandbox/facts.js';
import { broken, type Finding, honoured, type Judge, named } from '../judge.js';
import type { Traffic } from '../traffic.js';

/**
 * Waiting before sending again (API document section 7): after a 429 for
 * its Retry-After, after a 503 "later". The sandbox's 503s say
 * Retry-After: 1, so "later" is held to at least that. The wait is measured
 * from the moment the answer went out to the moment the request came
 * again; a client that waits is never measured short by a slow machine
 * (that only lengthens the gap). SLACK allows for timers that fire a few
 * milliseconds early.
 */
const SLACK_MS = 100;

function waited(ex: ClientExchange, traffic: Traffic, what: string): Finding {
  const seconds = retryAfterOf(ex) ?? 1;
  const identity = identityOf(ex);
  const again = traffic.after(ex).find((e) => identityOf(e) === identity);
  if (!again)
    return broken(`after ${what} on ${named(ex)} the request was never sent again`, ex.id);
  const gap = again.receivedMs - ex.answeredMs;
  if (gap < seconds * 1000 - SLACK_MS)
    return broken(
      `after ${what} on ${named(ex)} (Retry-After: ${seconds}), ${named(again)} sent it again ${Math.round(gap)} ms later`,
      ex.id,
      again.id,
    );
  return honoured(
    `after ${what} on ${named(ex)} (Retry-After: ${seconds}), ${named(again)} sent it again ${(gap / 1000).toFixed(1)} s later`,
    ex.id,
    again.id,
  );
}

export const waitAfter429: Judge = {
  ruleId: 'CLIENT-18',
  reacts: true,
  occasions: (traffic) =>
    traffic.all.filter((ex) => ex.kind !== 'other' && answered(ex, 429, 'rate_limited')),
  judge: (ex, traffic) => waited(ex, traffic, '429 rate_limited'),
};

export const laterAfterReadOnly: Judge = {
  ruleId: 'CLIENT-19',
  reacts: true,
  occasions: (traffic) =>
    traffic.all.filter((ex) => ex.kind !== 'other' && answered(ex, 503, 'read_only')),
  judge: (ex, traffic) => waited(ex, traffic, '503 read_only'),
};

export const laterAfterUnavailable: Judge = {
  ruleId: 'CLIENT-20',
  reacts: true,
  occasions: (traffic) =>
    traffic.all.filter((ex) => ex.kind !== 'other' && answered(ex, 503, 'api_unavailable')),
  judge: (ex, traffic) => waited(ex, traffic, '503 api_unavailable'),
};
