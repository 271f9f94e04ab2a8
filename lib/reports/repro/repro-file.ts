import { readFileSync } from 'node:fs';
import type { RuleResult } from '../report-model.js';
import type { ReproSettings } from './repro-settings.js';

/** The runtime every reproduction carries: plain JavaScript, read once. */
const RUNTIME = readFileSync(new URL('./replay-runtime.mjs', import.meta.url), 'utf8');

/** Results that get a reproduction: what failed, warned or ended in error with exchanges. */
export function reproducible(result: RuleResult): boolean {
  return (
    ['failed', 'warning', 'error'].includes(result.verdict) &&
    result.replay !== undefined &&
    result.replay.trace.steps.length > 0
  );
}

/**
 * `repro/<RULE-ID>.mjs`, replayed without the suite: the check's sequence and violations as
 * data, then the runtime that replays and judges them. No secret: the steps
 * name every credential as a variable (trace.ts).
 */
export function reproFile(
  result: RuleResult,
  settings: ReproSettings,
  suiteVersion: string,
): string {
  const replay = result.replay;
  if (!replay) throw new Error(`${result.rule_id} has no replay`);
  const controlPath = settings.controlUrl
    ? new URL(settings.controlUrl).pathname.replace(/\/$/, '')
    : '';
  const data = {
    rule: {
      id: result.rule_id,
      title: result.title,
      level: result.level,
      section: result.section,
      ...(result.source ? { source: result.source } : {}),
    },
    verdict: result.verdict,
    ...(result.reason ? { reason: result.reason } : {}),
    target: settings.target,
    controlUrl: settings.controlUrl ?? null,
    controlPath,
    mode: settings.mode,
    orders: settings.orders,
    steps: replay.trace.steps,
    vars: replay.trace.vars,
    judge: replay.judge,
    ...(replay.unreplayable ? { unreplayable: replay.unreplayable } : {}),
  };
  const env = [
    ...new Set(Object.values(replay.trace.vars).flatMap((v) => (v.kind === 'env' ? [v.name] : []))),
  ];
  const quote = result.source ? `"${result.source.quote}"` : '';
  const header = [
    '#!/usr/bin/env node',
    `// ${result.rule_id} ${result.title}`,
    `// ${result.verdict} in a run of partner-ordering-conformance ${suiteVersion}; standalone reproduction: plain node, no suite needed.`,
    ...(quote
      ? [`// Rests on (${result.source?.doc} section ${result.source?.section}): ${quote}`]
      : []),
    `// Run: ${env.map((e) => `${e}=…`).join(' ')} node ${result.rule_id}.mjs [--target URL]${settings.controlUrl ? ' [--control-url URL]' : ''} [--verbose]`,
    '// Exit 1 REPRODUCED, 0 NOT REPRODUCED, 2 cannot run (it says why). Also a node:test file: node --test repro/',
    '// What this is and how to read it: README.md beside this file.',
  ]
    .map((line) => line.replace(/\n/g, ' '))
    .join('\n');
  return `${header}\nconst REPRO = ${JSON.stringify(data, null, 2)};\n\n${RUNTIME}`;
}
