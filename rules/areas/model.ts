import type { RuleInput } from '../schema.js';

/** Model-based sequences over API document sections 3 and 4. */
export const rules: RuleInput[] = [
  {
    id: 'MODEL-01',
    level: 'MUST',
    title:
      'MUST agree with a model of orders, idempotency, the cancel window and the clock over random sequences',
    section: '4',
    needs: ['accounts', 'keys', 'clock'],
  },
];
