import type { StatementInput } from './schema.js';

/** The API document, section 3: states and transitions (keys, tokens, cancellation). */
export const statements: StatementInput[] = [
  {
    id: 'A3-01',
    kind: 'server',
    text: 'active | Roll (in the developer portal) | Test key | active, with a new Secret Key',
    rules: ['KEY-03', 'RACE-10'],
  },
  {
    id: 'A3-02',
    kind: 'server',
    text: 'The old Secret Key and every token made with it stop working at once.',
    rules: ['KEY-01', 'KEY-02', 'KEY-03', 'RACE-10'],
    scope: { scope: 'the old secret', forbids: ['KEY-01', 'KEY-02'], allows: ['KEY-03'] },
  },
  {
    id: 'A3-03',
    kind: 'server',
    text: 'active | Revoke (in the developer portal) | Any key | revoked (permanent)',
    rules: ['KEY-05', 'KEY-04', 'RACE-11'],
  },
  {
    id: 'A3-04',
    kind: 'server',
    text: 'All its tokens stop working.',
    rules: ['KEY-04', 'KEY-05', 'RACE-11'],
    scope: {
      scope: 'per key',
      forbids: ['KEY-04', 'KEY-05'],
      allows: ['KEY-04'],
      tooWide: ['revoke-revokes-account-keys'],
    },
  },
  {
    id: 'A3-05',
    kind: 'server',
    text: 'Requests with them get invalid_token.',
    rules: ['KEY-04'],
  },
  {
    id: 'A3-06',
    kind: 'server',
    text: 'live key, new | Time | First 24 hours | probation',
    rules: ['PROB-03', 'PROB-07', 'PROB-01'],
  },
  {
    id: 'A3-07',
    kind: 'server',
    text: 'At most 3 orders or $500.00 in that time.',
    rules: ['PROB-01', 'PROB-02', 'PROB-06', 'PROB-03', 'PROB-07', 'RACE-05'],
    scope: {
      scope: 'per new live key, first 24 hours',
      forbids: ['PROB-01', 'PROB-02'],
      allows: ['PROB-03', 'PROB-06', 'PROB-07'],
      tooWide: ['probation-never-lifted', 'probation-per-account', 'probation-on-test-keys'],
    },
  },
  {
    id: 'A3-08',
    kind: 'server',
    text: 'Beyond that, limit_exceeded.',
    rules: ['PROB-01', 'PROB-02', 'RACE-05'],
  },
  {
    id: 'A3-09',
    kind: 'server',
    text: 'Probation can be ended early on request to the operator.',
    rules: ['PROB-04'],
  },
  {
    id: 'A3-10',
    kind: 'server',
    text: 'Up to 10 keys may be active at once.',
    rules: ['KEY-06', 'KEY-12', 'RACE-06'],
  },
  {
    id: 'A3-11',
    kind: 'unobservable',
    text: 'Test keys are created by the partner in the developer portal.',
    why: 'the developer portal is not part of the API; the suite makes keys through the control protocol',
  },
  {
    id: 'A3-12',
    kind: 'unobservable',
    text: 'Live keys are issued by the operator.',
    why: 'the operator acts outside the API; the suite makes live keys through the control protocol',
  },
  {
    id: 'A3-13',
    kind: 'informative',
    text: 'Rolling a live key: not shown.',
    why: "marks what the document leaves open (KEY-09 observes the reference dialect's choice)",
  },
  {
    id: 'A3-14',
    kind: 'client',
    text: 'A possibly leaked live Secret Key is revoked and a new key requested from the operator.',
    why: "tells the partner what to do with a leaked live secret; that a revoked live key's tokens stop is KEY-04",
  },
  {
    id: 'A3-15',
    kind: 'server',
    text: 'valid | Time | Token older than 60 minutes | expired (token_expired)',
    rules: ['AUTH-05', 'AUTH-06'],
  },
  {
    id: 'A3-16',
    kind: 'server',
    text: 'valid | Key revoked or rolled | | unknown (invalid_token)',
    rules: ['KEY-02', 'KEY-04'],
  },
  {
    id: 'A3-17',
    kind: 'server',
    text: 'POST /orders/{id}/cancel | Within the 24-hour window, production not started, order not already cancelled | Order is cancelled.',
    rules: ['CANCEL-01', 'CANCEL-02', 'CANCEL-03', 'CANCEL-06', 'RACE-02'],
    scope: {
      scope: 'the first 24 hours',
      forbids: ['CANCEL-03'],
      allows: ['CANCEL-01', 'CANCEL-02'],
      tooWide: ['cancel-window-23h'],
    },
  },
  {
    id: 'A3-18',
    kind: 'server',
    text: 'POST /orders/{id}/cancel | The 24-hour window has closed, or production has started, or the order is already cancelled | 409 not_cancellable.',
    rules: ['CANCEL-03', 'CANCEL-04', 'CANCEL-05', 'CANCEL-01', 'CANCEL-07', 'RACE-02'],
  },
  {
    id: 'A3-19',
    kind: 'server',
    text: 'detail says which.',
    rules: ['CANCEL-03', 'CANCEL-04', 'CANCEL-05'],
  },
  {
    id: 'A3-20',
    kind: 'informative',
    text: 'Order states and transitions: not shown.',
    why: 'marks what the document leaves open (the reference dialect names the states)',
  },
];
