import type { AppContext } from '../context.js';
import { ApiProblem } from '../problems/api-problem.js';
import { appMemory } from './app-memory.js';

/** Key id → the refusal it got. */
const refusals = appMemory(() => new Map<string, ApiProblem>());

/**
 * `live-refusal-remembered`: runs a key's gates as a server that caches a
 * refusal does. Once a key is refused it is refused the same way for good,
 * even after the account changes (live access switched on).
 */
export function rememberingRefusal(ctx: AppContext, keyId: string, gates: () => void): void {
  const byKey = refusals(ctx);
  const remembered = byKey.get(keyId);
  if (remembered) throw remembered;
  try {
    gates();
  } catch (error) {
    if (error instanceof ApiProblem) byKey.set(keyId, error);
    throw error;
  }
}
