import type { AppContext } from '../context.js';

/**
 * Memory that some defects keep and the correct server never does (a lock-out,
 * a replaced secret, a remembered refusal), one per app: two servers in one
 * process, as in the fault matrix, never share it. Returns the getter; the
 * memory is made on first use.
 */
export function appMemory<T>(create: () => T): (ctx: AppContext) => T {
  const byApp = new WeakMap<AppContext, T>();
  return (ctx) => {
    let memory = byApp.get(ctx);
    if (memory === undefined) {
      memory = create();
      byApp.set(ctx, memory);
    }
    return memory;
  };
}
