import { answered, bearerOf, identityOf } from '../../sandbox/facts.js';
import { broken, honoured, type Judge, named, notExercised } from '../judge.js';

/** What a client does when its token stops working (API document sections 5 and 7). */

export const newTokenAfterExpiry: Judge = {
  ruleId: 'CLIENT-09',
  reacts: true,
  occasions: (traffic) =>
    traffic.all.filter((ex) => ex.kind === 'call' && answered(ex, 401, 'token_expired')),
  judge(ex, traffic) {
    const expired = bearerOf(ex);
    const later = traffic.after(ex);
    const reused = later.find(
      (e) => e.kind === 'call' && expired !== undefined && bearerOf(e) === expired,
    );
    if (reused)
      return broken(
        `after 401 token_expired on ${named(ex)}, ${named(reused)} sent the expired token again`,
        ex.id,
        reused.id,
      );
    const token = later.find((e) => e.kind === 'token' && e.status !== undefined && e.status < 300);
    const identity = identityOf(ex);
    const repeat = later.find(
      (e) =>
        e.kind === 'call' && identityOf(e) === identity && (token === undefined || e.id > token.id),
    );
    if (token && repeat)
      return honoured(
        `after 401 token_expired on ${named(ex)}, ${named(token)} got a new token and ${named(repeat)} repeated the request`,
        ex.id,
        token.id,
        repeat.id,
      );
    if (!token)
      return broken(
        `after 401 token_expired on ${named(ex)}, the client requested no new token`,
        ex.id,
      );
    return broken(
      `after 401 token_expired on ${named(ex)}, ${named(token)} got a new token but the request was never repeated`,
      ex.id,
      token.id,
    );
  },
};

export const newTokenAfterInvalid: Judge = {
  ruleId: 'CLIENT-10',
  reacts: true,
  occasions: (traffic) =>
    traffic.all.filter((ex) => ex.kind === 'call' && answered(ex, 401, 'invalid_token')),
  judge(ex, traffic) {
    const invalid = bearerOf(ex);
    const later = traffic.after(ex);
    const reused = later.find(
      (e) => e.kind === 'call' && invalid !== undefined && bearerOf(e) === invalid,
    );
    if (reused)
      return broken(
        `after 401 invalid_token on ${named(ex)}, ${named(reused)} sent the same token again`,
        ex.id,
        reused.id,
      );
    const token = later.find((e) => e.kind === 'token');
    if (token)
      return honoured(
        `after 401 invalid_token on ${named(ex)}, ${named(token)} asked for a new token`,
        ex.id,
        token.id,
      );
    return notExercised(
      `after 401 invalid_token on ${named(ex)} the client sent no token request and never used that token again`,
      ex.id,
    );
  },
};
