import { readFileSync } from 'node:fs';
import { shellWord } from '../shell-quote.js';
import { curlCleanup } from './curl-cleanup.js';
import { CAP, readForms, TRANSFER } from './curl-step.js';
import type { ReplayPlan } from './plan-types.js';
import { runtimeText } from './runtime-text.js';

/** The awk program that picks values out of an answer: one process an answer, never one a value. */
const VALUES_AWK = readFileSync(new URL('./runtime/values.awk', import.meta.url), 'utf8');

const INIT_END = 'REPRO_VALUES_END';

/**
 * `burst ID FROM CURL-ARGS`: like requests in one curl (curl 7.76 and later), which stops at the
 * first answer of 400 or more; the answer it stopped at (else its last) becomes ID's, and `i` the
 * number sent. A curl of several answers cannot go through head as one answer does: where
 * --max-filesize cannot stop an answer (one that does not say its length, before curl 8.4), a file
 * size limit of 4096 blocks (512 bytes in sh: the cap) keeps it off the disk, and the answer curl
 * was stopped in is the one over the cap.
 */
const BURST = [
  "# burst ID FROM CURL-ARGS: like requests by one curl, to the first answer of 400 or more; that one (else the last) is ID's",
  'burst() {',
  '  _id=$1; _from=$2; shift 2',
  '  { ( ulimit -f 4096 2>/dev/null; exec curl -sS --fail-early "$@" > "$T/burst" 2>/dev/null ); } 2>/dev/null; _bx=$?',
  '  _k=; while read -r _i _c _e _z; do _k=$_i; _kc=$_c; _ke=$_e; _kz=$_z; done < "$T/burst"',
  '  case $_bx in 153|25) _k= ;; esac',
  "  # No line for the answer curl was in when it stopped (the file size limit, no answer at all): that one is ID's.",
  '  [ -n "$_k" ] || { _k=$(($(wc -l < "$T/burst") + _from + 1)); _kc=000; _ke=$_bx; _kz=0; }',
  '  # 22: an answer of 400 or more, whole (--fail-with-body).',
  '  [ "$_ke" = 22 ] && _ke=0',
  '  mv -f "$T/L$_k.b" "$T/$_id.b" 2>/dev/null || : > "$T/$_id.b"',
  '  mv -f "$T/L$_k.h" "$T/$_id.h" 2>/dev/null || : > "$T/$_id.h"',
  '  echo "$_kc $_kz" > "$T/$_id.s"; echo "$_ke" > "$T/$_id.x"',
  '  rm -f "$T"/L*.b "$T"/L*.h',
  '  i=$_k',
  '}',
];

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
  if (plan.items.some((item) => !('step' in item))) {
    lines.push(
      '# Curl 7.76 and later (--fail-with-body, %{exitcode}): requests sent together by one curl (--parallel),',
      '# a burst of like requests by one curl that stops at its first answer of 400 or more; else one curl a request.',
      "CURL76=0; curl --help all 2>/dev/null | grep -q -- '--fail-with-body' && CURL76=1",
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
    '# statusOf ID: the status of the last header block curl wrote (after any 1xx) in _st, 000 when none',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions
    'statusOf() { _st=000; while IFS= read -r _l; do case $_l in HTTP/*) _l=${_l#* }; _l=${_l%%[!0-9]*}; case $_l in [1-9][0-9][0-9]) _st=$_l ;; esac ;; esac; done < "$T/$1.h"; }',
    '# fire ID CURL-ARGS: one request; its headers, body, status and size, and curl exit go to $T/ID.*',
    // The cap, whatever curl's version: --max-filesize refuses an answer that says it is longer
    // (every curl; one that does not say, chunked, only from curl 8.4 on), and the body goes through
    // head, which keeps 2 MiB and one byte: one byte more than the cap is the target's finding, and
    // nothing past it reaches the disk. curl then ends 0, 23 (head stopped reading) or by SIGPIPE.
    `fire() { _f=$1; shift; : > "$T/$_f.h"; { curl -sS ${TRANSFER} -o - -D "$T/$_f.h" "$@" 2>/dev/null; echo $? > "$T/$_f.x"; } | head -c ${CAP + 1} > "$T/$_f.b"; _z=$(wc -c < "$T/$_f.b"); statusOf "$_f"; echo "$_st \${_z##* }" > "$T/$_f.s"; }`,
    ...(plan.items.some((item) => 'loop' in item) ? BURST : []),
    '# took ID WHAT PICKS CHECK: reads the answer (awk picks the values), prints a line, stops when there is none',
    'took() {',
    '  read -r _x < "$T/$1.x" || _x=1',
    '  read -r _s _size < "$T/$1.s" || _s=000',
    '  # Over the cap: curl refused it (63), more than the cap came (head cut it: curl ended 0, 23 or',
    '  # by SIGPIPE), or the file size limit of a curl of several answers stopped it at the cap (SIGXFSZ).',
    '  case $_x in',
    `    0|23|141) [ "\${_size:-0}" -gt ${CAP} ] 2>/dev/null && _x=63 ;;`,
    `    153|25) _size=$(wc -c < "$T/$1.b"); _size=\${_size##* }; [ "$_size" -ge ${CAP} ] 2>/dev/null && _x=63 ;;`,
    '  esac',
    '  if [ "$_x" = 63 ]; then',
    '    case $_s in [1-9][0-9][0-9]) ;; *) statusOf "$1"; _s=$_st ;; esac',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    '    echo 63 > "$T/$1.x"; echo "$_s ${_size:-0}" > "$T/$1.s"',
    '  fi',
    '  case $_x in 0|63) ;; 153|25) cannot "$2 got no answer whole: curl was stopped at the file size limit (an answer sent with it was over 2 MiB)" ;; 6) cannot "$2 got no answer: unknown host (is TARGET right?)" ;; 7) cannot "$2 got no answer: connection refused (is the target up?)" ;; 28) cannot "$2 got no answer in 30 s" ;; *) cannot "$2 got no answer (curl exit $_x)" ;; esac',
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
