// A partner's client, written from docs/partners.md alone. Its bug: it decides
// what an error means from its `detail` text (what it saw the sandbox say),
// not from `code`.
const base = `${process.env.TARGET_BASE_URL}/api/on-demand/v1`;
const basic = Buffer.from(
  `${process.env.PARTNER_ACCESS_KEY_ID}:${process.env.PARTNER_SECRET_KEY}`,
).toString('base64');
let token;

async function newToken() {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  token = (await res.json()).access_token;
}

async function get(path) {
  for (let attempt = 0; attempt < 4; attempt++) {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.json();
    if (res.ok) return body;
    const detail = body.detail ?? '';
    if (/new token/i.test(detail)) {
      await newToken();
    } else if (/retry after/i.test(detail)) {
      await new Promise((resolve) =>
        setTimeout(resolve, Number(res.headers.get('retry-after')) * 1000),
      );
    } else {
      throw new Error(`${path}: ${detail}`);
    }
  }
  throw new Error(`${path}: gave up`);
}

await newToken();
for (const path of [
  '/account',
  '/catalog/products?limit=100',
  '/orders?limit=10',
  '/account',
  '/orders?limit=5',
]) {
  try {
    await get(path);
    console.log('read', path);
  } catch (error) {
    console.log('failed', error.message);
  }
}
