import { shellWord } from '../shell-quote.js';
import type { PlanStep, ReplayPlan } from './plan-types.js';

/**
 * One step in the curl form: its curl arguments (each value in the form of
 * its shell variable for where it goes), the values its answer gives, and the
 * shell that reads them.
 */

/** Where a value goes, and the form of its shell variable written there. */
type Context = 'raw' | 'url' | 'json' | 'form';
const SUFFIX: Record<Context, string> = { raw: '', url: '_u', json: '_j', form: '_f' };

/** The cap on an answer's body, as the `.mjs` form's (runtime/http.mjs): more is the target's finding. */
export const CAP = 2 * 1024 * 1024;

/** What every request of the curl form is sent with: no redirect followed, one body cap (2 MiB). */
export const TRANSFER = `--max-time 30 --connect-timeout 10 --max-filesize ${CAP} --proto =http,https`;

export function readForms(name: string): string {
  return Object.values(SUFFIX)
    .map((suffix) => `IFS= read -r ${name}${suffix};`)
    .join(' ');
}

/** The values to pick from a step's answer: its captures and the id of what it makes. */
export function picks(plan: ReplayPlan, step: PlanStep): string {
  const out = (step.captures ?? []).map(([name, pointer]) => `${name}=${pickPointer(pointer)}`);
  const made = madeId(plan, step);
  if (made) out.push(`_m=${pickPointer(made)}`);
  return out.join(' ');
}

/** A JSON pointer as values.awk takes it: a space written ~2 (never in a pointer otherwise). */
function pickPointer(pointer: string): string {
  return pointer.replaceAll(' ', '~2');
}

function madeId(plan: ReplayPlan, step: PlanStep): string | undefined {
  if (step.makes === 'key') return '/access_key_id';
  if (step.makes === 'order') return plan.paths.orders.idPointer;
  if (step.makes === 'webhook') return plan.paths.webhooks.idPointer;
  return undefined;
}

export function captures(plan: ReplayPlan, step: PlanStep): string[] {
  const names = (step.captures ?? []).map(([name]) => name);
  if (madeId(plan, step)) names.push('_m');
  if (names.length === 0) return [];
  const minutes = (step.captures ?? []).flatMap(([name, , then]) =>
    then === 'untilMinute' ? [`untilMinute ${name}`] : [],
  );
  return [
    `{ IFS= read -r _; IFS= read -r _; ${names.map(readForms).join(' ')} } < "$T/p"${minutes.map((m) => `; ${m}`).join('')}`,
  ];
}

/** The curl arguments of a step: method, headers, credentials, body, URL. `loop`: client values' suffix. */
export function curlArgs(plan: ReplayPlan, step: PlanStep, loop?: string): string {
  const w = (template: string, context: Context) => word(plan, template, context, loop);
  const parts = ['-X', shellWord(step.method)];
  for (const [name, value] of Object.entries(step.headers)) {
    parts.push('-H', w(`${name}: ${value}`, 'raw'));
  }
  if (step.basic !== undefined) {
    const [id, ...rest] = step.basic.split(':');
    parts.push('-u', `${w(id ?? '', 'form')}:${w(rest.join(':'), 'form')}`);
  }
  if (step.body !== undefined && step.body !== '') {
    parts.push('--data-raw', w(step.body, bodyContext(step.headers['content-type'])));
  } else if (['POST', 'PUT', 'PATCH'].includes(step.method)) {
    parts.push('-H', "'content-length: 0'");
  }
  const base = step.channel === 'api' ? '"$TARGET"' : '"$CONTROL_URL"';
  parts.push(`${base}${w(step.url, 'url')}`);
  return parts.join(' ');
}

function bodyContext(contentType: string | undefined): Context {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return 'raw';
}

/** A template as one shell word: literal parts quoted, each variable as its form for where it goes. */
export function word(plan: ReplayPlan, template: string, context: Context, loop?: string): string {
  const pieces = template.split(/\{\{(v\d+|!)\}\}/);
  const out = pieces
    .map((piece, i) => {
      if (i % 2 === 0) return piece === '' ? '' : literal(piece);
      if (piece === '!') return literal('{{');
      const def = plan.vars[piece];
      if (!def) return literal(`{{${piece}}}`);
      const variable = `${piece}${SUFFIX[context]}`;
      return loop && def.kind === 'client' ? `"\${${variable}}${loop}"` : `"$${variable}"`;
    })
    .join('');
  return out || "''";
}

/** Literal text as a shell word; control characters through printf, never raw in the script. */
export function literal(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
  if (!/[\u0000-\u001f\u007f]/.test(text)) return shellWord(text);
  const escaped = text
    .replaceAll('\\', '\\\\')
    .replaceAll("'", `'\\''`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces
    .replace(/[\u0000-\u001f\u007f]/g, (c) => `\\0${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
  return `"$(printf '%b' '${escaped}')"`;
}
