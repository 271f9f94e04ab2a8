import type { AppContext } from '../context.js';
import { ApiProblem } from '../problems/api-problem.js';

/** Per app, so two servers in one process never share it: key id → the refusal it got. */
const refusals = new WeakMap<AppContext, Map<string, ApiProblem>>();

/**
 * `live-refusal-remembered`: runs a key's gates as a server that caches a
 * refusal does. Once a key is refused it is refused the same way for good,
 * even after the account changes (live access switched on).
 */
export function rememberingRefusal(ctx: AppContext, keyId: string, gates: () => void): void {
  let byKey = refusals.get(ctx);
  if (!byKey) {
    byKey = new Map();
    refusals.set(ctx, byKey);
  }
  const remembered = byKey.get(keyId);
  if (remembered) throw remembered;
  try {
    gates();
  } catch (error) {
    if (error instanceof ApiProblem) byKey.set(keyId, error);
    throw error;
  }
}
