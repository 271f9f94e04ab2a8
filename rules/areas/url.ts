import { areaRules } from '../schema.js';

/** Credentials where they do not belong: URLs and bodies (API document sections 5 and 7). */
export const rules = areaRules([
  {
    id: 'URL-01',
    level: 'MUST',
    title: 'MUST refuse an access token in the query string with 400 credentials_in_url',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote:
        'Credentials in a URL (query string) are refused with 400 credentials_in_url. The key should then be rolled.',
    },
  },
  {
    id: 'URL-02',
    level: 'MUST',
    title:
      'MUST refuse a Secret Key in the query string with 400 credentials_in_url, at the token endpoint and API calls',
    section: '5',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '5',
      quote:
        'Credentials in a URL (query string) are refused with 400 credentials_in_url. The key should then be rolled.',
    },
  },
  {
    id: 'URL-03',
    level: 'MUST',
    title: 'MUST refuse a Secret Key in the body of an API request, and place no order',
    section: '5',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '5',
      quote:
        'The Secret Key is sent only in the Basic header of the token request. A Secret Key in the request body is refused.',
    },
  },
  {
    id: 'URL-04',
    level: 'SHOULD',
    title: 'SHOULD NOT echo a refused credential back in the error answer',
    section: '7',
    source: {
      doc: 'api',
      section: '7',
      quote:
        '400 | credentials_in_url | A token, key or secret is in the URL. | Send credentials in the Authorization header. Roll the key.',
    },
  },
  {
    id: 'URL-05',
    level: 'DIALECT',
    title: 'DIALECT refuse an Access Key ID alone in the query string with 400 credentials_in_url',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'A Secret Key or an access token in a URL must be refused (MUST); an Access Key ID alone in a URL is DIALECT (the reference refuses it).',
    },
  },
  {
    id: 'URL-06',
    level: 'DIALECT',
    title: 'DIALECT answer a Secret Key in a request body with 422 validation_failed',
    section: 'C2',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'Secret Key in a request body | refused (MUST); the reference answers 422 validation_failed whose detail says the secret travels only in the Basic header, and issues no token, places no order',
    },
  },
  {
    id: 'URL-07',
    level: 'MUST',
    title:
      "MUST refuse a body holding anything shaped like a Secret Key, not only the sender's own (orders, quotes, endpoints, tokens)",
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote:
        'The Secret Key is sent only in the Basic header of the token request. A Secret Key in the request body is refused.',
      reading: 'A body holding anything shaped like a Secret Key is refused.',
    },
  },
]);
