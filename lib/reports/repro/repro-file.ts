import type { ReplayPlan } from './plan-types.js';
import { runtimeText } from './runtime-text.js';

/**
 * `repro/<RULE-ID>.mjs`: the replay plan as data, then the runtime that
 * executes and judges it. Plain Node, nothing to install. No secret: the plan
 * names every credential as a variable.
 */
export function reproFile(plan: ReplayPlan, suiteVersion: string, readme: string): string {
  const env = plan.env.map((name) => `${name}=…`).join(' ');
  const header = [
    '#!/usr/bin/env node',
    `// ${plan.rule.id} ${plan.rule.title}`,
    `// ${plan.verdict} in a run of partner-ordering-conformance ${suiteVersion}: the check's whole sequence, replayed and judged again, standalone.`,
    ...(plan.quote
      ? [`// Rests on (${plan.quote.doc} section ${plan.quote.section}): "${plan.quote.text}"`]
      : []),
    `// Run: ${env ? `${env} ` : ''}node ${plan.rule.id}.mjs [--target URL]${plan.control ? ' [--control-url URL]' : ''} [--allow-live-orders] [--verbose]`,
    '// Exit 1 REPRODUCED, 0 NOT REPRODUCED, 2 cannot tell or cannot run (it says why). Also a node:test file.',
    `// What this is and how to read it: ${readme}.`,
  ]
    .map((line) => line.replace(/[\r\n\u2028\u2029]/g, ' '))
    .join('\n');
  return `${header}\nconst REPRO = ${JSON.stringify(plan, null, 2)};\n\n${runtimeText('mjs')}\n\nawait main(REPRO, import.meta.url);\n`;
}
