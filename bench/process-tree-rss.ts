import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resident memory of a process and all its descendants, in bytes, from
 * /proc (Linux). The run's memory is the tree's: vitest's workers may be
 * threads (counted in the process) or child processes (counted here).
 */
export function processTreeRss(rootPid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = parentOf(Number(entry));
    if (ppid === undefined) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  let total = 0;
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    total += rssOf(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}

function parentOf(pid: number): number | undefined {
  try {
    // The command name (2nd field) may hold spaces: parse after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}
