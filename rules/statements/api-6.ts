import type { StatementInput } from './schema.js';

/** The API document, section 6: events and webhook endpoints. */
export const statements: StatementInput[] = [
  {
    id: 'A6-01',
    kind: 'server',
    text: 'Events are read under /events.',
    rules: ['READ-20', 'READ-21'],
  },
  {
    id: 'A6-02',
    kind: 'server',
    text: 'Webhook endpoints are managed under /webhook-endpoints.',
    rules: ['HOOK-01', 'HOOK-03', 'HOOK-05'],
  },
  {
    id: 'A6-03',
    kind: 'server',
    text: 'Both need the scope webhooks:manage.',
    rules: ['HOOK-04', 'SCOPE-01', 'SCOPE-02'],
  },
  {
    id: 'A6-04',
    kind: 'server',
    text: 'At most 5 webhook endpoints per mode.',
    rules: ['HOOK-01', 'HOOK-02', 'HOOK-03', 'RACE-03'],
    scope: {
      scope: 'per mode, active endpoints',
      forbids: ['HOOK-01'],
      allows: ['HOOK-02', 'HOOK-03'],
      tooWide: ['webhook-limit-across-modes', 'deleted-endpoints-counted'],
    },
  },
  {
    id: 'A6-05',
    kind: 'server',
    text: 'Adding a sixth gives 422 limit_exceeded.',
    rules: ['HOOK-01', 'HOOK-02', 'RACE-03'],
  },
  {
    id: 'A6-06',
    kind: 'informative',
    text: 'Event kinds, event payloads, delivery and retries, signing, and which operation emits which event: not shown.',
    why: 'marks what the document leaves open (READ-21 and READ-22 observe the reference dialect)',
  },
];
