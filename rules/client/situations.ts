import type { Capability } from '../schema.js';

/**
 * The situations the sandbox plays on a partner's client in client mode
 * (`partner-ordering-conformance client -- <command>`): each the first time
 * the client's own traffic gives the chance, once per run unless
 * `--situations` asks otherwise. The layer that plays them is
 * lib/sandbox/; the client rules (rules/client/rules.ts) name the
 * situations that exercise them. Data only: names, words and what the
 * target's control API must offer (target contract, section 3).
 */
export const SITUATION_NAMES = [
  '429-token',
  '429-read',
  'token-expired',
  '500-after',
  '500-before',
  'card-declined',
  'duplicate-external-id',
  '429-write',
  'read-only',
  'unavailable',
  'reworded',
] as const;
export type SituationName = (typeof SITUATION_NAMES)[number];

export interface Situation {
  name: SituationName;
  /** What the client meets, in a few words. */
  title: string;
  /** The request that gives the chance: the situation is played on the first such request. */
  chance: string;
  /** What the sandbox does, for docs/partners.md and the report. */
  does: string;
  /** Control features it needs; without one it is not played (its rules end not_exercised, saying so). */
  needs: Capability[];
}

export const SITUATIONS: Record<SituationName, Situation> = {
  '429-token': {
    name: '429-token',
    title: '429 rate_limited with a short Retry-After on a token request',
    chance: 'token request (POST /oauth/token)',
    does: 'answers the token request itself with 429 rate_limited and Retry-After: 1 (--retry-after), without passing it on',
    needs: [],
  },
  '429-read': {
    name: '429-read',
    title: '429 rate_limited with a short Retry-After on a read',
    chance: 'read (GET) that is not a retry',
    does: 'answers the read itself with 429 rate_limited and Retry-After: 1 (--retry-after), without passing it on',
    needs: [],
  },
  'token-expired': {
    name: 'token-expired',
    title: '401 token_expired: the token aged past 3600 seconds',
    chance: 'call with a token that has already been used successfully',
    does: "moves the account's clock 3601 seconds forward (control API), so that the sandbox itself answers 401 token_expired",
    needs: ['clock'],
  },
  '500-after': {
    name: '500-after',
    title: '500 internal_error after the order is stored',
    chance: 'new order (POST /orders with an external_id not sent before)',
    does: 'arms a fault after the commit (control API): the order is placed, the answer is 500 internal_error',
    needs: ['faults'],
  },
  '500-before': {
    name: '500-before',
    title: '500 internal_error before the order is stored',
    chance: 'new order',
    does: 'arms a fault before the commit (control API): nothing is placed, the answer is 500 internal_error',
    needs: ['faults'],
  },
  'card-declined': {
    name: 'card-declined',
    title: '402 card_declined, then a valid card',
    chance: 'new order',
    does: "sets the account's card to declined (control API), then back to a valid card once the 402 is answered; the same Idempotency-Key sent again gets the same 402 (a service keeps a key's answer)",
    needs: ['accounts', 'payments'],
  },
  'duplicate-external-id': {
    name: 'duplicate-external-id',
    title: '409 duplicate_external_id: an order with that external_id exists',
    chance: 'new order',
    does: "places the same order first with a key of the sandbox's own (control API), so that the sandbox answers 409 duplicate_external_id",
    needs: ['keys'],
  },
  '429-write': {
    name: '429-write',
    title: '429 rate_limited with a short Retry-After on a write',
    chance: 'write (POST, PATCH, PUT, DELETE) that is not a retry',
    does: 'answers the write itself with 429 rate_limited and Retry-After: 1 (--retry-after), without passing it on',
    needs: [],
  },
  'read-only': {
    name: 'read-only',
    title: '503 read_only for a while',
    chance: 'new order or new quote',
    does: 'switches the account to read_only (control API) for as long as its Retry-After says, 1 second (--retry-after): writes get 503 read_only, reads still work',
    needs: ['accounts', 'service_state'],
  },
  unavailable: {
    name: 'unavailable',
    title: '503 api_unavailable for a while',
    chance: 'call that is not a retry',
    does: 'switches the account to unavailable (control API) for as long as its Retry-After says, 1 second (--retry-after): every request gets 503 api_unavailable',
    needs: ['accounts', 'service_state'],
  },
  reworded: {
    name: 'reworded',
    title: 'titles and details reworded on every answer',
    chance: 'second chance for a situation already played with the usual words',
    does: "rewords the title and detail of every problem answer, differently each time (the code stays), but those of each situation's first playing, and plays each kind of situation once more with its words reworded: the client's reaction must not change",
    needs: [],
  },
};
