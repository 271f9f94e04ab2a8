import { areaRules } from '../schema.js';

/** Order cancellation: API document section 3 ("Order cancellation") and 7 (`not_cancellable`). */
export const rules = areaRules([
  {
    id: 'CANCEL-01',
    level: 'MUST',
    title:
      'MUST cancel an order inside the 24-hour window: a second cancel then gets 409 not_cancellable',
    section: '3',
    source: {
      doc: 'api',
      section: '3',
      quote:
        'POST /orders/{id}/cancel | Within the 24-hour window, production not started, order not already cancelled | Order is cancelled.',
    },
  },
  {
    id: 'CANCEL-02',
    level: 'MUST',
    title: 'MUST still cancel an order 23 hours 59 minutes after it was placed',
    section: '3',
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '3',
      quote:
        'POST /orders/{id}/cancel | Within the 24-hour window, production not started, order not already cancelled | Order is cancelled.',
    },
  },
  {
    id: 'CANCEL-03',
    level: 'MUST',
    title:
      'MUST refuse a cancel after the 24-hour window with 409 not_cancellable whose detail says the window',
    section: '3',
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '3',
      quote:
        'POST /orders/{id}/cancel | The 24-hour window has closed, or production has started, or the order is already cancelled | 409 not_cancellable. detail says which.',
    },
  },
  {
    id: 'CANCEL-04',
    level: 'MUST',
    title:
      'MUST refuse a cancel once production started with 409 not_cancellable whose detail says production',
    section: '3',
    needs: ['accounts', 'keys', 'production'],
    source: {
      doc: 'api',
      section: '3',
      quote:
        'POST /orders/{id}/cancel | The 24-hour window has closed, or production has started, or the order is already cancelled | 409 not_cancellable. detail says which.',
    },
  },
  {
    id: 'CANCEL-05',
    level: 'MUST',
    title:
      'MUST refuse a second cancel with 409 not_cancellable whose detail says already cancelled',
    section: '3',
    source: {
      doc: 'api',
      section: '3',
      quote:
        'POST /orders/{id}/cancel | The 24-hour window has closed, or production has started, or the order is already cancelled | 409 not_cancellable. detail says which.',
    },
  },
  {
    id: 'CANCEL-06',
    level: 'DIALECT',
    title:
      'DIALECT answer a cancel with 200 and the order in status cancelled, as later reads show it',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote: 'cancel | POST /orders/{id}/cancel with no body; 200 with the cancelled order',
    },
  },
  {
    id: 'CANCEL-07',
    level: 'MUST',
    title:
      'MUST refuse to cancel a shipped order with 409 not_cancellable whose detail says production started',
    section: '3',
    needs: ['accounts', 'keys', 'shipping'],
    source: {
      doc: 'api',
      section: '3',
      quote:
        'POST /orders/{id}/cancel | The 24-hour window has closed, or production has started, or the order is already cancelled | 409 not_cancellable. detail says which.',
    },
  },
]);
