import type { MatrixResult } from './run-matrix.js';

/** What must be identical from one matrix run to the next: each run's exit code and failing rules. */
function signatures(result: MatrixResult): Map<string, string> {
  const out = new Map<string, string>();
  for (const { run } of result.baseline) {
    out.set(
      `correct server, ${run.area}`,
      `exit ${run.exitCode}; failed ${run.failed.join(' ') || '-'}`,
    );
  }
  for (const { defect, run } of result.defects) {
    out.set(defect, `exit ${run.exitCode}; failed ${run.failed.join(' ') || '-'}`);
  }
  return out;
}

export interface Instability {
  label: string;
  /** The signature of each matrix run, in order. */
  seen: string[];
}

/** The runs whose verdicts differed between matrix runs (empty: identical every time). */
export function compareRuns(results: readonly MatrixResult[]): Instability[] {
  const all = results.map(signatures);
  const labels = new Set(all.flatMap((s) => [...s.keys()]));
  const unstable: Instability[] = [];
  for (const label of labels) {
    const seen = all.map((s) => s.get(label) ?? '(not run)');
    if (new Set(seen).size > 1) unstable.push({ label, seen });
  }
  return unstable;
}
