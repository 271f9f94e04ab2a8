// A careless client, for the suite's own tests: it prints its Secret Key, and
// sends it in a query string and in a body. None of it may reach the report or
// the grading's output. It also writes the key to $SECRET_FILE, so that the
// test knows what to look for.
import { writeFileSync } from 'node:fs';

const secret = process.env.PARTNER_SECRET_KEY;
writeFileSync(process.env.SECRET_FILE, secret);
console.log(`my secret is ${secret}`);
const base = `${process.env.TARGET_BASE_URL}/api/on-demand/v1`;
await fetch(`${base}/account?secret=${encodeURIComponent(secret)}`);
await fetch(`${base}/quotes`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ secret }),
});
