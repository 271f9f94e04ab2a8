import type { AppContext } from '../context.js';
import { appMemory } from './app-memory.js';

/**
 * `declined-external-id-kept`: a server that reserves the external_id before
 * it charges, and keeps the reservation when the charge fails (§4 idempotency
 * rule 5 says no order exists after a 402). Holds `account|mode|external_id`.
 */
const declined = appMemory(() => new Set<string>());

export function rememberDeclined(ctx: AppContext, entry: string): void {
  declined(ctx).add(entry);
}

export function wasDeclined(ctx: AppContext, entry: string): boolean {
  return declined(ctx).has(entry);
}
