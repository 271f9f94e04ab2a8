import { readFileSync } from 'node:fs';
import { shellWord } from '../shell-quote.js';
import type { PlanStep, ReplayPlan } from './plan-types.js';
import { describeStep } from './runtime/step-text.mjs';
import { runtimeText } from './runtime-text.js';

/** The awk program that picks and makes values: one process an answer, never one a value. */
const VALUES_AWK = readFileSync(new URL('./runtime/values.awk', import.meta.url), 'utf8');

/** Where a value goes, and the form of its shell variable written there. */
type Context = 'raw' | 'url' | 'json' | 'form';
const SUFFIX: Record<Context, string> = { raw: '', url: '_u', json: '_j', form: '_f' };

const JUDGE_END = 'REPRO_JUDGE_END';
const INIT_END = 'REPRO_VALUES_END';

/** What every request of the curl form is sent with: no redirect followed, one body cap (2 MiB). */
const TRANSFER = '--max-time 30 --connect-timeout 10 --max-filesize 2097152 --proto =http,https';

/**
 * The curl form of a reproduction: the plan as a POSIX sh script, its steps
 * as curl commands in the plan's order (loops, requests sent together with
 * `&` and `wait`), each value picked from the answer before by one awk an
 * answer (one node made the client's values at the start), then one node
 * judging the answers as `repro/<RULE>.mjs` does:
 * prints what each judgement expected and what came, and exits 1 while the
 * failure stands, 0 once it does not, 2 when it cannot tell or cannot run.
 * Needs sh, curl, awk and node; secrets only from the environment.
 */
export function curlScript(plan: ReplayPlan): string[] {
  const steps = new Map(plan.steps.map((s) => [s.id, s]));
  const lines: string[] = [...preamble(plan)];
  lines.push(...initValues(plan));
  for (const item of plan.items) {
    if ('step' in item) lines.push(...sendStep(plan, steps.get(item.step) as PlanStep));
    else if ('together' in item) {
      const members = item.together.map((id) => steps.get(id) as PlanStep);
      lines.push(
        `# ${members.length} requests the check sent at once, sent together again: one curl opening a`,
        '# connection for each at once where curl can (7.76 and later), else one curl each in the background',
      );
      for (const step of members) lines.push(...needs(plan, step));
      lines.push(
        'if [ "$PARALLEL" = 1 ]; then',
        `  ${members.map((step) => `: > "$T/${step.id}.b";`).join(' ')}`,
        '  ( ulimit -f 4096 2>/dev/null; exec curl -sS -Z --parallel-immediate --parallel-max 64 \\',
        ...members.map(
          (step, i) =>
            `    ${i > 0 ? '--next ' : ''}${TRANSFER} -o "$T/${step.id}.b" -D "$T/${step.id}.h" -w '${step.id} %{http_code} %{exitcode} %{size_download}\\n' ${curlArgs(plan, step)} \\`,
        ),
        '    > "$T/race" 2>/dev/null )',
        '  while read -r _i _c _e _z; do echo "$_c $_z" > "$T/$_i.s"; echo "${_e:-1}" > "$T/$_i.x"; done < "$T/race"',
        'else',
        ...members.map((step) => `  fire ${step.id} ${curlArgs(plan, step)} &`),
        '  wait',
        'fi',
      );
      for (const step of members)
        lines.push(...afterSend(plan, step, shellWord(describeStep(step))));
    } else {
      const loop = item.loop.map((id) => steps.get(id) as PlanStep);
      const first = loop[0] as PlanStep;
      const last = loop.at(-1) as PlanStep;
      const what = `#${first.id}..#${last.id} ${loop.length} like requests ${describeStep(first).replace(/^#\d+ /, '')}`;
      lines.push(
        `# ${what}: sent until HTTP ${item.until ?? '(any)'} comes, at most ${item.most} times, each with client values of its own`,
        ...needs(plan, first),
        'i=0',
        `while [ "$i" -lt ${item.most} ]; do`,
        '  i=$((i+1))',
        `  step ${last.id} '' ${shellWord(picks(plan, last))} 0 ${checkOf(first)} ${curlArgs(plan, first, '-$i')}`,
        ...[...captures(plan, last), ...makes(plan, last)].map((line) => `  ${line}`),
        ...(item.until === undefined ? [] : [`  [ "$_s" = ${item.until} ] && break`]),
        'done',
        `printf '%s -> HTTP %s (%s sent)\\n' ${shellWord(what)} "$_s" "$i"`,
      );
    }
  }
  lines.push(...judge(plan));
  return lines;
}

