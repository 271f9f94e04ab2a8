import { readFileSync } from 'node:fs';
import { shellWord } from '../shell-quote.js';
import { curlCleanup } from './curl-cleanup.js';
import { readForms, TRANSFER } from './curl-step.js';
import type { ReplayPlan } from './plan-types.js';
import { runtimeText } from './runtime-text.js';

/** The awk program that picks values out of an answer: one process an answer, never one a value. */
const VALUES_AWK = readFileSync(new URL('./runtime/values.awk', import.meta.url), 'utf8');

const INIT_END = 'REPRO_VALUES_END';

/**
 * The start of the curl form: where it goes, what it needs (credentials,
 * tools, consent to live orders), its folder and clean-up, the shell
 * functions every step uses, and the values it makes before the first step.
 */
export function curlPreamble(plan: ReplayPlan): string[] {
  const env = plan.env;
  const lines = [
    '#!/bin/sh',
    `# ${plan.rule.id} ${plan.rule.title}`.replace(/[\r\n]/g, ' '),
    ...(plan.quote
      ? [
          `# Rests on (${plan.quote.doc} section ${plan.quote.section}): "${plan.quote.text}"`.replace(
            /[\r\n]/g,
            ' ',
          ),
        ]
      : []),
    "# The check's whole sequence with curl, its answers judged at the end as the check judged them.",
    `# Needs sh, curl, awk and node. Export ${env.join(', ') || 'nothing'}; TARGET${plan.control ? ' and CONTROL_URL' : ''} point it elsewhere.`,
    '# Exit 1: REPRODUCED (the failure stands); 0: NOT REPRODUCED; 2: could not tell or could not run.',
    'cannot() { printf \'CANNOT RUN: %s\\n\' "$1"; exit 2; }',
    ...(plan.unreplayable
      ? [`cannot ${shellWord(`this check cannot be replayed standalone: ${plan.unreplayable}`)}`]
      : []),
    plan.target
      ? `TARGET="\${TARGET:-${plan.target}}"`
      : `[ -n "\${TARGET:-}" ] || cannot "no target: the run tested the suite's bundled reference server, whose port closed with the run; export TARGET (a running server's origin)"`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'TARGET=${TARGET%/}',
    `case $TARGET in http://*|https://*) ;; *) cannot "TARGET must be an http or https URL: $TARGET" ;; esac`,
  ];
  if (plan.control) {
    const fallback = plan.control.followsTarget
      ? `$TARGET${plan.control.path}`
      : (plan.control.url ?? '');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    lines.push(`CONTROL_URL="\${CONTROL_URL:-${fallback}}"`, 'CONTROL_URL=${CONTROL_URL%/}');
  }
  for (const name of env) {
    lines.push(
      `[ -n "\${${name}:-}" ] || cannot 'set ${name} in the environment (the run'"'"'s credential; never put it in this file)'`,
      `export ${name}`,
    );
  }
  lines.push(
    'for tool in curl awk node; do command -v "$tool" >/dev/null 2>&1 || cannot "needs $tool on PATH"; done',
  );
  const live = plan.steps.filter((s) => s.live);
  const allowLive =
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'case "${CONFORMANCE_ALLOW_LIVE_ORDERS:-}" in 1|[Tt][Rr][Uu][Ee]|[Yy][Ee][Ss]|[Oo][Nn]) ;; *) cannot "this reproduction places orders with a live key, which are real: set CONFORMANCE_ALLOW_LIVE_ORDERS=1 (never against production)" ;; esac';
  if (live.length > 0) lines.push(allowLive);
  else if (plan.mode === 'partner' && plan.steps.some((s) => s.makes === 'order'))
    lines.push(`case "$PARTNER_ACCESS_KEY_ID" in *_live_*) ${allowLive} ;; esac`);
  if (plan.items.some((item) => 'together' in item)) {
    lines.push(
      '# Requests sent together by one curl (--parallel, and %{exitcode} from 7.76 on), else one curl each.',
      "PARALLEL=0; curl --help all 2>/dev/null | grep -q -- '--fail-with-body' && PARALLEL=1",
    );
  }
  lines.push(
    'T=$(mktemp -d 2>/dev/null || mktemp -d -t repro) || cannot "no temporary folder"',
    ...curlCleanup(plan),
    'trap cleanup EXIT',
    "trap 'exit 130' INT TERM",
    `cat > "$T/values.awk" <<'REPRO_AWK_END'`,
    VALUES_AWK.trimEnd(),
    'REPRO_AWK_END',
    ': > "$T/values"',
    '# fire ID CURL-ARGS: one request; its status, headers, body and curl exit go to $T/ID.*',
    // A file size limit, so that no answer fills the disk past the cap whatever curl's version
    // (--max-filesize stops a chunked answer only from curl 8.4 on): 4096 blocks, 2 or 4 MiB.
    `fire() { _f=$1; shift; : > "$T/$_f.b"; ( ulimit -f 4096 2>/dev/null; exec curl -sS ${TRANSFER} -o "$T/$_f.b" -D "$T/$_f.h" -w '%{http_code} %{size_download}\\n' "$@" > "$T/$_f.s" 2>/dev/null ); echo $? > "$T/$_f.x"; }`,
    '# took ID WHAT PICKS CHECK: reads the answer (awk picks the values), prints a line, stops when there is none',
    'took() {',
    '  read -r _x < "$T/$1.x" || _x=1',
    '  read -r _s _size < "$T/$1.s" || _s=000',
    '  # Over the cap: curl refused it (63), the file size limit stopped it (SIGXFSZ), or it came whole but larger.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    '  case $_x in 63|153|25) _x=63 ;; 0) [ "${_size:-0}" -gt 2097152 ] 2>/dev/null && _x=63 ;; esac',
    '  if [ "$_x" = 63 ]; then echo 63 > "$T/$1.x"; case $_s in [1-9][0-9][0-9]) ;; *) read -r _ _s _ < "$T/$1.h" ;; esac; fi',
    '  case $_x in 0|63) ;; 6) cannot "$2 got no answer: unknown host (is TARGET right?)" ;; 7) cannot "$2 got no answer: connection refused (is the target up?)" ;; 28) cannot "$2 got no answer in 30 s" ;; *) cannot "$2 got no answer (curl exit $_x)" ;; esac',
    '  _code=; _ra=',
    '  # awk only where a value is to be picked (or a 429 to be waited out): not a process an answer',
    '  if [ "$_x" = 63 ]; then :',
    '  elif [ -n "$3" ] || [ "$_s" = 429 ]; then',
    '    PICK=$3 VALUES="$T/values" LC_ALL=C awk -f "$T/values.awk" "$T/$1.h" "$T/$1.b" > "$T/p" 2>/dev/null',
    '    { IFS= read -r _code; IFS= read -r _ra; } < "$T/p"',
    '  else',
    '    # The problem code for the line printed, by the shell alone: letters, digits and `_.-` only.',
    '    IFS= read -r _code < "$T/$1.b"',
    `    case $_code in *'"code"'*) _code=\${_code#*'"code"'}; _code=\${_code#*'"'}; _code=\${_code%%'"'*} ;; *) _code= ;; esac`,
    '    case $_code in *[!A-Za-z0-9_.-]*|?????????????????????????????????????????????????????????????*) _code= ;; esac',
    '  fi',
    '  _over=; [ "$_x" = 63 ] && _over=" (answer over 2 MiB: read no further)"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    '  [ -n "$2" ] && printf \'%s -> HTTP %s%s%s\\n\' "$2" "$_s" "${_code:+ $_code}" "$_over"',
    '  case $4 in',
    '    control) case $_s in 2??) ;; 401) cannot "set-up through the control API failed: $2: the control token was refused (CONTROL_TOKEN)" ;; *) cannot "set-up through the control API failed: $2: HTTP $_s" ;; esac ;;',
    '    key) [ "$_s" = 401 ] && cannot "the API key was refused at $2 (PARTNER_ACCESS_KEY_ID / PARTNER_SECRET_KEY, or a key made by the control API)" ;;',
    '  esac',
    '  return 0',
    '}',
    '# step ID WHAT PICKS PACE CHECK CURL-ARGS: fire and took; PACE 1: a 429 the run did not meet here is waited out',
    'step() {',
    '  _id=$1; _what=$2; _picks=$3; _pace=$4; _check=$5; shift 5; _n=0',
    '  while :; do',
    '    fire "$_id" "$@"; took "$_id" "$_what" "$_picks" "$_check"',
    '    if [ "$_pace" = 1 ] && [ "$_s" = 429 ] && [ "$_n" -lt 3 ] && [ -n "$_ra" ] && [ "$_ra" -le 65 ]; then',
    '      printf \'(429: waiting %s s as Retry-After asks)\\n\' "$_ra"; sleep "$_ra"; _n=$((_n+1)); continue',
    '    fi',
    '    return 0',
    '  done',
    '}',
    '# untilMinute NAME: the time NAME holds (ISO 8601) becomes the seconds to its next whole minute',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'untilMinute() { eval "_t=\\${$1:-}"; _t=${_t#*T*:*:}; _t=${_t%%[!0-9]*}; case $_t in [0-5][0-9]) _t=$((160 - 1$_t)); eval "$1=$_t ${1}_u=$_t ${1}_j=$_t ${1}_f=$_t" ;; *) eval "$1=" ;; esac; }',
    '# learned NAME…: whether every value named was learned (a step that needs what a race gave)',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'learned() { for _n in "$@"; do eval "_v=\\${$_n:-}"; [ -n "$_v" ] || return 1; done; return 0; }',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'need() { eval "_v=\\${$1:-}"; [ -n "$_v" ] || cannot "$2: no value for $1: the answer it comes from did not carry it"; }',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'made() { printf \'%s %s %s %s\\n\' "$1" "$2" "${3:-}" "${4:-}" >> "$T/made"; }',
  );
  return lines;
}

/** Client values and made-up credentials (as the `.mjs` makes them), and the forms of the environment's: one node. */
export function initValues(plan: ReplayPlan): string[] {
  const vars = Object.fromEntries(
    Object.entries(plan.vars).filter(([, def]) => def.kind !== 'answer'),
  );
  const names = Object.keys(vars);
  if (names.length === 0) return [];
  const program = `const VARS = ${JSON.stringify(vars)};\n\n${runtimeText('curlInit')}\n\ncurlInit(VARS, process.argv[2]);`;
  return [
    `node --input-type=module - "$T/values" > "$T/init" <<'${INIT_END}'`,
    ...endMarked(program, INIT_END),
    INIT_END,
    `[ -s "$T/init" ] || cannot "could not make the replay's client values (node)"`,
    `{ ${names.map(readForms).join(' ')} } < "$T/init"`,
  ];
}

/** A heredoc's text, which must not hold its own end mark on a line of its own. */
export function endMarked(program: string, end: string): string[] {
  if (program.split('\n').includes(end)) throw new Error(`the text holds its own end mark ${end}`);
  return [program];
}
