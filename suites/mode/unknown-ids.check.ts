import { randomUUID } from 'node:crypto';
import { check } from '../../lib/check/index.js';
import { ordering } from '../support/ordering.js';

check('MODE-05', async (ctx) => {
  // Section 7: "404 not_found: No such object in the account".
  const { key } = await ordering(ctx);
  const client = ctx.api(key);
  const missing = `ord_${randomUUID().replace(/-/g, '')}`;
  const missingQuote = `quo_${randomUUID().replace(/-/g, '')}`;
  ctx.expectProblem(await client.get(ctx.path('order', { id: missing })), {
    status: 404,
    code: 'not_found',
  });
  ctx.expectProblem(
    await client.get(ctx.path('orderByExternalId', { external_id: `never-${randomUUID()}` })),
    { status: 404, code: 'not_found' },
  );
  ctx.expectProblem(await client.post(ctx.path('orderCancel', { id: missing })), {
    status: 404,
    code: 'not_found',
  });
  ctx.expectProblem(await client.get(ctx.path('quote', { id: missingQuote })), {
    status: 404,
    code: 'not_found',
  });
});
