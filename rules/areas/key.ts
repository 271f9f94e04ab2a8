import { areaRules } from '../schema.js';

/** API keys: their parts, roll, revoke and the active-key limit (API document sections 2, 3 and 5). */
export const rules = areaRules([
  {
    id: 'KEY-01',
    level: 'MUST',
    title: 'MUST refuse token requests with the old Secret Key at once after a roll',
    section: '3',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '3',
      quote: 'The old Secret Key and every token made with it stop working at once.',
    },
  },
  {
    id: 'KEY-02',
    level: 'MUST',
    title: 'MUST answer tokens made before a roll with 401 invalid_token at once',
    section: '3',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '3',
      quote: [
        'The old Secret Key and every token made with it stop working at once.',
        'Key revoked or rolled | | unknown (invalid_token)',
      ],
    },
  },
  {
    id: 'KEY-03',
    level: 'MUST',
    title: 'MUST issue working tokens for the new Secret Key after a roll',
    section: '3',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '3',
      quote: 'active | Roll (in the developer portal) | Test key | active, with a new Secret Key',
    },
  },
  {
    id: 'KEY-04',
    level: 'MUST',
    title:
      "MUST answer every token of a revoked key, test or live, with 401 invalid_token; the account's other keys work on",
    section: '3',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '3',
      quote:
        'Revoke (in the developer portal) | Any key | revoked (permanent) | All its tokens stop working. Requests with them get invalid_token.',
    },
  },
  {
    id: 'KEY-05',
    level: 'MUST',
    title: 'MUST refuse token requests of a revoked key, permanently',
    section: '3',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '3',
      quote: 'Revoke (in the developer portal) | Any key | revoked (permanent)',
    },
  },
  {
    id: 'KEY-06',
    level: 'MUST',
    title: 'MUST serve ten active keys of one account at once',
    section: '3',
    needs: ['accounts', 'keys'],
    source: { doc: 'api', section: '3', quote: 'Up to 10 keys may be active at once.' },
  },
  {
    id: 'KEY-07',
    level: 'MUST',
    title:
      'MUST shape the Access Key ID as <prefix>_<mode>_ak_<chars> and the Secret Key as <prefix>_<mode>_sk_<chars>',
    section: '2',
    source: {
      doc: 'api',
      section: '2',
      quote: [
        'Access Key ID | <prefix>_test_ak_<chars> or <prefix>_live_ak_<chars>',
        'Secret Key | <prefix>_test_sk_<chars> or <prefix>_live_sk_<chars>',
      ],
    },
  },
  {
    id: 'KEY-08',
    level: 'DIALECT',
    title: 'DIALECT shape key parts with the profile prefix (odp) and 24 or more base62 characters',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'key prefix | odp: odp_test_ak_…, odp_live_sk_…, tokens odp_at_…; <chars> are 24+ base62 characters',
    },
  },
  {
    id: 'KEY-09',
    level: 'DIALECT',
    title:
      'DIALECT refuse to roll a live key (control answers 409) and leave its secret and tokens working',
    section: 'C3',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'contract',
      section: '3',
      quote:
        'POST /keys/{access_key_id}/roll | | 200 {"secret_key"} (test keys only; live gets 409)',
    },
  },
  {
    id: 'KEY-10',
    level: 'DIALECT',
    title: 'DIALECT refuse an eleventh active key, and count only active keys toward the ten',
    section: 'C3',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'contract',
      section: '3',
      quote:
        'Keys, defaults: mode test, all four scopes, no allowlist. The usual 10-active-keys limit holds.',
    },
  },
  {
    id: 'KEY-11',
    level: 'MUST',
    title:
      'MUST never show a Secret Key again once created or rolled: no API answer (token, account, list, error) holds it',
    section: '2',
    source: {
      doc: 'api',
      section: '2',
      quote:
        'Secret Key | <prefix>_test_sk_<chars> or <prefix>_live_sk_<chars> | Secret. Shown once, when the key is created or rolled.',
    },
  },
  {
    id: 'KEY-12',
    level: 'MUST',
    title:
      'MUST never let eleven keys of an account work at once, and let a tenth work again once one is revoked',
    section: '3',
    needs: ['accounts', 'keys'],
    source: { doc: 'api', section: '3', quote: 'Up to 10 keys may be active at once.' },
  },
]);
