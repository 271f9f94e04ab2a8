import fc from 'fast-check';
import type { Method } from './harness.js';

/** The credentials one fuzz run holds, and ids that make paths reach real resources. */
export interface FuzzWorld {
  accessToken: string;
  accessKeyId: string;
  secretKey: string;
  controlToken: string;
  accountId: string;
  orderId: string;
}

/** One request an attacker (or a confused client) might send, and the secrets it carries where. */
export interface HostileRequest {
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload: string | undefined;
  /** Secrets in the URL or the headers: no answer may hold them, in any encoding. */
  carried: string[];
  /** Whether the body holds a credential (as sent, escaped or base64): never accepted. */
  credentialInBody: boolean;
}

const API_PATHS = [
  '/oauth/token',
  '/account',
  '/catalog/products',
  '/catalog/products/{x}',
  '/quotes',
  '/quotes/{x}',
  '/orders',
  '/orders/{order}',
  '/orders/{x}',
  '/orders/by-external-id/{x}',
  '/orders/{order}/cancel',
  '/orders/{x}/cancel',
  '/orders/{order}/shipments',
  '/orders/{order}/invoice',
  '/webhook-endpoints',
  '/webhook-endpoints/{x}',
  '/events',
  '/events/{x}',
  '/{x}',
  '/{x}/{x}',
].map((path) => `/api/on-demand/v1${path}`);

const CONTROL_PATHS = [
  '/capabilities',
  '/whoami',
  '/accounts',
  '/accounts/{account}',
  '/accounts/{x}',
  '/accounts/{account}/clock',
  '/accounts/{account}/faults',
  '/accounts/{account}/keys',
  '/accounts/{account}/orders/{order}/ship',
  '/accounts/{account}/orders/{x}/start-production',
  '/keys/{x}/roll',
  '/keys/{x}/revoke',
  '/keys/{akid}/end-probation',
  '/{x}',
].flatMap((path) => [`/__control${path}`, `/__controlx${path}`, `/__control_${path}`]);

/** A secret as it might be smuggled: as is, percent-encoded (whole or only its `_`), base64. */
function disguises(secret: string): fc.Arbitrary<string> {
  return fc.constantFrom(
    secret,
    encodeURIComponent(secret),
    secret.replaceAll('_', '%5F'),
    secret.replaceAll('_', '%5f'),
    [...secret].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
    `prefix-${secret}-suffix`,
  );
}

const junk = fc.string({ maxLength: 30 }).map(encodeURIComponent);

/** What fills a `{…}` slot of a path, and the secret it carries if any. */
function slot(
  world: FuzzWorld,
  secrets: string[],
): fc.Arbitrary<{ text: string; secret?: string }> {
  return fc.oneof(
    { weight: 2, arbitrary: junk.map((text) => ({ text })) },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(...secrets)
        .chain((secret) => disguises(secret).map((text) => ({ text, secret }))),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        { text: 'MUG-WHT-11OZ' },
        { text: world.orderId },
        { text: world.accountId },
        { text: world.accessKeyId },
        { text: '%zz' },
        { text: '..' },
      ),
    },
  );
}

const BODY_SHAPES = ['json', 'json-escaped', 'form', 'form-escaped', 'text', 'order'] as const;

/**
 * Requests over every endpoint and the control API: methods, paths with
 * credentials smuggled into their segments and queries, every kind of
 * Authorization, control tokens right and wrong, and bodies with or without
 * a credential (a Secret Key, an access token, the control token, Basic
 * credentials), as is, `\u005f`-escaped or `%5F`-escaped.
 */
