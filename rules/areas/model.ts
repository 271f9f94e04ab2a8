import { areaRules } from '../schema.js';

/** Model-based sequences over API document sections 3 and 4. */
export const rules = areaRules([
  {
    id: 'MODEL-01',
    level: 'MUST',
    title:
      'MUST agree with a model of orders, idempotency, the cancel window and the clock over random sequences',
    section: '4',
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
        'The existing order is fetched with GET /orders/by-external-id/{external_id}.',
      ],
    },
  },
]);
