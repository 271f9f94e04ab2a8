// A partner's client, written from docs/partners.md alone. Its bug: it gets one
// token at start and keeps it for good; a 401 is retried with the same token.
const base = `${process.env.TARGET_BASE_URL}/api/on-demand/v1`;
const basic = Buffer.from(
  `${process.env.PARTNER_ACCESS_KEY_ID}:${process.env.PARTNER_SECRET_KEY}`,
).toString('base64');

const tokenRes = await fetch(`${base}/oauth/token`, {
  method: 'POST',
  headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials',
});
const { access_token: token } = await tokenRes.json(); // valid for an hour: good enough for a job

async function get(path) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.ok) return res.json();
  }
  throw new Error(`${path} failed`);
}

// Poll the open orders a few times.
for (let i = 0; i < 4; i++) {
  try {
    const orders = await get('/orders?limit=20');
    console.log(`${orders.data.length} orders`);
  } catch (error) {
    console.log(error.message);
  }
}
