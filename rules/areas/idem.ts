import type { RuleInput } from '../schema.js';

/** Idempotency of POST /orders: API document section 4 ("POST /orders", "Idempotency for POST /orders"). */
export const rules: RuleInput[] = [
  {
    id: 'IDEM-01',
    level: 'MUST',
    title:
      'MUST refuse POST /orders without Idempotency-Key with 400 idempotency_key_required, placing nothing',
    section: '4',
  },
  {
    id: 'IDEM-02',
    level: 'MUST',
    title:
      'MUST accept an Idempotency-Key of any length from 1 to 255 characters and any visible characters',
    section: '4',
  },
  {
    id: 'IDEM-03',
    level: 'MUST',
    title:
      'MUST refuse an Idempotency-Key of 256 characters or more and place no order (generated keys)',
    section: '4',
  },
  {
    id: 'IDEM-04',
    level: 'DIALECT',
    title:
      'DIALECT answer an over-long Idempotency-Key with 400 idempotency_key_required naming the length',
    section: 'C2',
  },
  {
    id: 'IDEM-05',
    level: 'DIALECT',
    title: 'DIALECT treat an empty Idempotency-Key as missing: 400 idempotency_key_required',
    section: '4',
  },
  {
    id: 'IDEM-06',
    level: 'MUST',
    title: 'MUST answer the same request with the same key with 200 and Idempotent-Replayed: true',
    section: '4',
  },
  {
    id: 'IDEM-07',
    level: 'MUST',
    title: 'MUST answer a replay with the existing order (same id) and place no second order',
    section: '4',
  },
  {
    id: 'IDEM-08',
    level: 'MUST',
    title: 'MUST treat a body differing only in key order and white space as the same request',
    section: '4',
  },
  {
    id: 'IDEM-09',
    level: 'MUST',
    title:
      'MUST answer the same key with a different body with 409 idempotency_conflict, placing nothing',
    section: '4',
  },
  {
    id: 'IDEM-10',
    level: 'MUST',
    title:
      'MUST place exactly one order for identical requests racing with one key (others replay or 409)',
    section: '4',
  },
  {
    id: 'IDEM-11',
    level: 'MUST',
    title:
      'MUST replay the stored order (200, Idempotent-Replayed: true), not place a second, on a retry after a 500 after commit',
    section: '4',
    needs: ['accounts', 'keys', 'faults'],
  },
  {
    id: 'IDEM-12',
    level: 'MUST',
    title: 'MUST place exactly one order on a retry with the same key after a 500 before commit',
    section: '4',
    needs: ['accounts', 'keys', 'faults'],
  },
  {
    id: 'IDEM-13',
    level: 'MUST',
    title: 'MUST place the order sent again with a new key after a 402, once billing is fixed',
    section: '4',
    needs: ['accounts', 'keys', 'payments'],
  },
  {
    id: 'IDEM-14',
    level: 'DIALECT',
    title: 'DIALECT process the same Idempotency-Key afresh after a 402 payment error',
    section: 'C2',
    needs: ['accounts', 'keys', 'payments'],
  },
  {
    id: 'IDEM-15',
    level: 'MUST',
    title: "MUST treat another account's use of the same Idempotency-Key as a new request",
    section: '4',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'IDEM-16',
    level: 'MUST',
    title: 'MUST treat the same Idempotency-Key in the other mode as a new request',
    section: '4',
    needs: ['accounts', 'keys', 'live_orders'],
  },
  {
    id: 'IDEM-17',
    level: 'MUST',
    title: 'MUST keep idempotency records at least 24 hours: a replay 23 hours later still replays',
    section: '4',
    needs: ['accounts', 'keys', 'clock'],
  },
];
