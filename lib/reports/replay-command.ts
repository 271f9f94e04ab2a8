import type { Report } from './report-model.js';
import { withOnly } from './reproduce.js';

/**
 * The command that replays the run, or one rule, with the same generated
 * inputs: the run's seed and number of cases. Not a counterexample's own
 * fast-check seed: each check mixes the run seed with its rule id
 * (lib/check/property.ts), so `--seed` takes the run seed. A report made by
 * the CLI carries the full command (every setting, secrets as variables);
 * an older one only what report.json records.
 */
export function replayCommand(report: Report, only?: string): string {
  if (report.replay_command) return withOnly(report.replay_command, only);
  const target = report.target_info.embedded_reference ? '' : ` --target ${report.target}`;
  const profile = report.target_info.profile_option
    ? ` --profile ${report.target_info.profile_option}`
    : '';
  return `npm run conformance --${target}${profile}${only ? ` --only ${only}` : ''} --seed ${report.seed} --num-runs ${report.num_runs}`;
}
