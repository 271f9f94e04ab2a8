import type { TraceStep, TraceVar } from '../../evidence/trace.js';
import type { RuleResult } from '../report-model.js';
import { shellWord } from '../shell-quote.js';
import type { ReproSettings } from './repro-settings.js';

/** Headers curl sets itself, or that describe one connection only. */
const SKIPPED = new Set(['host', 'content-length', 'connection', 'accept-encoding']);

const PICK = `pick() { node -e 'let s="";process.stdin.on("data",(d)=>{s+=d}).on("end",()=>{let v;try{v=JSON.parse(s)}catch{}for(const k of process.argv[1].split("/").slice(1))v=v==null?v:v[k.replace(/~1/g,"/").replace(/~0/g,"~")];process.stdout.write(v==null?"":String(v))})' "$1" < "$2"; }`;
const FRESH = `fresh() { node -e 'const s=process.argv[1];process.stdout.write(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s.replace(/0/g,"a"))?crypto.randomUUID():s.replace(/0/g,()=>String(Math.floor(Math.random()*10))))' "$1"; }`;

/**
 * The curl form of a reproduction: the same sequence as
 * `repro/<RULE>.mjs` as a POSIX sh script, set-up included, each identifier
 * captured from the answer before it into a shell variable. Needs curl, sh
 * and node (to pick values out of JSON); secrets only from the environment.
 * Prints one line per answer; the ones the violations name are marked.
 */
export function curlScript(result: RuleResult, settings: ReproSettings): string[] {
  const replay = result.replay;
  if (!replay) return [];
  const { steps, vars } = replay.trace;
  const judged = new Set(replay.judge.map((j) => j.exchange).filter((id) => id !== undefined));
  const controlPath = settings.controlUrl
    ? new URL(settings.controlUrl).pathname.replace(/\/$/, '')
    : '';
  const word = wordIn(vars);
  const env = [...new Set(Object.values(vars).flatMap((v) => (v.kind === 'env' ? [v.name] : [])))];
  const lines = [
    '#!/bin/sh',
    `# ${result.rule_id} ${result.title}`.replace(/\n/g, ' '),
    `# The check's whole sequence with curl. Export ${env.join(', ') || 'nothing'}; TARGET${settings.controlUrl ? ' and CONTROL_URL' : ''} default to the run's.`,
    'set -u',
    `TARGET="\${TARGET:-${settings.target}}"`,
    ...(settings.controlUrl ? [`CONTROL_URL="\${CONTROL_URL:-${settings.controlUrl}}"`] : []),
    `T=$(mktemp -d); trap 'rm -rf "$T"' EXIT`,
    PICK,
    FRESH,
  ];
  for (const [name, def] of Object.entries(vars)) {
    if (def.kind === 'env') lines.push(`${name}="$${def.name}"`);
    if (def.kind === 'client') lines.push(`${name}=$(fresh ${shellWord(def.shape)})`);
  }
  const curlOf = (step: TraceStep, client: (name: string) => string) => {
    const w = (template: string) => word(template, client);
    const url =
      step.channel === 'api'
        ? `"$TARGET"${w(step.url)}`
        : `"$CONTROL_URL"${w(step.url.slice(controlPath.length))}`;
    const parts = ['curl', '-sS', '-o', '"$T/b"', '-w', "'%{http_code}'", '-X', step.method];
    for (const [name, value] of Object.entries(step.headers)) {
      if (SKIPPED.has(name)) continue;
      parts.push('-H', w(`${name}: ${value}`));
    }
    if (step.basic !== undefined) parts.push('-u', w(step.basic));
    if (step.body !== undefined && step.body !== '') parts.push('--data-raw', w(step.body));
    parts.push(url);
    return `code=$(${parts.join(' ')})`;
  };
  const report = (step: TraceStep, what: string) => {
    const mark = judged.has(step.id)
      ? ` (the failing answer; the run got HTTP ${step.status ?? 'none'}${step.code ? ` ${step.code}` : ''})`
      : '';
    lines.push(
      `echo ${shellWord(`${what} ->`)} "HTTP $code $(pick /code "$T/b")"${mark ? ` ${shellWord(mark)}` : ''}`,
    );
  };
  const capture = (step: TraceStep) => {
    for (const [name, def] of Object.entries(vars)) {
      if (def.kind === 'answer' && def.step === step.id)
        lines.push(`${name}=$(pick ${shellWord(def.pointer)} "$T/b")`);
    }
  };
  const shape = shapeIn(vars);
  const defining = new Set(
    Object.values(vars).flatMap((v) => (v.kind === 'answer' ? [v.step] : [])),
  );
  for (const item of alike(steps, shape, defining)) {
    if (item.length < LOOP) {
      for (const step of item) {
        lines.push(curlOf(step, (name) => `"$${name}"`));
        capture(step);
        report(step, `#${step.id} ${step.method} ${step.url.replace(/\{\{v\d+\}\}/g, '…')}`);
      }
      continue;
    }
    // Like requests (a rate limit's): sent until the answer the run's last one got, each with
    // fresh client values (the loop's count appended), no node in between: a window is short.
    // As the .mjs form: a window that ends during the loop starts the count again, once, and
    // the new window may need the whole burst the run sent, its like requests before this run
    // of them included (another class's requests sent at once split it).
    const first = item[0] as TraceStep;
    const last = item[item.length - 1] as TraceStep;
    const limit = last.status !== first.status ? last.status : undefined;
    const burst = steps.filter((s) => s.id <= last.id && shape(s) === shape(first)).length;
    const most = limit === undefined ? item.length : item.length + burst;
    lines.push('i=0', `while [ "$i" -lt ${most} ]; do`, '  i=$((i+1))');
    lines.push(`  ${curlOf(first, (name) => `"$${name}-$i"`)}`);
    if (limit !== undefined) lines.push(`  [ "$code" = ${limit} ] && break`);
    lines.push('done');
    capture(last);
    report(
      last,
      `#${first.id}..#${last.id} ${item.length} like requests ${first.method} ${first.url.replace(/\{\{v\d+\}\}/g, '…')}`,
    );
  }
  return lines;
}

