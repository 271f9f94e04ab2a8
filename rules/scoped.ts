/**
 * The statements of the API document that name a scope or a condition (per
 * account, per mode, per key, a kind of key, an account's state), each with
 * the check of what it forbids and the check of what it leaves allowed: a
 * server that applies the rule too widely must fail as surely as one that
 * applies it too narrowly (issue 12). `tooWide` names the fault-matrix
 * defect that applies the rule beyond its scope (test/faults/expectations.ts
 * maps it to a rule of `allows`); a test keeps every id and name real.
 */
export interface ScopedStatement {
  /** Section of the API document. */
  section: string;
  statement: string;
  scope: string;
  forbids: string[];
  allows: string[];
  tooWide: string[];
}

export const SCOPED_STATEMENTS: readonly ScopedStatement[] = [
  {
    section: '1, 7',
    statement: 'Test keys see only test objects; live keys only live objects (404 not_found)',
    scope: 'per mode',
    forbids: ['MODE-01', 'MODE-02'],
    allows: ['ORDER-20'],
    tooWide: [],
  },
  {
    section: '7',
    statement: 'not_found: no such object in the account',
    scope: 'per account',
    forbids: ['MODE-03'],
    allows: ['ORDER-20'],
    tooWide: [],
  },
  {
    section: '2, 4',
    statement: '`external_id` unique per account: a second one gives 409 duplicate_external_id',
    scope: 'per account',
    forbids: ['ORDER-19'],
    allows: ['ORDER-19'],
    tooWide: ['external-id-unique-across-accounts'],
  },
  {
    section: '4',
    statement: 'The same Idempotency-Key replays or conflicts',
    scope: 'per account and mode',
    forbids: ['IDEM-06', 'IDEM-09'],
    allows: ['IDEM-15', 'IDEM-16'],
    tooWide: ['idem-keys-across-accounts', 'idem-keys-across-modes'],
  },
  {
    section: '4, 8',
    statement: 'Idempotency-Key up to 255 characters',
    scope: 'a length',
    forbids: ['IDEM-03'],
    allows: ['IDEM-02'],
    tooWide: ['idem-key-max-200'],
  },
  {
    section: '4',
    statement:
      'After a 500 the request is retried with the same key; an order already placed is replayed',
    scope: 'an order already placed',
    forbids: ['IDEM-11'],
    allows: ['IDEM-12'],
    tooWide: ['idem-before-commit-burns-key'],
  },
  {
    section: '5.2',
    statement: 'A token lasts 3600 seconds, then 401 token_expired',
    scope: 'a token older than 3600 s',
    forbids: ['AUTH-06'],
    allows: ['AUTH-05'],
    tooWide: ['token-expires-at-3500s'],
  },
  {
    section: '5.4, 5.6',
    statement:
      'A Secret Key only in the Basic header of the token request; credentials in a URL refused',
    scope: 'where a credential travels',
    forbids: ['TOKEN-11', 'URL-01', 'URL-02', 'URL-03'],
    allows: ['TOKEN-01'],
    tooWide: [],
  },
  {
    section: '5.7',
    statement: "A token carries the key's scopes, or the subset asked for",
    scope: "the key's scopes",
    forbids: ['TOKEN-08'],
    allows: ['TOKEN-06', 'TOKEN-07'],
    tooWide: [],
  },
  {
    section: '5.8, 4',
    statement: 'A call needing a scope the token lacks gets 403 insufficient_scope',
    scope: 'per endpoint and scope',
    forbids: ['SCOPE-02'],
    allows: ['SCOPE-01', 'SCOPE-03'],
    tooWide: ['account-needs-orders-read'],
  },
  {
    section: '5.9',
    statement: 'Calls from addresses outside a key’s IP allowlist get 403 ip_not_allowed',
    scope: 'per key, per address',
    forbids: ['IP-01'],
    allows: ['IP-02'],
    tooWide: ['ip-allowlist-ranges-ignored'],
  },
  {
    section: '5.10',
    statement: 'A live key used before live access is on gets 403 api_not_enabled',
    scope: 'live keys, until live access is on',
    forbids: ['ACCT-01'],
    allows: ['ACCT-01', 'ACCT-02'],
    tooWide: ['live-access-off-refuses-test-keys', 'live-refusal-remembered'],
  },
  {
    section: '5.10',
    statement: 'A test key used when test mode is off gets 403 sandbox_not_enabled',
    scope: 'test keys, while test mode is off',
    forbids: ['ACCT-03'],
    allows: ['ACCT-03'],
    tooWide: ['sandbox-off-refuses-live-keys'],
  },
  {
    section: '5.11',
    statement: 'A suspended account gets 403 partner_suspended on new orders; reads keep working',
    scope: 'new orders of a suspended account',
    forbids: ['ACCT-04'],
    allows: ['ACCT-05'],
    tooWide: ['suspended-blocks-reads'],
  },
  {
    section: '3',
    statement: 'A revoked key: all its tokens stop working',
    scope: 'per key',
    forbids: ['KEY-04', 'KEY-05'],
    allows: ['KEY-04'],
    tooWide: ['revoke-revokes-account-keys'],
  },
  {
    section: '3',
    statement: 'A rolled key: the old Secret Key and its tokens stop working',
    scope: 'the old secret',
    forbids: ['KEY-01', 'KEY-02'],
    allows: ['KEY-03'],
    tooWide: [],
  },
  {
    section: '3, 8',
    statement: 'An order is cancellable for 24 hours',
    scope: 'the first 24 hours',
    forbids: ['CANCEL-03'],
    allows: ['CANCEL-01', 'CANCEL-02'],
    tooWide: ['cancel-window-23h'],
  },
  {
    section: '8',
    statement: 'Reads 300, writes 60, token requests 20 a minute',
    scope: 'per key, per class',
    forbids: ['RATE-01', 'RATE-02', 'RATE-03'],
    allows: ['RATE-07', 'RATE-08'],
    tooWide: ['rate-limit-per-account', 'token-refusal-blocks-calls'],
  },
  {
    section: '4, 8',
    statement: "An order over the account's maximum order value gets 422 validation_failed",
    scope: "over the account's own maximum",
    forbids: ['ORDER-10'],
    allows: ['ORDER-11'],
    tooWide: ['order-max-value-exclusive'],
  },
  {
    section: '4, 8',
    statement: "Orders beyond the account's maximum orders per day get 422 validation_failed",
    scope: 'per account (and mode)',
    forbids: ['ORDER-12'],
    allows: ['ORDER-14'],
    tooWide: ['orders-per-day-across-modes'],
  },
  {
    section: '6, 8',
    statement: 'At most 5 webhook endpoints; a sixth gives 422 limit_exceeded',
    scope: 'per mode, active endpoints',
    forbids: ['HOOK-01'],
    allows: ['HOOK-02', 'HOOK-03'],
    tooWide: ['webhook-limit-across-modes', 'deleted-endpoints-counted'],
  },
  {
    section: '8',
    statement: 'A new live key: first 24 hours at most 3 orders or $500.00',
    scope: 'per new live key, first 24 hours',
    forbids: ['PROB-01', 'PROB-02'],
    allows: ['PROB-03', 'PROB-06', 'PROB-07'],
    tooWide: ['probation-never-lifted', 'probation-per-account', 'probation-on-test-keys'],
  },
  {
    section: '7',
    statement: 'read_only: new orders and quotes paused; reads work',
    scope: 'new orders and quotes',
    forbids: ['SVC-02', 'SVC-03'],
    allows: ['SVC-01', 'SVC-04'],
    tooWide: ['read-only-blocks-reads', 'read-only-blocks-tokens'],
  },
  {
    section: '2, 7',
    statement: '`decline_code` on card_declined',
    scope: 'card_declined only',
    forbids: ['PAY-05'],
    allows: ['PAY-01'],
    tooWide: [],
  },
];

/** The table of docs/rules.md. */
export function scopedStatementsMarkdown(): string[] {
  const lines = [
    '## Scoped statements: both sides',
    '',
    'Each statement of the API document that names a scope or a condition, the check of what it forbids and the',
    'check of what it leaves allowed (a server applying the rule too widely fails the latter), and the defects of',
    'the fault matrix that apply it too widely (each caught by a check of the "allows" column).',
    '',
    '| section | statement | scope | forbids | allows | too wide (defects) |',
    '|---|---|---|---|---|---|',
  ];
  for (const s of SCOPED_STATEMENTS) {
    const cell = (text: string) => text.replace(/\|/g, '\\|');
    lines.push(
      `| ${s.section} | ${cell(s.statement)} | ${cell(s.scope)} | ${s.forbids.join(', ')} | ${s.allows.join(', ')} | ${s.tooWide.map((d) => `\`${d}\``).join(', ') || '—'} |`,
    );
  }
  lines.push('');
  return lines;
}
