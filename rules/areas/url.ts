import type { RuleInput } from '../schema.js';

/** Credentials where they do not belong: URLs and bodies (API document sections 5 and 7). */
export const rules: RuleInput[] = [
  {
    id: 'URL-01',
    level: 'MUST',
    title: 'MUST refuse an access token in the query string with 400 credentials_in_url',
    section: '5',
  },
  {
    id: 'URL-02',
    level: 'MUST',
    title:
      'MUST refuse a Secret Key in the query string with 400 credentials_in_url, at the token endpoint and API calls',
    section: '5',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'URL-03',
    level: 'MUST',
    title: 'MUST refuse a Secret Key in the body of an API request, and place no order',
    section: '5',
    needs: ['accounts', 'keys'],
  },
  {
    id: 'URL-04',
    level: 'SHOULD',
    title: 'SHOULD NOT echo a refused credential back in the error answer',
    section: '7',
  },
  {
    id: 'URL-05',
    level: 'DIALECT',
    title: 'DIALECT refuse an Access Key ID alone in the query string with 400 credentials_in_url',
    section: 'C2',
  },
  {
    id: 'URL-06',
    level: 'DIALECT',
    title: 'DIALECT answer a Secret Key in a request body with 422 validation_failed',
    section: 'C2',
    needs: ['accounts', 'keys'],
  },
];
