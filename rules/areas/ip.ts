import { areaRules } from '../schema.js';

/** IP allowlists set on a key (API document section 5, rule 9). */
export const rules = areaRules([
  {
    id: 'IP-01',
    level: 'MUST',
    title: 'MUST refuse a key used from outside its IP allowlist with 403 ip_not_allowed',
    section: '5',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '5',
      quote:
        'An IP allowlist can be set on a key by the operator. Calls from other addresses get 403 ip_not_allowed.',
    },
  },
  {
    id: 'IP-02',
    level: 'MUST',
    title: 'MUST serve a key used from inside its IP allowlist (a single address and a range)',
    section: '5',
    needs: ['accounts', 'keys', 'whoami'],
    source: {
      doc: 'api',
      section: '5',
      quote:
        'An IP allowlist can be set on a key by the operator. Calls from other addresses get 403 ip_not_allowed.',
    },
  },
  {
    id: 'IP-03',
    level: 'DIALECT',
    title: 'DIALECT refuse a caller outside the allowlist already at the token request',
    section: 'C2',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'Key-level refusals (ip_not_allowed, api_not_enabled, sandbox_not_enabled) may come at the token request or at the API call; the check is that no protected call succeeds and the code is right.',
    },
  },
  {
    id: 'IP-04',
    level: 'MUST',
    title:
      "MUST keep an IP allowlist to its own key: the account's other keys are served from anywhere",
    section: '5',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '5',
      quote:
        'An IP allowlist can be set on a key by the operator. Calls from other addresses get 403 ip_not_allowed.',
    },
  },
  {
    id: 'IP-05',
    level: 'MUST',
    title:
      "MUST refuse a caller just outside its key's allowlist: the next address, the next network (403 ip_not_allowed)",
    section: '5',
    needs: ['accounts', 'keys', 'whoami'],
    source: {
      doc: 'api',
      section: '5',
      quote:
        'An IP allowlist can be set on a key by the operator. Calls from other addresses get 403 ip_not_allowed.',
    },
  },
]);