function preamble(plan: ReplayPlan): string[] {
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
    plan.target
      ? `TARGET="\${TARGET:-${plan.target}}"`
      : `[ -n "\${TARGET:-}" ] || cannot "no target: the run tested the suite's bundled reference server, whose port closed with the run; export TARGET (a running server's origin)"`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'TARGET=${TARGET%/}',
    `case $TARGET in http://*|https://*) ;; *) cannot "TARGET must be an http or https URL: $TARGET" ;; esac`,
  ];
  if (plan.control) {
    const fallback = plan.control.followsTarget ? `$TARGET${plan.control.path}` : plan.control.url;
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
    ...cleanup(plan),
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
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'need() { eval "_v=\\${$1:-}"; [ -n "$_v" ] || cannot "$2: no value for $1: the answer it comes from did not carry it"; }',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'made() { printf \'%s %s %s %s\\n\' "$1" "$2" "${3:-}" "${4:-}" >> "$T/made"; }',
  );
  return lines;
}

/** Client values and made-up credentials (as the `.mjs` makes them), and the forms of the environment's: one node. */
function initValues(plan: ReplayPlan): string[] {
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
function endMarked(program: string, end: string): string[] {
  if (program.split('\n').includes(end)) throw new Error(`the text holds its own end mark ${end}`);
  return [program];
}

function readForms(name: string): string {
  return Object.values(SUFFIX)
    .map((suffix) => `IFS= read -r ${name}${suffix};`)
    .join(' ');
}

function sendStep(plan: ReplayPlan, step: PlanStep): string[] {
  return [
    ...needs(plan, step),
    `step ${step.id} ${shellWord(describeStep(step))} ${shellWord(picks(plan, step))} ${step.status === 429 ? 0 : 1} ${checkOf(step)} ${curlArgs(plan, step)}`,
    ...captures(plan, step),
    ...makes(plan, step),
  ];
}

/** After a request sent in the background: read its answer as `step` does. */
function afterSend(plan: ReplayPlan, step: PlanStep, what: string): string[] {
  return [
    `took ${step.id} ${what} ${shellWord(picks(plan, step))} ${checkOf(step)}`,
    ...captures(plan, step),
    ...makes(plan, step),
  ];
}

/** What the step's answer must be for the replay to go on (set-up that failed, a refused key). */
function checkOf(step: PlanStep): string {
  const ok = step.status !== undefined && step.status >= 200 && step.status < 300;
  if (step.channel === 'control' && ok) return 'control';
  if (step.channel === 'api' && step.basic !== undefined && step.status !== 401) return 'key';
  return '-';
}

/** The values to pick from a step's answer: its captures and the id of what it makes. */
function picks(plan: ReplayPlan, step: PlanStep): string {
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

function captures(plan: ReplayPlan, step: PlanStep): string[] {
  const names = (step.captures ?? []).map(([name]) => name);
  if (madeId(plan, step)) names.push('_m');
  if (names.length === 0) return [];
  return [`{ IFS= read -r _; IFS= read -r _; ${names.map(readForms).join(' ')} } < "$T/p"`];
}

/** Notes what the step made (when it succeeded) for clean-up. */
function makes(plan: ReplayPlan, step: PlanStep): string[] {
  const ok = 'case $_s in 2??)';
  const token = /^bearer\s+\{\{(v\d+)\}\}$/i.exec(step.headers.authorization ?? '')?.[1] ?? '';
  switch (step.makes) {
    case 'key':
      return [`${ok} made key "$_m_u" ;; esac`];
    case 'order':
    case 'webhook':
      return [`${ok} made ${step.makes} "$_m_u" ${token || '-'} ${step.tokenFrom ?? '-'} ;; esac`];
    case 'service':
      return [`${ok} made service ${word(plan, step.url, 'url')} ;; esac`];
    default:
      return [];
  }
}

/** A step needs the values it sends learned: else it cannot be sent, and the replay says so. */
function needs(plan: ReplayPlan, step: PlanStep): string[] {
  const text = JSON.stringify([step.url, step.headers, step.basic, step.body]);
  const names = [...new Set([...text.matchAll(/\{\{(v\d+)\}\}/g)].map((m) => m[1] as string))];
  return names
    .filter((name) => plan.vars[name]?.kind === 'answer')
    .map((name) => `need ${name} ${shellWord(describeStep(step))}`);
}

/** The curl arguments of a step: method, headers, credentials, body, URL. `loop`: client values' suffix. */
function curlArgs(plan: ReplayPlan, step: PlanStep, loop?: string): string {
  const w = (template: string, context: Context) => word(plan, template, context, loop);
  const parts = ['-X', shellWord(step.method)];
  for (const [name, value] of Object.entries(step.headers)) {
    if (['host', 'content-length', 'connection', 'accept-encoding'].includes(name)) continue;
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
function word(plan: ReplayPlan, template: string, context: Context, loop?: string): string {
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
function literal(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
  if (!/[\u0000-\u001f\u007f]/.test(text)) return shellWord(text);
  const escaped = text
    .replaceAll('\\', '\\\\')
    .replaceAll("'", `'\\''`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces
    .replace(/[\u0000-\u001f\u007f]/g, (c) => `\\0${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
  return `"$(printf '%b' '${escaped}')"`;
}

/** Removes what the replay made, each with the credential that made it; then the temporary folder. */
function cleanup(plan: ReplayPlan): string[] {
  const { orders, webhooks } = plan.paths;
  const at = (path: string) => {
    const [before, after] = path.split('{id}');
    return `"$TARGET"${literal(before ?? '')}"$_id"${after ? literal(after) : ''}`;
  };
  const tokenSteps = [
    ...new Set(
      plan.steps.flatMap((s) =>
        (s.makes === 'order' || s.makes === 'webhook') && s.tokenFrom !== undefined
          ? [s.tokenFrom]
          : [],
      ),
    ),
  ];
  const again = tokenSteps.flatMap((id) => {
    const step = plan.steps.find((s) => s.id === id);
    if (!step) return [];
    return [
      `again_${id}() { fire ${id}t ${curlArgs(plan, step)}; PICK=${shellWord(picks(plan, step))} LC_ALL=C awk -f "$T/values.awk" "$T/${id}t.h" "$T/${id}t.b" > "$T/p" 2>/dev/null; ${captures(plan, step)[0] ?? ':'}; }`,
    ];
  });
  return [
    ...again,
    '# unmake TOKEN-VARIABLE TOKEN-STEP CURL-ARGS: with the token that made it; a new one if that expired',
    'unmake() {',
    '  _tv=$1; _from=$2; shift 2',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    '  case $_tv in v[0-9]*) eval "_tk=\\${$_tv:-}" ;; *) return 0 ;; esac',
    `  _c=$(curl -sS --max-time 30 --proto =http,https -o /dev/null -w '%{http_code}' -H "authorization: Bearer $_tk" "$@" 2>/dev/null)`,
    '  if [ "$_c" = 401 ] && [ "$_from" != - ] && command -v "again_$_from" >/dev/null 2>&1; then',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    '    "again_$_from"; eval "_tk=\\${$_tv:-}"',
    '    curl -sS --max-time 30 --proto =http,https -o /dev/null -H "authorization: Bearer $_tk" "$@" 2>/dev/null',
    '  fi',
    '  return 0',
    '}',
    'cleanup() {',
    "  trap '' INT TERM",
    '  if [ -s "$T/made" ]; then',
    ...(plan.control
      ? [
          '    # Service states first: a read-only account refuses the cancels.',
          '    while read -r _k _id _tv _from; do',
          '      case $_k in',
          `        service) curl -sS --max-time 30 --proto =http,https -o /dev/null -X PATCH -H "x-control-token: $CONTROL_TOKEN" -H 'content-type: application/json' --data-raw '{"service":"normal","suspended":false,"incomplete":false}' "$CONTROL_URL$_id" 2>/dev/null ;;`,
          '      esac',
          '    done < "$T/made"',
        ]
      : []),
    '    while read -r _k _id _tv _from; do',
    '      case $_k in',
    `        order) unmake "$_tv" "$_from" -X POST ${at(orders.cancel)} ;;`,
    `        webhook) unmake "$_tv" "$_from" -X ${shellWord(webhooks.remove)} ${at(webhooks.item)} ;;`,
    '      esac',
    '    done < "$T/made"',
    ...(plan.control
      ? [
          '    while read -r _k _id _tv _from; do',
          '      case $_k in',
          '        key) curl -sS --max-time 30 --proto =http,https -o /dev/null -X POST -H "x-control-token: $CONTROL_TOKEN" "$CONTROL_URL/keys/$_id/revoke" 2>/dev/null ;;',
          '      esac',
          '    done < "$T/made"',
        ]
      : []),
    '  fi',
    '  rm -rf "$T"',
    '}',
  ];
}

/** One node judges every answer as repro/<RULE>.mjs would, and writes its exit code. */
function judge(plan: ReplayPlan): string[] {
  const data = {
    rule: plan.rule,
    ...(plan.reason ? { reason: plan.reason } : {}),
    vars: plan.vars,
    steps: plan.steps.map((s) => ({
      id: s.id,
      method: s.method,
      url: s.url,
      ...(s.key ? { key: s.key } : {}),
    })),
    judge: plan.judge,
  };
  const program = `const REPRO = ${JSON.stringify(data)};\n\n${runtimeText('curl')}\n\ncurlMain(REPRO);`;
  return [
    '# The judgement: every answer judged as the check judged the run’s, with what came and what the rule requires.',
    `node --input-type=module - "$T" <<'${JUDGE_END}'`,
    ...endMarked(program, JUDGE_END),
    JUDGE_END,
    '_verdict=2; [ -s "$T/verdict" ] && read -r _verdict < "$T/verdict"',
    'case $_verdict in 0|1|2) ;; *) _verdict=2 ;; esac',
    'exit "$_verdict"',
  ];
}
