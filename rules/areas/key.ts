import type { RuleInput } from '../schema.js';

/** API keys: their parts, roll, revoke and the active-key limit (API document sections 2, 3 and 5). */
export const rules: RuleInput[] = [
  {
    id: 'KEY-01',
    level: 'MUST',
    title: 'MUST refuse token requests with the old Secret Key at once after a roll',
    section: '3',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'KEY-02',
    level: 'MUST',
    title: 'MUST answer tokens made before a roll with 401 invalid_token at once',
    section: '3',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'KEY-03',
    level: 'MUST',
    title: 'MUST issue working tokens for the new Secret Key after a roll',
    section: '3',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'KEY-04',
    level: 'MUST',
    title:
      "MUST answer every token of a revoked key, test or live, with 401 invalid_token; the account's other keys work on",
    section: '3',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'KEY-05',
    level: 'MUST',
    title: 'MUST refuse token requests of a revoked key, permanently',
    section: '3',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'KEY-06',
    level: 'MUST',
    title: 'MUST serve ten active keys of one account at once',
    section: '3',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'KEY-07',
    level: 'MUST',
    title:
      'MUST shape the Access Key ID as <prefix>_<mode>_ak_<chars> and the Secret Key as <prefix>_<mode>_sk_<chars>',
    section: '2',
  },
  {
    id: 'KEY-08',
    level: 'DIALECT',
    title: 'DIALECT shape key parts with the profile prefix (odp) and 24 or more base62 characters',
    section: 'C2',
  },
  {
    id: 'KEY-09',
    level: 'DIALECT',
    title:
      'DIALECT refuse to roll a live key (control answers 409) and leave its secret and tokens working',
    section: 'C3',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'KEY-10',
    level: 'DIALECT',
    title: 'DIALECT refuse an eleventh active key, and count only active keys toward the ten',
    section: 'C3',
    needs: ['accounts', 'keys'],
  },
];
