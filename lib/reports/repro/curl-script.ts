import type { TraceVar } from '../../evidence/trace.js';
import type { RuleResult } from '../report-model.js';
import { shellWord } from '../shell-quote.js';
import type { ReproSettings } from './repro-settings.js';

/** Headers curl sets itself, or that describe one connection only. */
const SKIPPED = new Set(['host', 'content-length', 'connection', 'accept-encoding']);

const PICK = `pick() { node -e 'let s="";process.stdin.on("data",(d)=>{s+=d}).on("end",()=>{let v;try{v=JSON.parse(s)}catch{}for(const k of process.argv[1].split("/").slice(1))v=v==null?v:v[k.replace(/~1/g,"/").replace(/~0/g,"~")];process.stdout.write(v==null?"":String(v))})' "$1" < "$2"; }`;
const FRESH = `fresh() { node -e 'const s=process.argv[1];process.stdout.write(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s.replace(/0/g,"a"))?crypto.randomUUID():s.replace(/0/g,()=>String(Math.floor(Math.random()*10))))' "$1"; }`;

/**
 * The curl form of a reproduction (issue 21): the same sequence as
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
  for (const step of steps) {
    const url =
      step.channel === 'api'
        ? `"$TARGET"${word(step.url)}`
        : `"$CONTROL_URL"${word(step.url.slice(controlPath.length))}`;
    const parts = ['curl', '-sS', '-o', '"$T/b"', '-w', "'%{http_code}'", '-X', step.method];
    for (const [name, value] of Object.entries(step.headers)) {
      if (SKIPPED.has(name)) continue;
      parts.push('-H', word(`${name}: ${value}`));
    }
    if (step.basic !== undefined) parts.push('-u', word(step.basic));
    if (step.body !== undefined && step.body !== '') parts.push('--data-raw', word(step.body));
    parts.push(url);
    lines.push(`code=$(${parts.join(' ')})`);
    for (const [name, def] of Object.entries(vars)) {
      if (def.kind === 'answer' && def.step === step.id)
        lines.push(`${name}=$(pick ${shellWord(def.pointer)} "$T/b")`);
    }
    const what = `#${step.id} ${step.method} ${step.url.replace(/\{\{v\d+\}\}/g, '…')}`;
    const mark = judged.has(step.id)
      ? ` (the failing answer; the run got HTTP ${step.status ?? 'none'}${step.code ? ` ${step.code}` : ''})`
      : '';
    lines.push(
      `echo ${shellWord(`${what} ->`)} "HTTP $code $(pick /code "$T/b")"${mark ? ` ${shellWord(mark)}` : ''}`,
    );
  }
  return lines;
}

/** A templated text as one shell word: literal parts single-quoted, variables as "$vN". */
function wordIn(vars: Record<string, TraceVar>): (template: string) => string {
  return (template) => {
    const pieces = template.split(/\{\{(v\d+)\}\}/);
    const out = pieces
      .map((piece, i) => {
        if (i % 2 === 1) return piece in vars ? `"$${piece}"` : shellWord(`{{${piece}}}`);
        return piece === '' ? '' : shellWord(piece);
      })
      .join('');
    return out || "''";
  };
}
