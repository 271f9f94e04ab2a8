// A partner's client, written from docs/partners.md alone. Its bug: it sends its
// credentials in the token request's form body (client_id and client_secret), as
// some OAuth libraries do, instead of the Basic header.
const base = `${process.env.TARGET_BASE_URL}/api/on-demand/v1`;

const form = new URLSearchParams({
  grant_type: 'client_credentials',
  client_id: process.env.PARTNER_ACCESS_KEY_ID,
  client_secret: process.env.PARTNER_SECRET_KEY,
});
const res = await fetch(`${base}/oauth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: form.toString(),
});
const body = await res.json();
if (!res.ok) {
  console.error(`token refused: ${body.code}`);
  process.exit(1);
}
const account = await fetch(`${base}/account`, {
  headers: { authorization: `Bearer ${body.access_token}` },
});
console.log(await account.json());
