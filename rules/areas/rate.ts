import type { RuleInput } from '../schema.js';

/**
 * Rate limits (API document sections 5, 7 and 8). Every check here needs keys
 * made for it: a burst on a shared partner key would starve the rest of the run.
 */
export const rules: RuleInput[] = [
  {
    id: 'RATE-01',
    level: 'MUST',
    title: 'MUST serve 300 reads a minute per key and refuse the 301st with 429 rate_limited',
    section: '8',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'RATE-02',
    level: 'MUST',
    title: 'MUST serve 60 writes a minute per key and refuse the 61st with 429 rate_limited',
    section: '8',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'RATE-03',
    level: 'MUST',
    title:
      'MUST serve 20 token requests a minute per key and refuse the 21st with 429 rate_limited',
    section: '5',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'RATE-04',
    level: 'MUST',
    title: 'MUST send Retry-After in seconds with every 429 rate_limited',
    section: '7',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'RATE-05',
    level: 'SHOULD',
    title: 'SHOULD give Retry-After as a whole number of seconds, at least 1 (RFC 9110 §10.2.3)',
    section: '8',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'RATE-06',
    level: 'MUST',
    title: 'MUST serve the call again once Retry-After seconds have passed on the account clock',
    section: '8',
    needs: ['accounts', 'keys', 'clock'],
  },
  {
    id: 'RATE-07',
    level: 'MUST',
    title:
      "MUST keep limits per key: one key's exhausted limit leaves another key of the account working",
    section: '8',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'RATE-08',
    level: 'MUST',
    title:
      'MUST count token requests apart from reads and writes: an exhausted token limit leaves calls working',
    section: '8',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'RATE-09',
    level: 'SHOULD',
    title:
      'SHOULD send RateLimit and RateLimit-Policy headers, when sent at all, as valid structured fields (RFC 9651)',
    section: '8',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'RATE-10',
    level: 'DIALECT',
    title:
      'DIALECT count in fixed 60-second windows: Retry-After is at most 60 and the call is still refused shortly before it',
    section: 'C2',
    needs: ['accounts', 'keys', 'clock'],
  },
];
