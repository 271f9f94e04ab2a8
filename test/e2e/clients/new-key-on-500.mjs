// A partner's client, written from docs/partners.md alone. Its bug: when an order
// fails with a 5xx it places the order again from scratch, with a new
// Idempotency-Key.
const base = `${process.env.TARGET_BASE_URL}/api/on-demand/v1`;
const basic = Buffer.from(
  `${process.env.PARTNER_ACCESS_KEY_ID}:${process.env.PARTNER_SECRET_KEY}`,
).toString('base64');

const tokenRes = await fetch(`${base}/oauth/token`, {
  method: 'POST',
  headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials',
});
const { access_token: token } = await tokenRes.json();
const headers = { authorization: `Bearer ${token}` };

const catalog = await (await fetch(`${base}/catalog/products?limit=100`, { headers })).json();
const product = catalog.data.find((p) => !p.ships_by_freight);

async function placeOrder(order) {
  const res = await fetch(`${base}/orders`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify(order),
  });
  const body = await res.json();
  if (res.status >= 500) return placeOrder(order); // try again
  if (body.code === 'duplicate_external_id') {
    const existing = await fetch(
      `${base}/orders/by-external-id/${encodeURIComponent(order.external_id)}`,
      { headers },
    );
    return existing.json();
  }
  return body;
}

for (let i = 1; i <= 3; i++) {
  const order = {
    external_id: `cart-${Date.now()}-${i}`,
    items: [{ sku: product.sku, quantity: product.min_quantity }],
    shipping_address: {
      name: 'Sam Shopper',
      line1: '9 Oak Ave',
      city: 'Denver',
      state: 'CO',
      postal_code: '80202',
      country: 'US',
    },
  };
  const placed = await placeOrder(order);
  console.log('placed', placed.id);
}
