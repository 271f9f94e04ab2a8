import { newSessionShared } from '../client/session.js';

/**
 * State shared by every check file in one worker. With the control API the
 * runner isolates files (each has its own account, so nothing needs sharing);
 * in partner mode it runs files one after another in a single worker without
 * isolation, so this is the whole run's: one pacer and one token cache for
 * the one partner key, whose rate limits every check shares.
 */
export const runShared = newSessionShared();
