// A partner's client, written from docs/partners.md alone. Its bug: on a 429 it
// waits a fixed 100 ms instead of the answer's Retry-After.
const base = `${process.env.TARGET_BASE_URL}/api/on-demand/v1`;
const basic = Buffer.from(
  `${process.env.PARTNER_ACCESS_KEY_ID}:${process.env.PARTNER_SECRET_KEY}`,
).toString('base64');
let token;

async function send(method, path, init) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const res = await fetch(`${base}${path}`, { method, ...init() });
    if (res.status !== 429) return res;
    await new Promise((resolve) => setTimeout(resolve, 100)); // "a short pause is enough"
  }
  throw new Error(`${method} ${path}: still 429`);
}

async function getToken() {
  const res = await send('POST', '/oauth/token', () => ({
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  }));
  token = (await res.json()).access_token;
}

async function api(method, path, body, key) {
  const res = await send(method, path, () => ({
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }));
  return { status: res.status, body: await res.json() };
}

await getToken();
const catalog = await api('GET', '/catalog/products?limit=100');
const product = catalog.body.data.find((p) => !p.ships_by_freight);
const order = {
  external_id: `shop-${Date.now()}`,
  items: [{ sku: product.sku, quantity: product.min_quantity }],
  shipping_address: {
    name: 'Jo Buyer',
    line1: '5 Elm St',
    city: 'Austin',
    state: 'TX',
    postal_code: '78701',
    country: 'US',
  },
};
const placed = await api('POST', '/orders', order, crypto.randomUUID());
console.log('order', placed.status, placed.body.id);
