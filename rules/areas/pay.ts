import { areaRules } from '../schema.js';

/** Payment errors of POST /orders: API document sections 4 (idempotency rule 5) and 7. */
export const rules = areaRules([
  {
    id: 'PAY-01',
    level: 'MUST',
    title: "MUST answer a declined card with 402 card_declined carrying the bank's decline_code",
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
    source: {
      doc: 'api',
      section: '7',
      quote:
        '402 | card_declined | Card declined. decline_code has the reason. No order created, nothing charged.',
    },
  },
  {
    id: 'PAY-02',
    level: 'MUST',
    title: 'MUST answer a payment the bank wants approved with 402 authentication_required',
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
    source: {
      doc: 'api',
      section: '7',
      quote: '402 | authentication_required | The bank wants extra approval. No order created.',
    },
  },
  {
    id: 'PAY-03',
    level: 'MUST',
    title: 'MUST answer a card-billed account with no usable card with 402 payment_method_required',
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
    source: {
      doc: 'api',
      section: '7',
      quote:
        '402 | payment_method_required | The account bills a card but none is saved with permission for automatic charges.',
    },
  },
  {
    id: 'PAY-04',
    level: 'MUST',
    title: 'MUST answer a payment that cannot be completed with 402 payment_failed',
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
    source: {
      doc: 'api',
      section: '7',
      quote: '402 | payment_failed | Payment could not be completed. No order created.',
    },
  },
  {
    id: 'PAY-05',
    level: 'MUST',
    title: 'MUST send decline_code only on card_declined, never on the other 402 errors',
    section: '2',
    needs: ['accounts', 'keys', 'payments'],
    source: {
      doc: 'api',
      section: '2',
      quote: "decline_code | string | Only on card_declined: the bank's reason.",
    },
  },
  {
    id: 'PAY-06',
    level: 'MUST',
    title: 'MUST leave no order behind after any 402 payment error',
    section: '4',
    needs: ['accounts', 'keys', 'payments'],
    source: { doc: 'api', section: '4', quote: 'After a 402 payment error no order exists.' },
  },
  {
    id: 'PAY-07',
    level: 'DIALECT',
    title: 'DIALECT never fail payment for an account billed by invoice',
    section: 'C3',
    needs: ['accounts', 'keys', 'payments'],
    source: { doc: 'contract', section: '3', quote: 'Invoice billing never fails payment.' },
  },
  {
    id: 'PAY-08',
    level: 'MUST',
    title: 'MUST place orders for a card-billed account whose saved card works',
    section: '7',
    needs: ['accounts', 'keys', 'payments'],
    source: {
      doc: 'api',
      section: '7',
      quote:
        '402 | payment_method_required | The account bills a card but none is saved with permission for automatic charges.',
    },
  },
  {
    id: 'PAY-09',
    level: 'MUST',
    title:
      'MUST charge nothing for an order refused with a 402 payment error, seen in the control listing of charges',
    section: '7',
    needs: ['accounts', 'keys', 'payments', 'charges'],
    source: {
      doc: 'api',
      section: '7',
      quote: [
        '402 | card_declined | Card declined. decline_code has the reason. No order created, nothing charged.',
        '402 | authentication_required | The bank wants extra approval. No order created.',
        '402 | payment_method_required | The account bills a card but none is saved with permission for automatic charges.',
        '402 | payment_failed | Payment could not be completed. No order created.',
      ],
    },
  },
  {
    id: 'PAY-10',
    level: 'MUST',
    title:
      'MUST charge nothing for an order answered 500 internal_error, and charge a retried order at most once',
    section: '7',
    needs: ['accounts', 'keys', 'payments', 'faults', 'charges'],
    source: {
      doc: 'api',
      section: '7',
      quote: '500 | internal_error | Fault on the service side. Nothing charged.',
    },
  },
]);
