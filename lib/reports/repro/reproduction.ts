import type { RuleResult } from '../report-model.js';
import type { ReplayPlan } from './plan-types.js';

export const REPRO_DIR = 'repro';
/** Warnings (SHOULD and DIALECT readings) apart: `node --test repro/` judges what a server MUST do. */
export const WARNINGS_DIR = `${REPRO_DIR}/warnings`;

/** A result's standalone reproduction: its plan and its file, relative to the report directory. */
export interface Reproduction {
  plan: ReplayPlan;
  file: string;
  /** Its curl form, also written beside it (`curlFileOf(file)`). */
  curl: string[];
}

/** `repro/<RULE>.mjs` for a failure or an error, `repro/warnings/<RULE>.mjs` for a warning. */
export function reproductionFile(result: RuleResult): string {
  return `${result.verdict === 'warning' ? WARNINGS_DIR : REPRO_DIR}/${result.rule_id}.mjs`;
}

/** The curl form of a reproduction as a file beside it: `repro/<RULE>.sh`. */
export function curlFileOf(file: string): string {
  return file.replace(/\.mjs$/, '.sh');
}
