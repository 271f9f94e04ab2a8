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
]);
