import { API_BASE } from '../config/api.js';

export type FaultWhen = 'before_commit' | 'after_commit';

export interface Fault {
  id: string;
  method: string;
  /** Relative to the API base, e.g. `/orders`. */
  path: string;
  status: 500;
  when: FaultWhen;
  remaining: number;
}

/** Accepts `/orders` or `/api/on-demand/v1/orders`; drops a query string. */
export function normalizeFaultPath(path: string): string {
  const bare = path.split('?')[0] ?? '';
  return bare.startsWith(`${API_BASE}/`) ? bare.slice(API_BASE.length) : bare;
}

/**
 * Contract §3 faults: the next `times` requests matching method and path that
 * reach the operation answer 500. Kept in memory per account: faults are a
 * test-support device and need not outlive the process.
 */
export class FaultRegistry {
  readonly #byAccount = new Map<string, Fault[]>();

  add(accountId: string, fault: Fault): void {
    const list = this.#byAccount.get(accountId) ?? [];
    list.push(fault);
    this.#byAccount.set(accountId, list);
  }

  /** Uses up one matching fault, if any; true when the request must fail. */
  take(accountId: string, method: string, path: string, when: FaultWhen): boolean {
    const list = this.#byAccount.get(accountId);
    if (!list) return false;
    const fault = list.find(
      (f) => f.remaining > 0 && f.when === when && f.method === method && f.path === path,
    );
    if (!fault) return false;
    fault.remaining -= 1;
    if (fault.remaining === 0) list.splice(list.indexOf(fault), 1);
    return true;
  }
}
