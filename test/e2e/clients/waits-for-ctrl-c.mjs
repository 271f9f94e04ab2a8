// A long-running client, for the suite's own tests: it gets a token, then says
// "ready" and runs until it is stopped (Ctrl-C).
const { TARGET_BASE_URL, PARTNER_ACCESS_KEY_ID, PARTNER_SECRET_KEY } = process.env;
const basic = Buffer.from(`${PARTNER_ACCESS_KEY_ID}:${PARTNER_SECRET_KEY}`).toString('base64');
const res = await fetch(`${TARGET_BASE_URL}/api/on-demand/v1/oauth/token`, {
  method: 'POST',
  headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials',
});
console.log(`token: ${res.status}`);
console.log('ready');
setInterval(() => undefined, 60_000);
