import { randomUUID } from 'node:crypto';
import { check } from '../../lib/check/index.js';
import { together } from '../support/all-at-once.js';
import { ordering } from '../support/ordering.js';

check('MODE-05', async (ctx) => {
  // Section 7: "404 not_found: No such object in the account".
  const { key } = await ordering(ctx);
  const client = ctx.api(key);
  const missing = `ord_${randomUUID().replace(/-/g, '')}`;
  const missingQuote = `quo_${randomUUID().replace(/-/g, '')}`;
  // Four lookups of objects that do not exist, at once, judged in order.
  const answers = await together(
    client.get(ctx.path('order', { id: missing })),
    client.get(ctx.path('orderByExternalId', { external_id: `never-${randomUUID()}` })),
    client.post(ctx.path('orderCancel', { id: missing })),
    client.get(ctx.path('quote', { id: missingQuote })),
  );
  for (const res of answers) ctx.expectProblem(res, { status: 404, code: 'not_found' });
});
