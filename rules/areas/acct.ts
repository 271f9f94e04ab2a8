import { areaRules } from '../schema.js';

/** Account and mode states that refuse a key (API document sections 5 and 7). */
export const rules = areaRules([
  {
    id: 'ACCT-01',
    level: 'MUST',
    title:
      'MUST refuse a live key before live access is on with 403 api_not_enabled, and serve the test key',
    section: '5',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '5',
      quote: 'A live key used before live access is switched on gets 403 api_not_enabled.',
    },
  },
  {
    id: 'ACCT-02',
    level: 'MUST',
    title: "MUST serve a live key's reads once live access is switched on",
    section: '5',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '5',
      quote: 'A live key used before live access is switched on gets 403 api_not_enabled.',
    },
  },
  {
    id: 'ACCT-03',
    level: 'MUST',
    title:
      'MUST refuse a test key while test mode is off with 403 sandbox_not_enabled, and serve live keys',
    section: '5',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '5',
      quote: 'A test key used when test mode is off gets 403 sandbox_not_enabled.',
    },
  },
  {
    id: 'ACCT-04',
    level: 'MUST',
    title:
      'MUST refuse new orders of a suspended account with 403 partner_suspended, and place none',
    section: '5',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '5',
      quote:
        'A suspended partner account gets 403 partner_suspended on new orders. Reads keep working.',
    },
  },
  {
    id: 'ACCT-05',
    level: 'MUST',
    title: 'MUST keep serving reads of a suspended account (account, catalog, orders)',
    section: '5',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '5',
      quote:
        'A suspended partner account gets 403 partner_suspended on new orders. Reads keep working.',
    },
  },
  {
    id: 'ACCT-06',
    level: 'MUST',
    title:
      'MUST refuse orders of an incomplete account with 409 account_incomplete, and place none',
    section: '7',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '7',
      quote:
        '409 | account_incomplete | The partner account lacks something needed to place orders.',
    },
  },
  {
    id: 'ACCT-07',
    level: 'DIALECT',
    title: 'DIALECT refuse new quotes of a suspended account with 403 partner_suspended',
    section: 'C2',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'A suspended account refuses new orders (MUST); what else it refuses is DIALECT (the reference also refuses quotes).',
    },
  },
  {
    id: 'ACCT-08',
    level: 'DIALECT',
    title: 'DIALECT refuse api_not_enabled and sandbox_not_enabled already at the token request',
    section: 'C2',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'Key-level refusals (ip_not_allowed, api_not_enabled, sandbox_not_enabled) may come at the token request or at the API call; the check is that no protected call succeeds and the code is right.',
    },
  },
]);
