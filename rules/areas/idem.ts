import { areaRules } from '../schema.js';

/** Idempotency of POST /orders: API document section 4 ("POST /orders", "Idempotency for POST /orders"). */
export const rules = areaRules([
  {
    id: 'IDEM-01',
    level: 'MUST',
    title:
      'MUST refuse POST /orders without Idempotency-Key with 400 idempotency_key_required, placing nothing',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote:
        'Header Idempotency-Key is required, up to 255 characters. If it is missing, 400 idempotency_key_required.',
    },
  },
  {
    id: 'IDEM-02',
    level: 'MUST',
    title:
      'MUST accept an Idempotency-Key of any length from 1 to 255 characters and any visible characters',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Header Idempotency-Key is required, up to 255 characters.',
    },
  },
  {
    id: 'IDEM-03',
    level: 'MUST',
    title:
      'MUST refuse an Idempotency-Key of 256 characters or more and place no order (generated keys)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Header Idempotency-Key is required, up to 255 characters.',
    },
  },
  {
    id: 'IDEM-04',
    level: 'DIALECT',
    title:
      'DIALECT answer an over-long Idempotency-Key with 400 idempotency_key_required naming the length',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'Idempotency-Key over 255 characters | 400 idempotency_key_required, detail names the length',
    },
  },
  {
    id: 'IDEM-05',
    level: 'DIALECT',
    title: 'DIALECT treat an empty Idempotency-Key as missing: 400 idempotency_key_required',
    section: '4',
    source: { doc: 'api', section: '4', quote: 'If it is missing, 400 idempotency_key_required.' },
  },
  {
    id: 'IDEM-06',
    level: 'MUST',
    title: 'MUST answer the same request with the same key with 200 and Idempotent-Replayed: true',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote:
        'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
    },
  },
  {
    id: 'IDEM-07',
    level: 'MUST',
    title: 'MUST answer a replay with the existing order (same id) and place no second order',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote:
        'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
    },
  },
  {
    id: 'IDEM-08',
    level: 'MUST',
    title: 'MUST treat a body differing only in key order and white space as the same request',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
        'Bodies are JSON (Content-Type: application/json) except the token request.',
      ],
      reading:
        'The same request, for a replay, means the same method, path and JSON body up to key order and white space.',
    },
  },
  {
    id: 'IDEM-09',
    level: 'MUST',
    title:
      'MUST answer the same key with a different body with 409 idempotency_conflict, placing nothing',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'The same key with a different body gives 409 idempotency_conflict.',
    },
  },
  {
    id: 'IDEM-10',
    level: 'MUST',
    title:
      'MUST place exactly one order for identical requests racing with one key (others replay or 409)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'Each new order is sent with a unique Idempotency-Key.',
        'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
      ],
    },
  },
  {
    id: 'IDEM-11',
    level: 'MUST',
    title:
      'MUST replay the stored order (200, Idempotent-Replayed: true), not place a second, on a retry after a 500 after commit',
    section: '4',
    needs: ['accounts', 'keys', 'faults'],
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
        'After a 500 internal_error, the request is retried with the same key.',
      ],
    },
  },
  {
    id: 'IDEM-12',
    level: 'MUST',
    title: 'MUST place exactly one order on a retry with the same key after a 500 before commit',
    section: '4',
    needs: ['accounts', 'keys', 'faults'],
    source: {
      doc: 'api',
      section: '4',
      quote: 'After a 500 internal_error, the request is retried with the same key.',
    },
  },
  {
    id: 'IDEM-13',
    level: 'MUST',
    title: 'MUST place the order sent again with a new key after a 402, once billing is fixed',
    section: '4',
    needs: ['accounts', 'keys', 'payments'],
    source: {
      doc: 'api',
      section: '4',
      quote: 'After a 402 payment error no order exists. The order is sent again with a new key.',
    },
  },
  {
    id: 'IDEM-14',
    level: 'DIALECT',
    title: 'DIALECT process the same Idempotency-Key afresh after a 402 payment error',
    section: 'C2',
    needs: ['accounts', 'keys', 'payments'],
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'The same Idempotency-Key sent again after a 402: processed afresh in the reference (DIALECT); a new key is what the document prescribes.',
    },
  },
  {
    id: 'IDEM-15',
    level: 'MUST',
    title: "MUST treat another account's use of the same Idempotency-Key as a new request",
    section: '4',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
        'The same key with a different body gives 409 idempotency_conflict.',
      ],
      reading:
        'Idempotency-Keys are scoped to the account and mode: the same key sent by another account is a new request, never a replay or a conflict',
    },
  },
  {
    id: 'IDEM-16',
    level: 'MUST',
    title: 'MUST treat the same Idempotency-Key in the other mode as a new request',
    section: '4',
    needs: ['accounts', 'keys', 'live_orders'],
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
        'The same key with a different body gives 409 idempotency_conflict.',
      ],
      reading: 'Idempotency-Keys are scoped to the account and mode',
    },
  },
  {
    id: 'IDEM-17',
    level: 'MUST',
    title: 'MUST keep idempotency records at least 24 hours: a replay 23 hours later still replays',
    section: '4',
    needs: ['accounts', 'keys', 'clock'],
    source: {
      doc: 'api',
      section: '4',
      quote:
        'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
    },
  },
  {
    id: 'IDEM-18',
    level: 'MUST',
    title:
      "MUST never answer an account's order to another account that sends the same Idempotency-Key and body",
    section: '7',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '7',
      quote: '404 | not_found | No such object in the account, or it belongs to the other mode.',
    },
  },
  {
    id: 'IDEM-19',
    level: 'MUST',
    title:
      "MUST never answer one mode's order to a key of the other mode that sends the same Idempotency-Key and body",
    section: '1',
    needs: ['accounts', 'keys', 'live_orders'],
    source: {
      doc: 'api',
      section: '1',
      quote:
        'Objects belong to exactly one mode. Test keys see only test objects and live keys see only live objects.',
    },
  },
  {
    id: 'IDEM-20',
    level: 'MUST',
    title:
      'MUST replay a placed order even where a new one would now be refused (limits reached, suspended, read_only, probation spent)',
    section: '4',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '4',
      quote:
        'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
    },
  },
]);
