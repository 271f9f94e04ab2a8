import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import type { Rule } from '../../rules/index.js';
import { isSelected } from '../config/only.js';
import type { Replay } from '../evidence/trace.js';
import type { RuleResult, RuleSource, RunError } from '../reports/report-model.js';
import type { CollectedRun, CollectedTest, FileError } from '../runner/collected.js';
import { findChecks } from '../runner/find-checks.js';
import { namedFile } from '../runner/source-name.js';
import { moreSerious, verdictOfTest } from './decide.js';

export const UNCOVERED_REASON = 'uncovered: no check implements this rule';

export interface MergeInput {
  /** Every active rule, in catalogue order: the report has one result for each. */
  rules: readonly Rule[];
  only: readonly string[];
  run: CollectedRun;
  /** The suite's root, to read a file that failed to load. */
  root: string;
  /** Why the runner cut the run short (the target stopped answering); undefined otherwise. */
  stopReason?: string;
  /**
   * With `--suites`: the bundled check file of each rule the selection left
   * out (bundledChecks). Such a rule is `skipped`, never "uncovered".
   */
  leftOutBySuites?: ReadonlyMap<string, string>;
}

/**
 * One result per active rule, whatever happened: a rule with a check gets
 * its verdict; a rule filtered out by `--only` is `skipped`; a rule whose
 * check file failed to load is `error`; a rule no check implements is
 * `not_verifiable` and flagged `uncovered`. Nothing the run saw is dropped:
 * what belongs to no rule becomes a run error.
 */
export function mergeResults(input: MergeInput): {
  results: RuleResult[];
  runErrors: RunError[];
  /** What each failed, warning and error result's reproduction replays, by rule id. */
  replays: Map<string, Replay>;
} {
  const runErrors: RunError[] = [];
  const replays = new Map<string, Replay>();
  const known = new Set<string>(input.rules.map((rule) => rule.id));
  const testsByRule = new Map<string, CollectedTest[]>();
  for (const test of input.run.tests) {
    const ruleId = test.ruleId;
    if (!ruleId || !known.has(ruleId)) {
      runErrors.push({
        source: test.file,
        message: `the test "${test.name}" names no active rule of the catalogue`,
      });
      continue;
    }
    testsByRule.set(ruleId, [...(testsByRule.get(ruleId) ?? []), test]);
  }

  const brokenFiles = new Map<string, FileError>();
  for (const error of input.run.fileErrors) {
    if (error.collected) {
      runErrors.push({ source: error.file, message: error.message });
      continue;
    }
    // vitest knows none of the tests of a file that failed to load: its source says which rules
    // they were, so that those show the error rather than pass as merely uncovered.
    const ruleIds = ruleIdsInFile(namedFile(input.root, error.file)).filter((id) => known.has(id));
    for (const id of ruleIds) if (!brokenFiles.has(id)) brokenFiles.set(id, error);
    runErrors.push({
      source: error.file,
      message: `the check file failed to load: ${error.message}`,
      ...(ruleIds.length ? { rule_ids: ruleIds } : {}),
    });
  }
  for (const message of input.run.unhandled) runErrors.push({ source: 'vitest', message });
  if (input.stopReason) runErrors.push({ source: 'target', message: input.stopReason });
  const notRun = `not run: ${input.stopReason ? `the run was stopped (${input.stopReason})` : 'the run was interrupted'}`;

  const results = input.rules.map((rule): RuleResult => {
    const base = {
      rule_id: rule.id,
      title: rule.title,
      section: rule.section,
      level: rule.level,
      area: rule.area,
      source: sourceOf(rule),
    };
    const tests = testsByRule.get(rule.id) ?? [];
    const selected = isSelected(input.only, rule.id);
    if (tests.length > 0) {
      const interrupted = input.run.endReason === 'interrupted' ? notRun : undefined;
      const { replay, ...result } = fromTests(tests, rule, selected, interrupted);
      if (replay) replays.set(rule.id, replay);
      return { ...base, ...result };
    }
    if (!selected) return { ...base, verdict: 'skipped', reason: 'filtered out by --only' };
    const bundled = input.leftOutBySuites?.get(rule.id);
    if (bundled && !brokenFiles.has(rule.id)) {
      return { ...base, verdict: 'skipped', reason: 'filtered out by --suites', file: bundled };
    }
    const broken = brokenFiles.get(rule.id);
    if (broken) {
      return {
        ...base,
        verdict: 'error',
        reason: `the check file ${broken.file} failed to load: ${broken.message}`,
        file: broken.file,
      };
    }
    // Interrupted before its file was even loaded: not known to be uncovered, just not run.
    if (input.run.endReason === 'interrupted') {
      return { ...base, verdict: 'error', reason: notRun };
    }
    return { ...base, verdict: 'not_verifiable', reason: UNCOVERED_REASON, uncovered: true };
  });
  return { results, runErrors, replays };
}

/** Merges the tests of one rule (normally exactly one): the most serious verdict leads. */
function fromTests(
  tests: CollectedTest[],
  rule: Rule,
  selected: boolean,
  interrupted: string | undefined,
): Omit<RuleResult, 'rule_id' | 'title' | 'section' | 'level' | 'area' | 'source'> & {
  replay?: Replay;
} {
  const verdicts = tests.map((test) => ({
    test,
    ...verdictOfTest(test, rule.level, selected, interrupted),
  }));
  const lead = verdicts.reduce((a, b) => (moreSerious(a.verdict, b.verdict) === a.verdict ? a : b));
  const evidence = verdicts.flatMap((v) => v.outcome?.evidence ?? []);
  const violations = verdicts.flatMap((v) => v.outcome?.violations ?? []);
  const notes = verdicts.flatMap((v) => v.outcome?.notes ?? []);
  const cases = Math.max(0, ...verdicts.map((v) => v.outcome?.cases ?? 0));
  const duration = verdicts.reduce((sum, v) => sum + (v.test.durationMs ?? 0), 0);
  const outcome = lead.outcome;
  return {
    verdict: lead.verdict,
    ...(lead.reason ? { reason: lead.reason } : {}),
    ...(evidence.length ? { evidence } : {}),
    ...(outcome?.missing?.length ? { missing: outcome.missing } : {}),
    ...(violations.length ? { violations } : {}),
    ...(outcome?.harnessError ? { harness_error: outcome.harnessError } : {}),
    ...(outcome?.counterexample ? { counterexample: outcome.counterexample } : {}),
    ...(notes.length ? { notes } : {}),
    ...(cases > 0 ? { cases } : {}),
    ...(outcome?.replay ? { replay: outcome.replay } : {}),
    file: lead.test.file,
    duration_ms: duration,
  };
}

/** The sentence(s) of the document the rule rests on, as in the catalogue. */
export function sourceOf(rule: Rule): RuleSource {
  return {
    doc: rule.source.doc,
    section: rule.source.section,
    quote: rule.source.quote.join(' … '),
    ...(rule.source.rfc ? { rfc: rule.source.rfc } : {}),
    ...(rule.source.reading ? { reading: rule.source.reading.join(' … ') } : {}),
  };
}

/** Every rule id of the bundled check files (`suites/**\/*.check.ts`), with its file relative to the root. */
export function bundledChecks(root: string, pattern: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of globSync(pattern, { cwd: root }).sort())
    for (const id of ruleIdsInFile(join(root, file))) if (!out.has(id)) out.set(id, file);
  return out;
}

/** The rule ids a check file registers, read from its source (findChecks). */
function ruleIdsInFile(path: string | undefined): string[] {
  if (path === undefined) return [];
  return [...new Set(findChecks(path).map((found) => found.ruleId))];
}