/** Runs of at least this many like requests become one loop. */
const LOOP = 5;

/** A step's request but for client-made values: like requests have the same shape. */
function shapeIn(vars: Record<string, TraceVar>): (step: TraceStep) => string {
  return (s) =>
    JSON.stringify([s.channel, s.method, s.url, s.body, s.headers, s.basic]).replace(
      /\{\{(v\d+)\}\}/g,
      (whole, name: string) => (vars[name]?.kind === 'client' ? '{{client}}' : whole),
    );
}

/**
 * Consecutive steps that differ only in client-made values, as the runtime groups them. A
 * step whose answer gives a later one a value (an account made for a later key) is set-up,
 * not a burst: only the last step of a loop may (the loop keeps the last answer's values).
 */
function alike(
  steps: TraceStep[],
  shape: (step: TraceStep) => string,
  defining: ReadonlySet<number>,
): TraceStep[][] {
  const out: TraceStep[][] = [];
  for (let i = 0; i < steps.length; ) {
    let j = i + 1;
    const first = steps[i] as TraceStep;
    while (
      j < steps.length &&
      shape(steps[j] as TraceStep) === shape(first) &&
      (steps[j - 1] as TraceStep).status === first.status &&
      !defining.has((steps[j - 1] as TraceStep).id)
    )
      j++;
    if (j - i >= LOOP) out.push(steps.slice(i, j));
    else for (let k = i; k < j; k++) out.push([steps[k] as TraceStep]);
    i = j;
  }
  return out;
}

/** A templated text as one shell word: literal parts single-quoted, variables as "$vN". */
function wordIn(
  vars: Record<string, TraceVar>,
): (template: string, client: (name: string) => string) => string {
  return (template, client) => {
    const pieces = template.split(/\{\{(v\d+)\}\}/);
    const out = pieces
      .map((piece, i) => {
        if (i % 2 === 1) {
          const def = vars[piece];
          if (!def) return shellWord(`{{${piece}}}`);
          return def.kind === 'client' ? client(piece) : `"$${piece}"`;
        }
        return piece === '' ? '' : shellWord(piece);
      })
      .join('');
    return out || "''";
  };
}
