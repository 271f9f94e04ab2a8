// Types of judge.mjs, for the tests that judge a plan without a network.
import type { Answer } from '../../../violations/condition.mjs';
import type { ReplayPlan } from '../plan-types.js';

export const EXIT: { notReproduced: 0; reproduced: 1; cannot: 2 };
export function judgeReplay(
  plan: Pick<ReplayPlan, 'rule' | 'judge' | 'steps'> & { reason?: string },
  answers: ReadonlyMap<number, Answer & { overCap?: boolean }>,
  values: ReadonlyMap<string, string>,
  secrets: readonly string[],
): { exit: 0 | 1 | 2; lines: string[] };
export function where(plan: Pick<ReplayPlan, 'steps'>, id: number, answer?: Answer): string;
