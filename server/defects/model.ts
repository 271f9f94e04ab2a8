import { defectsOf } from './defect.js';

const DAY_MS = 24 * 3_600_000;

/** Sequences of orders, replays, cancels and clock moves (§3, §4). */
export const MODEL_DEFECTS = defectsOf('MODEL', [
  {
    name: 'external-id-lookup-forgets-after-day',
    breaks: 'GET /orders/by-external-id finds only orders placed in the last 24 hours',
    replaces: () => ({
      orderReads: {
        // As a lookup index that expires entries sees it (the account clock's last 24 hours).
        lookupByExternalId: (lookup) => async (principal, externalId) => {
          const found = await lookup(principal, externalId);
          return found && principal.now - found.createdAt <= DAY_MS ? found : undefined;
        },
      },
    }),
  },
]);
