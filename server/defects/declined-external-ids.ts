import type { AppContext } from '../context.js';
import type { Mode } from '../domain/modes.js';
import { appMemory } from './app-memory.js';

/**
 * `declined-external-id-kept`: a server that reserves the external_id before
 * it charges, and keeps the reservation when the charge fails (§4 idempotency
 * rule 5 says no order exists after a 402). Holds `account|mode|external_id`.
 */
const declined = appMemory(() => new Set<string>());

export function rememberDeclined(
  ctx: AppContext,
  accountId: string,
  mode: Mode,
  externalId: string,
): void {
  declined(ctx).add(`${accountId}|${mode}|${externalId}`);
}

export function wasDeclined(
  ctx: AppContext,
  accountId: string,
  mode: Mode,
  externalId: string,
): boolean {
  return declined(ctx).has(`${accountId}|${mode}|${externalId}`);
}
