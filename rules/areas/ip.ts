import type { RuleInput } from '../schema.js';

/** IP allowlists set on a key (API document section 5, rule 9). */
export const rules: RuleInput[] = [
  {
    id: 'IP-01',
    level: 'MUST',
    title: 'MUST refuse a key used from outside its IP allowlist with 403 ip_not_allowed',
    section: '5',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'IP-02',
    level: 'MUST',
    title: 'MUST serve a key used from inside its IP allowlist (a single address and a range)',
    section: '5',
    needs: ['accounts', 'keys', 'whoami'],
  },
  {
    id: 'IP-03',
    level: 'DIALECT',
    title: 'DIALECT refuse a caller outside the allowlist already at the token request',
    section: 'C2',
    needs: ['accounts', 'keys'],
  },
];
