import { areaRules } from '../schema.js';

/** The token endpoint, `POST /oauth/token` (API document sections 2, 4 and 5; RFC 6749). */
export const rules = areaRules([
  {
    id: 'TOKEN-01',
    level: 'MUST',
    title:
      'MUST issue an access token for valid Basic credentials and a form body with grant_type=client_credentials',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'Header Authorization: Basic <base64(AccessKeyID:SecretKey)>.',
        'Form field grant_type is required, value client_credentials.',
        'Response: the access token object of section 2.',
      ],
    },
  },
  {
    id: 'TOKEN-02',
    level: 'MUST',
    title:
      'MUST answer with the token object: access_token string, token_type string, expires_in integer, scope string',
    section: '2',
    source: {
      doc: 'api',
      section: '2',
      quote: [
        'access_token | string',
        'token_type | string',
        'expires_in | integer',
        'scope | string | Space-separated granted scopes',
      ],
    },
  },
  {
    id: 'TOKEN-03',
    level: 'MUST',
    title: 'MUST set token_type to Bearer',
    section: '2',
    source: { doc: 'api', section: '2', quote: 'token_type | string | Bearer' },
  },
  {
    id: 'TOKEN-04',
    level: 'MUST',
    title: 'MUST set expires_in to 3600 seconds',
    section: '2',
    source: { doc: 'api', section: '2', quote: 'expires_in | integer | Seconds. 3600' },
  },
  {
    id: 'TOKEN-05',
    level: 'MUST',
    title: "MUST shape access_token as <prefix>_at_<chars>, with the prefix of the service's keys",
    section: '2',
    source: {
      doc: 'api',
      section: '2',
      quote: [
        'access_token | string | Shape <prefix>_at_<chars>',
        '<prefix> is a fixed constant prefix of the service.',
      ],
    },
  },
  {
    id: 'TOKEN-06',
    level: 'MUST',
    title:
      "MUST grant all of the key's scopes, space-separated in scope, when the request asks for none",
    section: '5',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '5',
      quote: "A token carries the key's scopes, or the subset asked for with scope.",
    },
  },
  {
    id: 'TOKEN-07',
    level: 'MUST',
    title:
      'MUST grant exactly the subset of scopes asked for, space-separated in scope (generated subsets)',
    section: '5',
    source: {
      doc: 'api',
      section: '5',
      quote: "A token carries the key's scopes, or the subset asked for with scope.",
    },
  },
  {
    id: 'TOKEN-08',
    level: 'MUST',
    title: 'MUST refuse a scope request beyond the scopes of the key, and issue no token',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote:
        'Form field scope is optional: a space-separated list that asks for fewer scopes than the key has.',
    },
  },
  {
    id: 'TOKEN-09',
    level: 'MUST',
    title:
      'MUST refuse a token request without grant_type or with a grant_type other than client_credentials',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Form field grant_type is required, value client_credentials.',
    },
  },
  {
    id: 'TOKEN-10',
    level: 'MUST',
    title:
      'MUST refuse a token request without valid Basic credentials (none, unknown key, wrong secret)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Header Authorization: Basic <base64(AccessKeyID:SecretKey)>.',
    },
  },
  {
    id: 'TOKEN-11',
    level: 'MUST',
    title: 'MUST refuse a Secret Key in the body of a token request, and issue no token',
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
    id: 'TOKEN-12',
    level: 'SHOULD',
    title: 'SHOULD answer a successful token request with 200 and application/json (RFC 6749 §5.1)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Response: the access token object of section 2.',
      rfc: 'RFC 6749 §5.1',
    },
  },
  {
    id: 'TOKEN-13',
    level: 'SHOULD',
    title: 'SHOULD send Cache-Control: no-store with every token (RFC 6749 §5.1)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Response: the access token object of section 2.',
      rfc: 'RFC 6749 §5.1',
    },
  },
  {
    id: 'TOKEN-14',
    level: 'SHOULD',
    title: 'SHOULD send Pragma: no-cache with every token (RFC 6749 §5.1)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Response: the access token object of section 2.',
      rfc: 'RFC 6749 §5.1',
    },
  },
  {
    id: 'TOKEN-15',
    level: 'SHOULD',
    title: 'SHOULD NOT issue a refresh_token for the client credentials grant (RFC 6749 §4.4.3)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Response: the access token object of section 2.',
      rfc: 'RFC 6749 §4.4.3',
    },
  },
  {
    id: 'TOKEN-16',
    level: 'SHOULD',
    title:
      'SHOULD form-decode the Basic user and password after base64, split at the first colon (RFC 6749 §2.3.1)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Header Authorization: Basic <base64(AccessKeyID:SecretKey)>.',
      rfc: 'RFC 6749 §2.3.1',
    },
  },
  {
    id: 'TOKEN-17',
    level: 'SHOULD',
    title:
      'SHOULD name the RFC 6749 §5.2 error (invalid_client, invalid_request, unsupported_grant_type, invalid_scope) in token refusals',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: [
        'Header Authorization: Basic <base64(AccessKeyID:SecretKey)>.',
        'Form field grant_type is required, value client_credentials.',
      ],
      rfc: 'RFC 6749 §5.2',
    },
  },
  {
    id: 'TOKEN-18',
    level: 'SHOULD',
    title: 'SHOULD accept the form media type with a charset parameter (RFC 9110 §8.3.1)',
    section: '4',
    source: {
      doc: 'api',
      section: '4',
      quote: 'Header Content-Type: application/x-www-form-urlencoded.',
      rfc: 'RFC 9110 §8.3.1',
    },
  },
  {
    id: 'TOKEN-19',
    level: 'DIALECT',
    title: 'DIALECT answer bad Basic credentials with 401 unauthorized and WWW-Authenticate: Basic',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'bad Basic credentials, bad grant_type | 401 unauthorized with WWW-Authenticate: Basic',
    },
  },
  {
    id: 'TOKEN-20',
    level: 'DIALECT',
    title: 'DIALECT answer a missing or unsupported grant_type with 422 validation_failed',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'bad Basic credentials, bad grant_type | 401 unauthorized with WWW-Authenticate: Basic / 422 validation_failed (the error table pairs that code with 422)',
    },
  },
  {
    id: 'TOKEN-21',
    level: 'DIALECT',
    key: 'lacking_a_scope',
    title:
      'DIALECT answer a scope request beyond the scopes of the key with 403 insufficient_scope',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote: 'scope asking for more than the key has | 403 insufficient_scope',
    },
  },
  {
    id: 'TOKEN-22',
    level: 'DIALECT',
    title: 'DIALECT shape tokens as <profile prefix, odp>_at_ and 24 or more base62 characters',
    section: 'C2',
    source: {
      doc: 'contract',
      section: '2',
      quote:
        'key prefix | odp: odp_test_ak_…, odp_live_sk_…, tokens odp_at_…; <chars> are 24+ base62 characters',
    },
  },
  {
    id: 'TOKEN-23',
    level: 'MUST',
    title:
      "MUST refuse a token request that pairs one key's Access Key ID with another key's Secret Key, and issue no token",
    section: '2',
    needs: ['accounts', 'keys'],
    source: {
      doc: 'api',
      section: '2',
      quote:
        'Access Key ID | <prefix>_test_ak_<chars> or <prefix>_live_ak_<chars> | Safe to log. Identifies the key.',
    },
  },
]);
