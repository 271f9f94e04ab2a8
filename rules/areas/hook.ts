import type { RuleInput } from '../schema.js';

/** Webhook endpoints: API document sections 2, 4 and 6. */
export const rules: RuleInput[] = [
  {
    id: 'HOOK-01',
    level: 'MUST',
    title:
      'MUST accept five webhook endpoints in a mode and refuse a sixth with 422 limit_exceeded',
    section: '6',
  },
  {
    id: 'HOOK-02',
    level: 'MUST',
    title: 'MUST give the other mode its own five webhook endpoints',
    section: '6',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'HOOK-03',
    level: 'MUST',
    title: 'MUST not count deleted webhook endpoints toward the five',
    section: '6',
  },
  {
    id: 'HOOK-04',
    level: 'MUST',
    title:
      'MUST refuse /webhook-endpoints and /events without webhooks:manage with 403 insufficient_scope',
    section: '6',
  },
  {
    id: 'HOOK-05',
    level: 'DIALECT',
    title:
      'DIALECT create endpoints with 201, list and read them, delete with 204 and then answer 404',
    section: 'C2',
  },
];
