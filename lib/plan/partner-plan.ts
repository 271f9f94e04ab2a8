import { DOCUMENTED_LIMITS, type RequestClass, type Tally } from '../client/rate-limits.js';

/**
 * The order of check files in partner mode, planned against the key's three
 * budgets (API document section 8). Files run one after another (they share
 * the key's account), so a file whose next request finds its class used up
 * stalls the whole run until that window frees, while the other classes'
 * windows sit idle. Such a stall lets every window refill, so the run takes
 * about one window per stall: the plan orders the files so that each window's
 * worth of the run uses up writes and token requests together (and reads),
 * rather than all token requests at the end after the writes.
 *
 * What a file sends is taken from the last partner run (per-file counts kept
 * in the run's cache, partner-demand.ts) or, for a file not seen yet,
 * estimated from where it lives: the token endpoint's checks send token
 * requests, the others reads and writes.
 */
function estimatedDemand(file: string): Tally {
  return /[\\/]token[\\/]/.test(file)
    ? { read: 0, write: 0, token: 5 }
    : { read: 8, write: 5, token: 1 };
}

const CLASSES: readonly RequestClass[] = ['read', 'write', 'token'];

/** How full the fullest window would be (1: used up). */
function fill(used: Tally): number {
  return Math.max(...CLASSES.map((k) => used[k] / DOCUMENTED_LIMITS[k]));
}

/**
 * Greedy: the next file is the one that leaves the current window least
 * full; a window that fills is carried over as the next one's start. Ties
 * keep the given order, so the plan is the same for the same files and counts.
 */
export function planFileOrder(
  files: readonly string[],
  demandOf: (file: string) => Tally | undefined,
): string[] {
  const left = files.map((file) => ({ file, demand: demandOf(file) ?? estimatedDemand(file) }));
  const out: string[] = [];
  let used: Tally = { read: 0, write: 0, token: 0 };
  while (left.length > 0) {
    let best = 0;
    let bestFill = Number.POSITIVE_INFINITY;
    left.forEach(({ demand }, i) => {
      const f = fill(add(used, demand));
      if (f < bestFill) {
        best = i;
        bestFill = f;
      }
    });
    const [next] = left.splice(best, 1);
    if (!next) break;
    out.push(next.file);
    used = add(used, next.demand);
    // A stall: every window starts over, with what overflowed.
    while (fill(used) >= 1) {
      used = {
        read: Math.max(0, used.read - DOCUMENTED_LIMITS.read),
        write: Math.max(0, used.write - DOCUMENTED_LIMITS.write),
        token: Math.max(0, used.token - DOCUMENTED_LIMITS.token),
      };
    }
  }
  return out;
}

function add(a: Tally, b: Tally): Tally {
  return { read: a.read + b.read, write: a.write + b.write, token: a.token + b.token };
}