export function hostileRequest(world: FuzzWorld): fc.Arbitrary<HostileRequest> {
  const secrets = [world.accessToken, world.secretKey, world.controlToken];
  const basic = `Basic ${Buffer.from(`${world.accessKeyId}:${world.secretKey}`).toString('base64')}`;
  const slots = fc.array(slot(world, secrets), { minLength: 4, maxLength: 4 });
  const template = fc.constantFrom(...API_PATHS, ...CONTROL_PATHS);
  const query = fc.option(
    fc.oneof(
      fc
        .constantFrom('limit=5', 'status=open', 'a=b&a=c')
        .map((text): { text: string; secret?: string } => ({ text })),
      fc
        .tuple(fc.constantFrom('access_token', 'token', 'q', 'x'), fc.constantFrom(...secrets))
        .chain(([name, secret]) =>
          disguises(secret).map((v) => ({ text: `${name}=${v}`, secret: secret as string })),
        ),
    ),
    { nil: undefined, freq: 2 },
  );
  const authorization = fc.constantFrom<[string | undefined, string | undefined]>(
    [`Bearer ${world.accessToken}`, world.accessToken],
    [`Bearer ${world.accessToken}`, world.accessToken],
    [`Bearer ${world.accessToken}`, world.accessToken],
    [basic, basic.slice('Basic '.length)],
    [`Bearer ${world.secretKey}`, world.secretKey],
    [`Bearer odp_at_${'Z'.repeat(40)}`, undefined],
    ['Basic !!!', undefined],
    [undefined, undefined],
  );
  const controlHeader = fc.constantFrom<[string | undefined, boolean]>(
    [world.controlToken, true],
    [world.controlToken, true],
    ['wrong-control-token', false],
    [undefined, false],
  );
  // What a body smuggles: nothing (half the time), a Secret Key, an access token, the control
  // token, or Basic credentials (base64 of `id:secret`).
  const bodySecret = fc.oneof(
    { weight: 4, arbitrary: fc.constant<string | undefined>(undefined) },
    {
      weight: 4,
      arbitrary: fc.constantFrom<string | undefined>(
        world.secretKey,
        world.accessToken,
        world.controlToken,
        basic.slice('Basic '.length),
      ),
    },
  );
  const body = fc.tuple(fc.constantFrom(...BODY_SHAPES), bodySecret, fc.string({ maxLength: 40 }));
  return fc
    .record({
      method: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom<Method>('GET', 'POST') },
        {
          weight: 1,
          arbitrary: fc.constantFrom<Method>('PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'),
        },
      ),
      template,
      slots,
      query,
      authorization,
      controlHeader,
      body,
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        undefined,
      ),
      idempotencyKey: fc.option(fc.uuid(), { nil: undefined }),
    })
    .map((r) => {
      const carried: string[] = [];
      let used = 0;
      const path = r.template
        .replaceAll('{order}', world.orderId)
        .replaceAll('{account}', world.accountId)
        .replaceAll('{akid}', world.accessKeyId)
        .replaceAll('{x}', () => {
          const filled = r.slots[used++ % r.slots.length] ?? { text: 'x' };
          if (filled.secret !== undefined) carried.push(filled.secret);
          return filled.text;
        });
      if (r.query?.secret !== undefined) carried.push(r.query.secret);
      const headers: Record<string, string> = {};
      const [auth, authSecret] = r.authorization;
      if (auth !== undefined) headers.authorization = auth;
      if (authSecret !== undefined) carried.push(authSecret);
      const [control, isToken] = r.controlHeader;
      if (control !== undefined) headers['x-control-token'] = control;
      if (isToken) carried.push(world.controlToken);
      if (r.contentType !== undefined) headers['content-type'] = r.contentType;
      if (r.idempotencyKey !== undefined) headers['idempotency-key'] = r.idempotencyKey;
      const [shape, bodySecret, filler] = r.body;
      const payload = bodyOf(shape, bodySecret ?? filler);
      const credentialInBody = bodySecret !== undefined && payload !== undefined;
      if (credentialInBody) carried.push(bodySecret);
      return {
        method: r.method,
        url: r.query === undefined ? path : `${path}?${r.query.text}`,
        headers,
        payload,
        carried: [...new Set(carried)],
        credentialInBody,
      };
    });
}

function bodyOf(shape: (typeof BODY_SHAPES)[number], value: string): string | undefined {
  switch (shape) {
    case 'json':
      return JSON.stringify({ note: value });
    case 'json-escaped':
      return JSON.stringify({ note: value }).replaceAll('_', '\\u005f');
    case 'form':
      return `grant_type=client_credentials&note=${value}`;
    case 'form-escaped':
      return `grant_type=client_credentials&note=${value.replaceAll('_', '%5F')}`;
    case 'text':
      return value === '' ? undefined : value;
    case 'order':
      return JSON.stringify({
        external_id: `fuzz-${value.length}`,
        items: [{ sku: 'MUG-WHT-11OZ', quantity: 1 }],
        shipping_address: {
          name: 'Fuzz',
          line1: value,
          city: 'Springfield',
          state: 'IL',
          postal_code: '62701',
          country: 'US',
        },
      });
  }
}
