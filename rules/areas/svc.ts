import { areaRules } from '../schema.js';

/** Service states: API document section 7 (`read_only`, `api_unavailable`). */
export const rules = areaRules([
  {
    id: 'SVC-01',
    level: 'MUST',
    title: 'MUST keep reads working while the service is read_only',
    section: '7',
    needs: ['accounts', 'keys', 'service_state'],
    source: {
      doc: 'api',
      section: '7',
      quote: '503 | read_only | Reads work. New orders and quotes are paused.',
    },
  },
  {
    id: 'SVC-02',
    level: 'MUST',
    title: 'MUST answer new orders with 503 read_only while read_only, placing nothing',
    section: '7',
    needs: ['accounts', 'keys', 'service_state'],
    source: {
      doc: 'api',
      section: '7',
      quote: '503 | read_only | Reads work. New orders and quotes are paused.',
    },
  },
  {
    id: 'SVC-03',
    level: 'MUST',
    title: 'MUST answer new quotes with 503 read_only while read_only',
    section: '7',
    needs: ['accounts', 'keys', 'service_state'],
    source: {
      doc: 'api',
      section: '7',
      quote: '503 | read_only | Reads work. New orders and quotes are paused.',
    },
  },
  {
    id: 'SVC-04',
    level: 'MUST',
    title: 'MUST keep token requests working while the service is read_only',
    section: '7',
    needs: ['accounts', 'keys', 'service_state'],
    source: {
      doc: 'api',
      section: '7',
      quote: '503 | read_only | Reads work. New orders and quotes are paused.',
    },
  },
  {
    id: 'SVC-05',
    level: 'DIALECT',
    title:
      'DIALECT answer other writes (cancel, webhook endpoints) with 503 read_only while read_only',
    section: 'C2',
    needs: ['accounts', 'keys', 'service_state'],
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'read_only: reads work, new orders and quotes get 503 (MUST); other writes also get 503 in the reference (DIALECT); token requests still work.',
    },
  },
  {
    id: 'SVC-06',
    level: 'MUST',
    title:
      'MUST answer reads and writes with 503 api_unavailable while the API is switched off, placing nothing',
    section: '7',
    needs: ['accounts', 'keys', 'service_state'],
    source: {
      doc: 'api',
      section: '7',
      quote: '503 | api_unavailable | API switched off for maintenance. Nothing charged.',
    },
  },
  {
    id: 'SVC-07',
    level: 'MUST',
    title:
      'MUST charge nothing for an order refused with 503 api_unavailable or read_only, seen in the control listing of charges',
    section: '7',
    needs: ['accounts', 'keys', 'service_state', 'payments', 'charges'],
    source: {
      doc: 'api',
      section: '7',
      quote: [
        '503 | api_unavailable | API switched off for maintenance. Nothing charged.',
        '503 | read_only | Reads work. New orders and quotes are paused.',
      ],
    },
  },
]);
