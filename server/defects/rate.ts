import { API_BASE, RATE_WINDOW_MS } from '../config/api.js';
import { ApiProblem } from '../problems/api-problem.js';
import { defectsOf } from './defect.js';

/** §8: rate limits and their 429 answers. */
export const RATE_DEFECTS = defectsOf('RATE', [
  {
    name: 'read-limit-400',
    breaks: 'reads are limited at 400 a minute, not 300',
    replaces: () => ({
      credentials: {
        countRequest: (count) => (key, account, rateClass, now) =>
          count(
            key,
            rateClass === 'read'
              ? {
                  ...account,
                  settings: {
                    ...account.settings,
                    rate_limits: { ...account.settings.rate_limits, read: 400 },
                  },
                }
              : account,
            rateClass,
            now,
          ),
      },
    }),
  },
  {
    name: 'writes-not-limited',
    breaks: 'writes are not rate limited',
    replaces: () => ({
      credentials: {
        countRequest: (count) => async (key, account, rateClass, now) => {
          const counted = await count(key, account, rateClass, now);
          return rateClass === 'write' ? { ...counted, refused: undefined } : counted;
        },
      },
    }),
  },
  {
    name: 'token-limit-off',
    breaks: 'token requests are not rate limited',
    replaces: () => ({
      credentials: {
        countRequest: (count) => async (key, account, rateClass, now) => {
          const counted = await count(key, account, rateClass, now);
          return rateClass === 'token' ? { ...counted, refused: undefined } : counted;
        },
      },
    }),
  },
  {
    name: 'retry-after-missing',
    breaks: '429 rate_limited answers carry no Retry-After',
    replaces: () => ({
      answer: ({ reply }) => {
        if (reply.statusCode === 429) reply.removeHeader('retry-after');
      },
    }),
  },
  {
    name: 'retry-after-too-short',
    breaks: 'Retry-After is 5 seconds short of the window reset',
    replaces: () => ({
      answer: ({ reply }) => {
        const seconds = reply.getHeader('retry-after');
        if (reply.statusCode === 429 && seconds !== undefined)
          reply.header('retry-after', String(Math.max(0, Number(seconds) - 5)));
      },
    }),
  },
  {
    name: 'rate-limit-per-account',
    breaks: 'rate limits are counted per account, not per key',
    replaces: () => ({
      credentials: {
        // The account's id where the key's belongs: every key of the account shares one budget.
        countRequest: (count) => (key, account, rateClass, now) =>
          count({ ...key, id: account.id }, account, rateClass, now),
      },
    }),
  },
  {
    name: 'token-refusal-blocks-calls',
    breaks: 'a key refused a token request is refused every call until reset',
    replaces: () => {
      // Key id → until when (account clock) it is locked out.
      const lockedUntil = new Map<string, number>();
      return {
        credentials: {
          countRequest: (count) => async (key, account, rateClass, now) => {
            const counted = await count(key, account, rateClass, now);
            if (rateClass === 'token') {
              if (!counted.decision.allowed)
                lockedUntil.set(key.id, now + counted.decision.resetSeconds * 1000);
              return counted;
            }
            const until = lockedUntil.get(key.id) ?? 0;
            const locked = until > now ? Math.ceil((until - now) / 1000) : 0;
            if (locked === 0) return counted;
            return {
              ...counted,
              refused: new ApiProblem(
                'rate_limited',
                `This key is locked out for ${locked} seconds.`,
                { headers: { 'retry-after': String(locked) } },
              ),
            };
          },
        },
      };
    },
  },
  {
    name: 'retry-after-hours',
    breaks: '429 rate_limited answers say Retry-After: 58000 for a per-minute window',
    replaces: () => ({
      answer: ({ reply }) => {
        if (reply.statusCode === 429 && reply.getHeader('retry-after') !== undefined)
          reply.header('retry-after', '58000');
      },
    }),
  },
  {
    name: 'reads-writes-one-budget',
    breaks:
      'reads and writes share one window per key: writes use up reads and reads use up writes',
    replaces: () => ({
      credentials: {
        // A write counts in the key's read window, against the write limit.
        countRequest: (count) => (key, account, rateClass, now) => {
          if (rateClass !== 'write') return count(key, account, rateClass, now);
          const limits = account.settings.rate_limits;
          const settings = { ...account.settings, rate_limits: { ...limits, read: limits.write } };
          return count(key, { ...account, settings }, 'read', now);
        },
      },
    }),
  },
  {
    name: 'catalog-reads-counted-as-writes',
    breaks: 'GET requests of the catalog count against the write limit, not the read limit',
    replaces: () => ({
      credentials: {
        rateClass: (rateClass) => (request) =>
          request.method === 'GET' && request.url.startsWith(`${API_BASE}/catalog/`)
            ? 'write'
            : rateClass(request),
      },
    }),
  },
  {
    name: 'delete-counted-as-read',
    breaks: 'DELETE requests count against the read limit, not the write limit',
    replaces: () => ({
      credentials: {
        rateClass: (rateClass) => (request) =>
          request.method === 'DELETE' ? 'read' : rateClass(request),
      },
    }),
  },
  {
    name: 'rate-limit-per-token',
    breaks: 'calls are counted per access token: each token of a key has its own budget',
    replaces: () => {
      // The digest of the token the bearer gate authenticated last: on SQLite nothing runs between
      // a request's authentication and its count (the store answers at once), so it is this one's.
      let lastDigest = '';
      return {
        credentials: {
          tokenDigest: (digest) => (token) => {
            const hash = digest(token);
            lastDigest = hash.toString('hex');
            return hash;
          },
          countRequest: (count) => (key, account, rateClass, now) =>
            rateClass === 'token'
              ? count(key, account, rateClass, now)
              : count({ ...key, id: `${key.id}|${lastDigest}` }, account, rateClass, now),
        },
      };
    },
  },
  {
    name: 'refusal-halves-later-windows',
    breaks: "once refused, a key's later windows of that class allow half the limit",
    replaces: () => {
      // `key|class` → the start of the window in which the key was first refused.
      const refusedIn = new Map<string, number>();
      return {
        credentials: {
          countRequest: (count) => async (key, account, rateClass, now) => {
            const id = `${key.id}|${rateClass}`;
            const start = now - (now % RATE_WINDOW_MS);
            const first = refusedIn.get(id);
            const halved = first !== undefined && start > first;
            const limits = account.settings.rate_limits;
            const settings = {
              ...account.settings,
              rate_limits: { ...limits, [rateClass]: Math.floor(limits[rateClass] / 2) },
            };
            const counted = await count(
              key,
              halved ? { ...account, settings } : account,
              rateClass,
              now,
            );
            if (counted.refused && first === undefined) refusedIn.set(id, start);
            return counted;
          },
        },
      };
    },
  },
]);
