import { newSessionShared } from '../client/session.js';
import { ReplayBook } from '../evidence/trace.js';

/**
 * State shared by every check file in one worker, in partner mode: the files
 * run one after another in a single worker, so this is the whole run's: one
 * pacer and one token cache for the one partner key, whose rate limits every
 * check shares. With the control API each file has its own (its keys are its
 * own: file-fixture.ts).
 */
export const runShared = newSessionShared();

/**
 * The replay book of partner mode's files, for the same reason: a token one
 * file fetched and cached is set-up that another file's replay needs.
 */
export const runBook = new ReplayBook();
