import type { RuleInput } from '../schema.js';

/** Payment errors of POST /orders: API document sections 4 (idempotency rule 5) and 7. */
export const rules: RuleInput[] = [
  {
    id: 'PAY-01',
    level: 'MUST',
    title: "MUST answer a declined card with 402 card_declined carrying the bank's decline_code",
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
  },
  {
    id: 'PAY-02',
    level: 'MUST',
    title: 'MUST answer a payment the bank wants approved with 402 authentication_required',
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
  },
  {
    id: 'PAY-03',
    level: 'MUST',
    title: 'MUST answer a card-billed account with no usable card with 402 payment_method_required',
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
  },
  {
    id: 'PAY-04',
    level: 'MUST',
    title: 'MUST answer a payment that cannot be completed with 402 payment_failed',
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
  },
  {
    id: 'PAY-05',
    level: 'MUST',
    title: 'MUST send decline_code only on card_declined, never on the other 402 errors',
    section: '2',
    needs: ['accounts', 'keys', 'payments'],
  },
  {
    id: 'PAY-06',
    level: 'MUST',
    title: 'MUST leave no order behind after any 402 payment error',
    section: '4',
    needs: ['accounts', 'keys', 'payments'],
  },
  {
    id: 'PAY-07',
    level: 'MUST',
    title: 'MUST never fail payment for an account billed by invoice',
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
  },
  {
    id: 'PAY-08',
    level: 'MUST',
    title: 'MUST place orders for a card-billed account whose saved card works',
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
  },
];
