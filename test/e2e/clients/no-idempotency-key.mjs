// A partner's client, written from docs/partners.md alone. Its bug: it places
// orders without an Idempotency-Key (it thought the header optional).
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
const catalog = await (
  await fetch(`${base}/catalog/products?limit=100`, {
    headers: { authorization: `Bearer ${token}` },
  })
).json();
const product = catalog.data.find((p) => !p.ships_by_freight);

const res = await fetch(`${base}/orders`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    external_id: `web-${Date.now()}`,
    items: [{ sku: product.sku, quantity: product.min_quantity }],
    shipping_address: {
      name: 'Lee Client',
      line1: '1 Pine Rd',
      city: 'Boise',
      state: 'ID',
      postal_code: '83702',
      country: 'US',
    },
  }),
});
console.log('order answer', res.status, (await res.json()).code ?? 'placed');
