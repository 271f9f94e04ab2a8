// A partner's client, written from docs/partners.md alone. Its bug: it asks for a
// new token before every call (it never keeps one).
const base = `${process.env.TARGET_BASE_URL}/api/on-demand/v1`;
const basic = Buffer.from(
  `${process.env.PARTNER_ACCESS_KEY_ID}:${process.env.PARTNER_SECRET_KEY}`,
).toString('base64');
const wait = (res) =>
  new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 1000));

async function token() {
  for (;;) {
    const res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (res.status === 429) {
      await wait(res);
      continue;
    }
    return (await res.json()).access_token;
  }
}

async function get(path) {
  for (;;) {
    const res = await fetch(`${base}${path}`, {
      headers: { authorization: `Bearer ${await token()}` },
    });
    if (res.status === 429) {
      await wait(res);
      continue;
    }
    return res.json();
  }
}

// A stock sync: every product, one by one, then the account.
const catalog = await get('/catalog/products?limit=100');
for (let round = 0; round < 4; round++) {
  for (const product of catalog.data)
    await get(`/catalog/products/${encodeURIComponent(product.sku)}`);
}
const account = await get('/account');
console.log(`synced ${catalog.data.length} products for ${account.id}`);
